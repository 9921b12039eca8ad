// Chapter 5's tour event: a panel's answer as bars behind the station's hero.
// Pure geometry over the scene and its live layer (world/live/layer.h); time is the frame's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "world/live/events/event_geometry.h"
#include "world/live/layer.h"
#include "world/live/layer_inputs.h"

namespace world {

/// Chapter 5: a chapter panel's answer as floating bars behind the station's hero (the TCO's
/// dollars per million tokens of each accelerator compared), one per value, heights in
/// proportion, the chosen one lit in the compute green and the rest dim. Pure layout over the
/// hero's bounds; the values are the panel's (FrameDesc::valueBars).
class ValueBars {
 public:
  static constexpr double WIDTH_SHARE = 0.1;    // of the hero's width, each bar
  static constexpr double HEIGHT_SHARE = 0.35;  // the tallest, of the hero's width, at most
  static constexpr double GAP_SHARE = 0.05;     // between bars, of the hero's width
  /// The tallest bar's top stays this share of the frame's half height below its top edge.
  static constexpr double TOP_MARGIN_SHARE = 0.15;
  /// The bars' boxes in the order given: a row along the view's right (horizontal) centred on
  /// the hero and standing on its far edge (along its forward), heights in proportion to the
  /// values, the largest HEIGHT_SHARE of the hero's width tall or less: as tall as the view
  /// shows, its top TOP_MARGIN_SHARE below the frame's top edge.
  static std::vector<Aabb> layout(const Aabb& hero, const CullView& view,
                                  const std::vector<ValueBar>& bars);
  static void emit(const std::vector<Aabb>& boxes, const std::vector<ValueBar>& bars,
                   const glm::dvec3& eye, std::vector<gpu::Instance>& out);
};

/// The value bars as a layer: the panel's bars (LayerInputs::valueBars) behind the studio's hero,
/// each labelled with what it is.
class ValueBarsLayer : public PlacedLabelsLayer {
 public:
  static std::unique_ptr<LiveLayer> make(const LayerSources& sources);
  void emit(const LayerFrame& frame, std::vector<gpu::Instance>& out) override;
};

}  // namespace world
