// Chapter 4's tour event: prefill and decode side by side, one on each die of the hero package.
// Pure geometry over the scene and its live layer (world/live/layer.h); time is the frame's.
#pragma once

#include <vector>

#include "world/live/events/firehose.h"
#include "world/live/layer.h"
#include "world/live/layer_inputs.h"

namespace world {

/// Chapter 4: the two phases of inference in one picture, a die each (a B200 package has two):
/// over each die a green slab as much of the die deep as its phase keeps the tensor cores busy
/// (the rest of the die covered dim), and its HBM stacks streaming into it as wide as the phase's
/// share of the bandwidth (the firehose's lanes). Prefill: the die lit, the stacks calm; decode:
/// the stacks at full stream, the die dark. The shares are a chapter calculator's
/// (LayerInputs::phases, in die order).
class DiePhases {
 public:
  static constexpr double SLAB_M = 0.0005;  // the slab's thickness over the die

  /// The dies and their stacks of the package at `packagePath` (none: not a package).
  static DiePhases build(const Scene& scene, const std::string& packagePath);
  size_t dies() const { return m_streams.size(); }
  const HbmStream& die(size_t i) const { return m_streams[i]; }
  /// The green slab over die `i` at tensor share `tensor` (0..1): the die's width, as much of
  /// its depth (along z, from its far edge) as the share; empty at 0.
  Aabb slab(size_t i, double tensor) const;
  void emit(const std::vector<DiePhase>& phases, double time_s, const glm::dvec3& eye,
            std::vector<gpu::Instance>& out) const;

 private:
  std::vector<HbmStream> m_streams;  // one per die
};

/// The phases as a layer over the package station's dies, each labelled with its phase.
class PhasesLayer : public PlacedLabelsLayer {
 public:
  static std::unique_ptr<LiveLayer> make(const LayerSources& sources);
  void emit(const LayerFrame& frame, std::vector<gpu::Instance>& out) override;
  const DiePhases& phases() const { return m_phases; }

 private:
  DiePhases m_phases;
};

}  // namespace world
