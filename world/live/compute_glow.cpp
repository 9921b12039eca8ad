#include "world/live/compute_glow.h"

#include "world/live/calm.h"

#include <algorithm>

namespace world {
namespace {

bool startsWith(const std::string& text, const char* prefix) {
  return text.rfind(prefix, 0) == 0;
}

}  // namespace

float glowEmissive(double share, const GlowStyle& style) {
  return style.minEmissive + style.emissiveRange * float(std::clamp(share, 0.0, 1.0));
}

ComputeGlow ComputeGlow::build(const Scene& scene, const HeroGpu& hero) {
  ComputeGlow glow;
  glow.m_hero = hero;
  glow.m_hasHero = true;
  for (uint32_t p = 0; p < scene.prototypeCount(); ++p) {
    const Prototype& proto = scene.prototype(PrototypeId{p});
    for (uint32_t i = 0; i < proto.parts.size(); ++i) {
      const Part& part = proto.parts[i];
      if (startsWith(part.name, "tensor core")) {
        glow.m_tensor.push_back({PrototypeId{p}, i, part.look});
      } else if (startsWith(part.name, "HBM PHY") || startsWith(part.name, "TSV")) {
        glow.m_memory.push_back({PrototypeId{p}, i, part.look});
      }
    }
  }
  return glow;
}

void ComputeGlow::update(const sim::engine::Snapshot& snapshot, Scene& scene, double maxStep) {
  const sim::engine::Cluster& cluster = (*snapshot.cluster);
  const uint32_t local = m_hero.local(std::max(1u, cluster.gpusPerTray));
  if (!m_hasHero || cluster.racks == 0 || local >= cluster.gpusPerRack) return;
  const uint32_t gpu = cluster.firstGpuOfRack({0}).index + local;
  const sim::engine::Snapshot& s = snapshot;
  if (gpu >= s.gpuUtilisation.size()) return;
  const double bandwidth_Bps = cluster.specs.gpu.hbmBandwidth_Bps;
  const double tensor = std::clamp(double(s.gpuUtilisation[gpu]), 0.0, 1.0);
  const double hbm =
      bandwidth_Bps > 0 ? std::clamp(s.gpuHbm_Bps[gpu] / bandwidth_Bps, 0.0, 1.0) : 0.0;
  m_tensorShare = slewTowards(m_tensorShare, tensor, maxStep);
  m_hbmShare = slewTowards(m_hbmShare, hbm, maxStep);
  for (const PartRef& ref : m_tensor) {
    Look look = ref.base;
    look.emissive = glowEmissive(m_tensorShare);
    scene.setPartLook(ref.prototype, ref.part, look);
  }
  for (const PartRef& ref : m_memory) {
    Look look = ref.base;
    look.emissive = glowEmissive(m_hbmShare);
    scene.setPartLook(ref.prototype, ref.part, look);
  }
}

}  // namespace world
