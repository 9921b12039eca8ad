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
#include "world/live/compute_glow.h"
#include "world/live/coolant.h"
#include "world/live/hbm_fill.h"
#include "world/live/overlays.h"
#include "world/live/systolic.h"
#include "world/live/tour_events.h"
#include "world/live/traffic.h"
#include "world/scene/camera.h"

namespace world {

struct WorldDesc {
  CampusDesc campus;
  glm::dvec3 origin_m{0.0};  // where the campus centre sits (precision tests move it far away)
  double verticalFov_rad = VIEW_FOV_RAD;        // for station framing; the camera's own FOV rules
  std::vector<ComponentModel> componentModels;  // built-in parts drawn as glTF models instead
};

/// "CDU  supply 25 °C  return 39 °C  flow 100 % (derived)": the label of the hero row's CDU when
/// the coolant is shown (supply and mixed return temperature, pump flow share).
std::string coolantLabel(const CoolantState& state);

/// "to spine 2  412 Gb/s  38 % (derived)", "to leaf  16.4 Tb/s  57 % (derived)", "to leaf
/// PFC-paused": the label of fabric leg
/// `index` (0: the leg into the leaf rack) when the traffic is shown.
std::string fabricLegLabel(const FabricLeg& leg, size_t index);

/// "substation  30.0 MW now", "hall 2  6.1 MW now": the label of a power flow
/// (world/live/tour_events.h): the engine's power at this moment of the step, which swings
/// between its compute and communication phases.
std::string powerFlowLabel(const PowerFlow::Flow& flow);

/// Per-frame inputs besides the camera.
struct FrameDesc {
  uint32_t width_px = 1280;
  uint32_t height_px = 720;
  double lodScale = 1.0;          // > 1: coarser (expand prototypes later)
  bool cull = true;               // false: draw what is outside the view too (benchmark baseline)
  uint32_t maxLabels = 6;         // station labels in view, largest first
  std::string selectedPath;       // instance path (PickHit::path) drawn with params.z = 1 (outline)
  uint32_t maxOverlayLabels = 6;  // live metric labels (nearest racks / hero GPUs in view)
  bool traffic = false;           // draw the hero rack's traffic particles (world/live/traffic.h)
  bool coolant = false;           // draw the hero rack's coolant flow (world/live/coolant.h)
  const HbmFill* hbmFill = nullptr;  // fill the hero HBM stack with this (world/live/hbm_fill.h)
  double animationTime_s = 0;        // clock of the animations (the TPU's systolic wave)
  // The tour's visual events (world/live/tour_events.h), each driven by the last synced snapshot:
  // the ring AllReduce over the hero row, the hero rack's NVLink domain lit tray by tray
  // `eventTime_s` after the step began, and the goodput columns beside it.
  bool ring = false;
  bool hbmStream = false;  // HBM into the die of the packages seen (the compute shares' HBM)
  bool powerFlow = false;  // the campus's power from the substation to the halls, heat to the yards
  // The hero GPU's glow from a chapter's calculator instead of the engine (chapter 4's prefill
  // and decode), for this frame.
  std::optional<ComputeShares> compute;
  bool nvlinkDomain = false;
  bool goodput = false;
  bool stageBands = false;  // hall 0's trays lit in their pipeline stage's colour
  // A panel's answer as floating bars behind the studio station's hero (empty: none).
  std::vector<ValueBar> valueBars;
  // Chapter 1's pixel race on two screens behind the studio station's hero, `eventTime_s` in.
  std::optional<PixelRaceDesc> pixelRace;
  double eventTime_s = 0;
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
    return m_scene.pick(origin, direction, &m_studio);
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

