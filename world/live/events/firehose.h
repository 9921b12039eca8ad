// Chapter 2's tour event: HBM streaming into the die as wide as the bandwidth the GPU uses.
// Pure geometry over the scene and its live layer (world/live/layer.h); time is the frame's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "world/live/events/event_geometry.h"
#include "world/live/layer.h"

namespace world {

/// Chapter 2: the HBM "firehose": particles streaming from every HBM stack of a package into its
/// die, as many lanes and particles as the share of the HBM bandwidth the GPU streams.
class HbmStream {
 public:
  static constexpr uint32_t MAX_LANES = 5;  // per stack, at the full bandwidth
  static constexpr uint32_t PARTICLES_PER_LANE = 6;
  static constexpr double PASS_S = 1.2;  // seconds a particle takes from the stack to the die

  /// The stacks ("hbmN") and die ("die0") of the package at `packagePath`.
  static HbmStream build(const Scene& scene, const std::string& packagePath);
  /// One stream per die ("dieN", in order) of the package at `packagePath`, each from the
  /// stacks nearer that die than any other.
  static std::vector<HbmStream> perDie(const Scene& scene, const std::string& packagePath);
  const Aabb& die() const { return m_die; }
  const std::vector<Aabb>& stackBounds() const { return m_stacks; }
  /// Lanes per stack at HBM share `share` (0..1): none at 0, MAX_LANES at 1.
  static uint32_t lanes(double share);
  size_t stacks() const { return m_stacks.size(); }
  void emit(double share, double time_s, const glm::dvec3& eye,
            std::vector<gpu::Instance>& out) const;

 private:
  std::vector<Aabb> m_stacks;  // world
  Aabb m_die;
};

/// The firehose as a layer, into the die of the packages seen (the hero package's and the
/// gallery H100's): as wide as the hero GPU's HBM share, the engine's (eased as its glow is) or
/// a chapter's calculator's (LayerInputs::compute).
class FirehoseLayer : public LiveLayer {
 public:
  static std::unique_ptr<LiveLayer> make(const LayerSources& sources);
  void sync(const LayerSync& sync) override;
  void emit(const LayerFrame& frame, std::vector<gpu::Instance>& out) override;
  const std::vector<HbmStream>& streams() const { return m_streams; }

 private:
  std::vector<HbmStream> m_streams;
  std::optional<HeroGpu> m_hero;
  double m_hbmShare = 0;
};

}  // namespace world
