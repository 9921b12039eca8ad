// The heat map: the chosen metric (power, temperature, utilisation, stage) colours the campus's
// racks and the hero rack's GPUs through a tint rule over the scene, eased towards the engine's
// values (world/live/calm.h), with the nearest racks' and GPUs' values as labels. Not a layer of
// instances (world/live/layer.h): it recolours the scene's own parts.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "world/live/calm.h"
#include "world/live/overlays.h"
#include "world/scene/render_list.h"
#include "world/scene/scene.h"

namespace world {

class HeatOverlay {
 public:
  /// Binds the tint to `scene`'s racks (after a build, and after a world takes another's
  /// contents); `unbind` clears it.
  void bind(const Scene& scene, const RackMap& racks) { m_tint.bind(scene, racks); }
  void unbind() { m_tint = OverlayTint(); }
  /// The engine's values of `metric` now; what is drawn moves towards them by calm's step.
  void sync(const sim::engine::Snapshot& snapshot, OverlayMetric metric, const Calm& calm);
  /// The tint of the next frame (nullptr: every part its own look).
  const TintRule* tint();
  /// Up to `maxLabels` labels, nearest first, of the racks and hero GPUs on screen, large enough
  /// and not hidden behind something else.
  void labels(const CullView& view, uint32_t width_px, uint32_t maxLabels, const Scene& scene,
              const RackMap& racks, const std::vector<HeroGpu>& heroGpus, std::vector<Label>& out);
  /// As drawn (eased towards the engine's).
  OverlayState& state() { return m_shown; }
  const OverlayState& state() const { return m_shown; }

 private:
  OverlayTint m_tint;
  OverlayState m_shown;                                   // as drawn: eased towards the engine's
  OverlayState m_target;                                  // the engine's now
  std::vector<std::pair<double, uint32_t>> m_candidates;  // reused every frame
};

}  // namespace world