  /// The overlay drawn every frame (metric None: the default look, no live labels).
  OverlayState& overlay() { return m_overlay; }
  const OverlayState& overlay() const { return m_overlay; }
  /// The campus's racks in RackId order.
  const RackMap& racks() const { return m_racks; }
  /// The hero rack's GPU packages built as their own instances (the open hero tray's).
  const std::vector<HeroGpu>& heroGpus() const { return m_heroGpus; }
  /// The hero rack's traffic (drawn when FrameDesc::traffic; updated by sync).
  Traffic& traffic() { return m_traffic; }
  /// Frame stage 3: everything live follows the simulation's snapshot — the overlay with
  /// `metric`, the traffic, the coolant flow and the hero GPU's compute glow (which changes the
  /// parts' looks in the scene). `generation` is the simulation's (SimHost::generation); the
  /// render lists built after carry it. `calm` bounds how fast the colours and the glow follow
  /// (world/live/calm.h; a default Calm jumps to the values, as a still shows them).
  void sync(const sim::engine::Snapshot& snapshot, OverlayMetric metric, uint64_t generation,
            const Calm& calm = {});
  /// The generation of the last sync.
  uint64_t generation() const { return m_generation; }
  /// The hero GPU's tensor cores and HBM glowing with its activity (updated by sync).
  const ComputeGlow& computeGlow() const { return m_computeGlow; }
  /// The tour's events over the hero rack and the step split of the last sync.
  const AllReduceRing& ring() const { return m_ring; }
  const std::vector<HbmStream>& hbmStreams() const { return m_hbmStreams; }
  const PowerFlow& powerFlow() const { return m_power; }
  const std::vector<double>& hallPower_W() const { return m_hallPower_W; }
  const AllReduceRing::State& ringState() const { return m_ringState; }
  const NvlinkDomain& nvlinkDomain() const { return m_nvlink; }
  const GoodputColumns& goodputColumns() const { return m_goodput; }
  /// Chapter 9's stage bars on hall 0's racks, of the last sync's training job.
  const std::vector<StageBands::Bar>& stageBars() const { return m_stageBars; }
  const std::vector<StageBands::Bar>& stageRibbon() const { return m_stageRibbon; }
  const sim::engine::StepSplit& stepSplit() const { return m_stepSplit; }
  const Traffic& traffic() const { return m_traffic; }
  /// The hero rack's coolant flow (drawn when FrameDesc::coolant; updated by sync).
  Coolant& coolant() { return m_coolant; }
  const Coolant& coolant() const { return m_coolant; }

 private:
  World() = default;
  uint64_t m_generation = 0;
  StudioFilter m_studio;  // of the last frame built
  MeshLibrary m_meshes;
  TextureLibrary m_textures;
  PrimitiveMeshes m_primitives;
  Scene m_scene;
  Traffic m_traffic;
  ComputeGlow m_computeGlow;
  Coolant m_coolant;
  Aabb m_cduBounds;  // the hero row's CDU (world), where its coolant label sits
  HbmFillLayer m_hbmFill;
  SystolicWave m_systolic;
  AllReduceRing m_ring;
  std::vector<HbmStream> m_hbmStreams;  // the hero package's and the gallery H100's
  PowerFlow m_power;
  std::vector<double> m_hallPower_W;  // of the last sync
  AllReduceRing::State m_ringState;   // of the last sync
  NvlinkDomain m_nvlink;
  GoodputColumns m_goodput;
  StageBands m_stages;
  // The labels of the events drawn in the frame built last (the value bars, the pixel race's
  // screens): where (world) and what.
  std::vector<std::pair<glm::dvec3, std::string>> m_eventLabels;
  std::vector<StageBands::Bar> m_stageBars,
      m_stageRibbon;                         // of the last sync's job (laid out once a run)
  uint32_t m_stageCount = 0;                 // its pipeline stages
  uint64_t m_stagesGeneration = UINT64_MAX;  // the sync generation they were laid out for
  sim::engine::StepSplit m_stepSplit;        // of the last sync
  uint32_t m_domainGpus = 0, m_gpusPerTray = 0;
  std::vector<Station> m_stations;
  std::vector<std::vector<gpu::Instance>> m_scratch;  // per-mesh instances, reused every frame
  std::vector<gpu::Instance> m_animated;  // traffic, coolant, HBM fill, systolic wave: boxes
  CollectScratch m_collectScratch;
  bool m_shadowCasting = false;  // the budgeted walk's buffers, reused every frame
  std::vector<std::pair<float, uint32_t>> m_order;  // draw order of one bucket, reused
  RackMap m_racks;
  OverlayTint m_tint;
  OverlayState m_overlay;        // as drawn: eased towards the engine's
  OverlayState m_overlayTarget;  // the engine's now
  std::vector<HeroGpu> m_heroGpus;
  std::vector<std::pair<double, uint32_t>> m_labelCandidates;  // reused every frame

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

  void addOverlayLabels(const CullView& view, const FrameDesc& frame, RenderList& out);
  /// The studio station's callouts on its hero ("base die"), those not hidden from the eye.
  void addCallouts(const Station& station, const CullView& view, RenderList& out) const;
  /// The hero row's CDU: supply and return temperature and pump flow, over its cabinet.
  void addCoolantLabel(const CullView& view, RenderList& out) const;
  /// Each fabric leg's Gb/s and load (or its pause) over the switch rack it enters.
  void addFabricLabels(const CullView& view, RenderList& out) const;
  /// The substation's and each hall's MW over their power flows.
  void addEventLabels(const CullView& view, const FrameDesc& frame, RenderList& out) const;
  void addPowerLabels(const CullView& view, const FrameDesc& frame, RenderList& out) const;
};

}  // namespace world
