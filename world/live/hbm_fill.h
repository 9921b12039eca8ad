// Memory made physical: the hero HBM stack (the cut-open one) fills layer by layer, bottom up,
// with what the simulator panel's memory bar holds (weights, KV cache, activations ...), in the
// bar's colours; over capacity every layer turns red. Each DRAM die stands for 1/N of the
// capacity and takes the colour of what fills its middle. Pure logic: instances for the render
// list.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "world/live/layer.h"
#include "world/live/layer_inputs.h"
#include "world/scene/render_list.h"
#include "world/scene/scene.h"

namespace world {

class HbmStack {
 public:
  /// Finds the DRAM dies of the stack at `stackPath`, bottom up (the parts of one name are one
  /// die: a cut-open die is the boxes the cut leaves); none when it is missing.
  static HbmStack build(const Scene& scene, const std::string& stackPath);

  size_t layers() const { return m_dies.size(); }
  /// How many boxes layer `i` is drawn as (a skin each when it fills: one, or those a cut leaves).
  size_t boxes(size_t i) const { return i < m_dies.size() ? m_dies[i].size() : 0; }
  /// Which segment fills layer `i` (-1: empty; -2: over capacity).
  int layerSegment(const HbmFill& fill, size_t i) const;
  /// The segment's colour (the panel bar's palette: viridis at (k + 0.5) / n), linear RGB.
  static Look segmentLook(size_t k, size_t n);
  /// The share of the capacity the fill is over by (0 when it fits).
  static double overflowShare(const HbmFill& fill);
  /// The red of a stack over capacity (every layer, the spill and its pool): emitted.
  static constexpr Look OVERFLOW_LOOK{0.9f, 0.02f, 0.02f, 1.0f, 0.2f};
  /// The spill stands at most this many stack heights tall (a fill of 10x still fits the frame).
  static constexpr double MAX_SPILL_SHARE = 1.0;
  /// The pool round the stack's foot reaches out this share of the stack's width.
  static constexpr double POOL_SHARE = 0.05;
  /// A coloured skin over every filled die, positioned relative to `eye`; over capacity every
  /// layer red, a red spill on top as tall as the excess and a red pool round the foot.
  void emit(const HbmFill& fill, const glm::dvec3& eye, std::vector<gpu::Instance>& out) const;

 private:
  // World bounds, bottom up: the boxes of each die (one, or those a cut leaves, of one name).
  std::vector<std::vector<Aabb>> m_dies;
};

/// The fill as a layer: the hbm station's cut-open stack, filled from the panel's memory bar
/// (LayerInputs::hbmFill).
class HbmFillLayer : public LiveLayer {
 public:
  static std::unique_ptr<LiveLayer> make(const LayerSources& sources);
  void emit(const LayerFrame& frame, std::vector<gpu::Instance>& out) override {
    if (frame.inputs.hbmFill) m_stack.emit(*frame.inputs.hbmFill, frame.view.eye, out);
  }

 private:
  HbmStack m_stack;
};

}  // namespace world
