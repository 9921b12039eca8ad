// Compute made physical: the hero GPU's tensor cores glow with its tensor-core utilisation (bright
// in compute-bound phases, dim while it waits on communication), and its HBM PHYs and the HBM
// stack's TSVs glow with its HBM traffic against the HBM bandwidth (bright in memory-bound
// decode). The parts are shared by every SM and stack prototype, so the whole chip pulses as the
// hero GPU does. Pure logic over the engine; the world's part looks change in place.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/engine/snapshot.h"
#include "world/live/layer.h"
#include "world/live/layer_inputs.h"
#include "world/live/overlays.h"
#include "world/scene/scene.h"

namespace world {

/// How bright a part glows at activity `share` (0..1): emissive = minEmissive + range * share.
struct GlowStyle {
  float minEmissive = 0.05f;
  float emissiveRange = 0.9f;
};

/// The emissive strength of a part at activity `share` (clamped to 0..1).
float glowEmissive(double share, const GlowStyle& style = {});

class ComputeGlow {
 public:
  /// Finds the tensor-core parts ("tensor core …"), HBM PHYs ("HBM PHY …") and TSVs ("TSV …")
  /// of every prototype of `scene`; the hero rack's GPU `hero` drives them.
  static ComputeGlow build(const Scene& scene, const HeroGpu& hero);

  /// Sets the parts' glow from the engine's hero GPU now: tensor cores by its utilisation,
  /// PHYs and TSVs by its HBM bytes/s over the GPU's HBM bandwidth; each share moves by at most
  /// `maxStep` (world/live/calm.h: it pulses, it does not flash).
  void update(const sim::engine::Snapshot& snapshot, Scene& scene, double maxStep = 1e300);
  /// Shows `shares` instead for the frames that ask (the engine's return at the next update).
  void show(const ComputeShares& shares, Scene& scene) const;

  double tensorShare() const { return m_tensorShare; }
  double hbmShare() const { return m_hbmShare; }
  size_t tensorParts() const { return m_tensor.size(); }
  size_t memoryParts() const { return m_memory.size(); }

 private:
  struct PartRef {
    PrototypeId prototype;
    uint32_t part = 0;
    Look base;  // as built
  };
  std::vector<PartRef> m_tensor, m_memory;
  // The SMs' proxy boxes (what a die shows of them from afar) take the tensor cores' green.
  std::vector<std::pair<PrototypeId, Look>> m_proxies;
  HeroGpu m_hero;
  bool m_hasHero = false;
  double m_tensorShare = 0, m_hbmShare = 0;
};

/// The hero GPU's shares now (`hero`'s tensor-core utilisation and HBM bytes/s over its HBM
/// bandwidth, 0..1), or none when the snapshot has no such GPU.
std::optional<ComputeShares> heroGpuShares(const sim::engine::Snapshot& snapshot,
                                           const HeroGpu& hero);

/// The glow as a layer, always on: the stations' hero GPU (LayerSources::stationGpu) follows the
/// engine at each sync, or a chapter's calculator (LayerInputs::compute) for the frames that ask.
class ComputeGlowLayer : public LiveLayer {
 public:
  static std::unique_ptr<LiveLayer> make(const LayerSources& sources);
  void sync(const LayerSync& sync) override {
    m_glow.update(sync.snapshot, sync.scene, sync.calm.maxStep());
  }
  void emit(const LayerFrame& frame, std::vector<gpu::Instance>& /*out*/) override {
    if (frame.inputs.compute) m_glow.show(*frame.inputs.compute, frame.scene);
  }
  const ComputeGlow& glow() const { return m_glow; }

 private:
  ComputeGlow m_glow;
};

}  // namespace world
