// One shape for every live visual (issue 32): a layer follows the simulation's snapshot (`sync`),
// puts its instances into a frame (`emit`) and adds its labels (`labels`). Traffic, coolant, the
// HBM fill, the compute glow, the systolic wave and every tour event are layers; world/live/
// layers.cpp lists them, and a frame switches them on by id (FrameDesc::layers). A layer keeps no
// pointer into the world it is built over (a rebuild swaps worlds): what it needs of the scene it
// copies at build, or takes from the sync and the frame.
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/engine/snapshot.h"
#include "world/builders/stations.h"
#include "world/live/calm.h"
#include "world/live/layer_id.h"
#include "world/live/layer_inputs.h"
#include "world/live/overlays.h"
#include "world/scene/render_list.h"
#include "world/scene/scene.h"

namespace world {

/// What the layers are built over: the built world's scene, racks, hero GPUs and stations.
struct LayerSources {
  const Scene& scene;
  const RackMap& racks;
  const std::vector<HeroGpu>& heroGpus;
  const std::vector<Station>& stations;
  /// The station called `name`, or nullptr.
  const Station* station(std::string_view name) const;
  /// The stations' hero GPU: the package the die and SM stations sit in (nullptr: none).
  const HeroGpu* stationGpu() const;
};

/// One sync: the snapshot, its generation, how fast the looks may follow, and the scene whose
/// part looks a layer may change (the compute glow).
struct LayerSync {
  const sim::engine::Snapshot& snapshot;
  uint64_t generation = 0;
  const Calm& calm;
  Scene& scene;
};

/// One frame, for `emit` and `labels`.
struct LayerFrame {
  const CullView& view;
  const LayerInputs& inputs;
  const Station* studio = nullptr;  // the station whose studio the frame is in, if any
  bool chipStudio = false;          // that studio is a chip's or a package's
  bool liveLabels = true;           // the frame wants live labels (FrameDesc::maxOverlayLabels)
  Scene& scene;
};

class LiveLayer {
 public:
  virtual ~LiveLayer() = default;
  virtual void sync(const LayerSync& /*sync*/) {}
  /// Instances relative to the frame's eye.
  virtual void emit(const LayerFrame& frame, std::vector<gpu::Instance>& out) = 0;
  virtual void labels(const LayerFrame& /*frame*/, std::vector<Label>& /*out*/) const {}
};
/// A layer that places its labels where its boxes land in the frame (a tour event's own words,
/// over the bars or screens it stands behind the hero), shown when the frame wants live labels.
class PlacedLabelsLayer : public LiveLayer {
 public:
  void labels(const LayerFrame& frame, std::vector<Label>& out) const override;

 protected:
  std::vector<std::pair<glm::dvec3, std::string>>
      m_placed;  // of the last frame (world): where, what
};

using LayerMaker = std::unique_ptr<LiveLayer> (*)(const LayerSources&);

/// Label priorities (larger wins where labels overlap): what the view is about before what names
/// its parts, station names last.
namespace LabelRank {
inline constexpr float COOLANT = 1e6f;  // the CDU's temperatures and flow
inline constexpr float FABRIC = 5e5f;   // each fabric leg's load
inline constexpr float POWER = 4e5f;    // the campus's MW
inline constexpr float EVENT = 3e5f;    // a tour event's own words (a bar's, a screen's)
inline constexpr float CALLOUT = 2e5f;  // what a station's picture is about ("base die")
}  // namespace LabelRank

/// A label's anchor counts as seen when the first thing the ray to it meets is at least this
/// share of the way there (its own cover, a cold plate).
inline constexpr double LABEL_BLOCKER_SLACK = 0.93;

/// A label at `anchor` (camera-relative metres).
Label makeLabel(const glm::dvec3& anchor, std::string text, float priority);
/// Where a box's label points: the middle of its top face (world metres).
glm::dvec3 labelPoint(const Aabb& box);

/// Every layer of a world, in draw order (world/live/layers.cpp).
class LiveLayers {
 public:
  static LiveLayers build(const LayerSources& sources);
  void sync(const LayerSync& sync);
  /// The layers `on` asks for and those always on, in draw order.
  void emit(const LayerSet& on, const LayerFrame& frame, std::vector<gpu::Instance>& out);
  void labels(const LayerSet& on, const LayerFrame& frame, std::vector<Label>& out) const;

  /// The layer of type L (every world has one of each).
  template <class L>
  const L& get() const {
    for (const Entry& e : m_layers) {
      if (const auto* layer = dynamic_cast<const L*>(e.layer.get())) return *layer;
    }
    std::abort();  // every maker in layers.cpp runs for every world
  }
  template <class L>
  L& get() {
    return const_cast<L&>(std::as_const(*this).get<L>());
  }

 private:
  struct Entry {
    std::optional<LayerId> id;  // none: always on (drawn wherever its parts are in view)
    std::unique_ptr<LiveLayer> layer;
  };
  static bool drawn(const Entry& e, const LayerSet& on) { return !e.id || on.has(*e.id); }
  std::vector<Entry> m_layers;
};

}  // namespace world
