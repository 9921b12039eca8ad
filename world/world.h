// The one continuous world: the campus with its halls, rows, racks and the hero GPU down to its
// SMs, all at true scale in one scene; and the per-frame step that turns a camera into a
// render list (culled, LOD chosen, camera-relative).
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/result.h"
#include "world/builders/builders.h"
#include "world/builders/model_prototype.h"
#include "world/builders/stations.h"
#include "world/live/calm.h"
#include "world/live/heat_overlay.h"
#include "world/live/layer.h"
#include "world/scene/camera.h"

namespace world {

struct WorldDesc {
  CampusDesc campus;
  glm::dvec3 origin_m{0.0};  // where the campus centre sits (precision tests move it far away)
  double verticalFov_rad = VIEW_FOV_RAD;        // for station framing; the camera's own FOV rules
  std::vector<ComponentModel> componentModels;  // built-in parts drawn as glTF models instead
};

/// Per-frame inputs besides the camera.
struct FrameDesc {
  uint32_t width_px = 1280;
  uint32_t height_px = 720;
  double lodScale = 1.0;          // > 1: coarser (expand prototypes later)
  bool cull = true;               // false: draw what is outside the view too (benchmark baseline)
  uint32_t maxLabels = 6;         // station labels in view, largest first
  std::string selectedPath;       // instance path (PickHit::path) drawn with params.z = 1 (outline)
  uint32_t maxOverlayLabels = 6;  // live metric labels (nearest racks / hero GPUs in view)
  // The live layers drawn (world/live/layer.h; those always on besides) and what the panels and
  // the tour feed them.
  LayerSet layers;
  LayerInputs inputs;
  // The station whose studio the view is in, when the view knows it (a station's still, a tour
  // step that has landed); empty: found from what the camera looks at (World::studioFor).
  std::string studio;
  // Triangles a frame may submit (architecture.md: <= 150,000 on software Vulkan at 1280x720).
  // Prototypes beyond it stay as their proxy box, those largest on screen opening first;
  // UINT64_MAX: no limit (the benchmark's naive baselines).
  uint64_t triangleBudget = 150000;
};

struct FrameStats {
  uint64_t triangles = 0;
  uint32_t instances = 0;
  uint32_t prototypesVisited = 0;
  uint32_t heldBack = 0;        // prototypes left as their proxy to stay within the triangle budget
  double nearestSurface_m = 0;  // what the near plane and fly speed follow
};

class World {
 public:
  /// Builds the world from catalog dimensions.
  static sim::Result<std::unique_ptr<World>> create(const Dimensions& dims,
                                                    const WorldDesc& desc = {});

  /// A viewer for one imported model: the model at its own size on a floor, and one station,
  /// "model", that frames it.
  static sim::Result<std::unique_ptr<World>> createViewer(const ImportedModel& model,
                                                          double verticalFov_rad);

  /// Swaps this world's contents for `fresh`'s (a rebuild for another cluster, at a frame
  /// boundary) and returns the old contents, to be read (stations, racks) and dropped, not drawn.
  /// What holds this World (a booth, a frame) still holds it; what holds its stations, parts or
  /// meshes must find them again. The shadow-casting choice stays with this world; the overlay
  /// tint is bound to this world's racks again.
  std::unique_ptr<World> adopt(std::unique_ptr<World> fresh);

  const MeshLibrary& meshes() const { return m_meshes; }
  /// Sun shadows are drawn (the renderer's high preset): frames ask for them
  /// (ViewParams::shadowDistanceMeters) and keep what lies outside the view but may cast a
  /// shadow into it. Off (the default): neither, so the low preset submits only what is seen.
  void setShadowCasting(bool on) { m_shadowCasting = on; }
  /// Imported models' base colour images (empty without any).
  const TextureLibrary& textures() const { return m_textures; }
  const Scene& scene() const { return m_scene; }
  const std::vector<Station>& stations() const { return m_stations; }
  /// The station called `name`, or nullptr.
  const Station* station(const std::string& name) const;

  /// Fills `out` for `camera` (cleared first): instances in batches per mesh, view parameters
  /// with the near plane at half the distance to the nearest surface, a few station labels.
  FrameStats buildRenderList(const Camera& camera, const FrameDesc& frame, RenderList& out);
  /// The part under pixel (x, y), if any, of what the last frame drew (its studio).
  std::optional<PickHit> pick(const Camera& camera, double x_px, double y_px,
                              const FrameDesc& frame) const;
  /// The part the ray from `origin` along `direction` meets first, of what the last frame drew
  /// (its studio): a click or a line of sight never meets a part the studio hides.
  std::optional<PickHit> pickAlong(const glm::dvec3& origin, const glm::dvec3& direction) const {
    return m_scene.pick(origin, direction, &m_frame.studio);
  }
  /// The station whose hero the camera at `eye` looks at along `forward` (the studio a frame
  /// there is lit as; `hint`: the one the frame names, FrameDesc::studio), or nullptr.
  const Station* stationInView(const glm::dvec3& eye, const glm::dvec3& forward,
                               const std::string& hint = {}) const {
    return studioFor(eye, forward, std::max(0.0, nearestSurface(eye)), hint).station;
  }
  /// Distance from `point` to the nearest surface (metres).
  double nearestSurface(const glm::dvec3& point) const {
    return m_scene.nearestSurfaceDistance(point);
  }

  /// The heat map drawn every frame (metric None: the default look, no live labels).
  OverlayState& overlay() { return m_heat.state(); }
  const OverlayState& overlay() const { return m_heat.state(); }
  /// The campus's racks in RackId order.
  const RackMap& racks() const { return m_racks; }
  /// The hero rack's GPU packages built as their own instances (the open hero tray's).
  const std::vector<HeroGpu>& heroGpus() const { return m_heroGpus; }
  /// Frame stage 3: everything live follows the simulation's snapshot — the heat map with
  /// `metric` and every live layer (some change the parts' looks in the scene: the compute
  /// glow). `generation` is the simulation's (SimHost::generation); the render lists built after
  /// carry it. `calm` bounds how fast the colours and the glow follow (world/live/calm.h; a
  /// default Calm jumps to the values, as a still shows them).
  void sync(const sim::engine::Snapshot& snapshot, OverlayMetric metric, uint64_t generation,
            const Calm& calm = {});
  /// The generation of the last sync.
  uint64_t generation() const { return m_generation; }
  /// The live layer of type L (world/live/layers.cpp: every world has one of each).
  template <class L>
  const L& layer() const {
    return m_layers.get<L>();
  }
  template <class L>
  L& layer() {
    return m_layers.get<L>();
  }

 private:
  World() = default;
  /// Builds the live layers and binds the heat map over the scene, racks and stations built.
  void bindLive();

  uint64_t m_generation = 0;
  bool m_shadowCasting = false;
  MeshLibrary m_meshes;
  TextureLibrary m_textures;
  PrimitiveMeshes m_primitives;
  Scene m_scene;
  std::vector<Station> m_stations;
  RackMap m_racks;
  std::vector<HeroGpu> m_heroGpus;
  HeatOverlay m_heat;
  LiveLayers m_layers;
  // What one frame reuses of the last (buffers), and the studio it drew (what a click can hit).
  struct FrameScratch {
    StudioFilter studio;
    std::vector<std::vector<gpu::Instance>> buckets;  // per mesh
    std::vector<gpu::Instance> animated;              // the live layers' boxes
    CollectScratch collect;
    std::vector<std::pair<float, uint32_t>> order;  // draw order of one bucket
  } m_frame;

  // The studio a frame is in: the station whose hero the camera looks at (if any), how far the
  // view ray goes to what it meets, and where the fog starts and swallows everything (metres).
  struct Studio {
    const Station* station = nullptr;
    double focus_m = 0;
    double fogStart_m = 0, fogEnd_m = 0;
  };
  Studio studioFor(const glm::dvec3& eye, const glm::dvec3& forward, double clearance,
                   const std::string& hint) const;
  /// The backdrop, fog, lights and studio floor of `studio` for a camera at `eye`.
  void lightStudio(const Studio& studio, const glm::dvec3& eye, ViewParams& view) const;

  /// The view of `camera` for `frame`, in `studio`.
  CullView cullView(const Camera& camera, const FrameDesc& frame, const Studio& studio) const;
  /// Keeps what lies outside the view but may cast a sun shadow into it (the high preset).
  void keepShadowCasters(double clearance, const ViewParams& params, CullView& view) const;
  /// The frame's instances from the buckets in batches per mesh, near to far.
  void batch(RenderList& out);
  /// The camera, near plane, studio light and sun shadows of a frame whose nearest surface is
  /// `nearest_m` away.
  void placeView(const Camera& camera, const Studio& studio, const glm::dvec3& eye,
                 double nearest_m, ViewParams& view) const;
  /// Stations in front of the camera whose size on screen is readable, largest first.
  void addStationLabels(const Studio& studio, const CullView& view, const FrameDesc& frame,
                        RenderList& out) const;
  /// The studio station's callouts on its hero ("base die"), those not hidden from the eye.
  void addCallouts(const Station& station, const CullView& view, RenderList& out) const;
};

}  // namespace world
