#include "world/live/compute_glow.h"

#include "world/live/calm.h"

#include <algorithm>

namespace world {
namespace {

// Levels of prototypes above the tensor cores' whose proxies glow with them.
constexpr int PROXY_LEVELS = 2;

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
  // What stands for the tensor cores from afar: the proxy boxes of the prototypes that hold
  // them, and of those holding these, up to PROXY_LEVELS up (sub-partition, SM, GPC; not the
  // die, whose box is everything on it).
  std::vector<bool> holds(scene.prototypeCount(), false);
  for (const PartRef& ref : glow.m_tensor) holds[ref.prototype.index] = true;
  std::vector<bool> level = holds;
  for (int up = 0; up < PROXY_LEVELS; ++up) {
    std::vector<bool> next(scene.prototypeCount(), false);
    for (uint32_t p = 0; p < scene.prototypeCount(); ++p) {
      for (const ChildInstance& child : scene.prototype(PrototypeId{p}).children) {
        if (level[child.prototype.index]) next[p] = true;
      }
    }
    for (uint32_t p = 0; p < scene.prototypeCount(); ++p) holds[p] = holds[p] || next[p];
    level = std::move(next);
  }
  for (uint32_t p = 0; p < scene.prototypeCount(); ++p) {
    const Prototype& proto = scene.prototype(PrototypeId{p});
    if (holds[p] && proto.lod.hasProxy)
      glow.m_proxies.push_back({PrototypeId{p}, proto.lod.proxyLook});
  }
  return glow;
}

std::optional<ComputeShares> heroGpuShares(const sim::engine::Snapshot& snapshot,
                                           const HeroGpu& hero) {
  const sim::engine::Cluster& cluster = (*snapshot.cluster);
  const uint32_t local = hero.local(std::max(1u, cluster.gpusPerTray));
  if (cluster.racks == 0 || local >= cluster.gpusPerRack) return std::nullopt;
  const uint32_t gpu = cluster.firstGpuOfRack({0}).index + local;
  if (gpu >= snapshot.gpuUtilisation.size()) return std::nullopt;
  const double bandwidth_Bps = cluster.specs.gpu.hbmBandwidth_Bps;
  ComputeShares shares;
  shares.tensor = std::clamp(double(snapshot.gpuUtilisation[gpu]), 0.0, 1.0);
  shares.hbm =
      bandwidth_Bps > 0 ? std::clamp(snapshot.gpuHbm_Bps[gpu] / bandwidth_Bps, 0.0, 1.0) : 0.0;
  return shares;
}

void ComputeGlow::update(const sim::engine::Snapshot& snapshot, Scene& scene, double maxStep) {
  if (!m_hasHero) return;
  const std::optional<ComputeShares> now = heroGpuShares(snapshot, m_hero);
  if (!now) return;
  m_tensorShare = slewTowards(m_tensorShare, now->tensor, maxStep);
  m_hbmShare = slewTowards(m_hbmShare, now->hbm, maxStep);
  show({m_tensorShare, m_hbmShare}, scene);
}

void ComputeGlow::show(const ComputeShares& shares, Scene& scene) const {
  for (const PartRef& ref : m_tensor) {
    Look look = ref.base;
    look.emissive = glowEmissive(shares.tensor);
    scene.setPartLook(ref.prototype, ref.part, look);
  }
  for (const PartRef& ref : m_memory) {
    Look look = ref.base;
    look.emissive = glowEmissive(shares.hbm);
    scene.setPartLook(ref.prototype, ref.part, look);
  }
  // A far SM is one box: it turns the tensor cores' colour as they work, glowing with them.
  const Look tensor = m_tensor.empty() ? Look{} : m_tensor.front().base;
  const float k = float(std::clamp(shares.tensor, 0.0, 1.0));
  for (const auto& [prototype, base] : m_proxies) {
    Look look = base;
    look.r = base.r + (tensor.r - base.r) * k;
    look.g = base.g + (tensor.g - base.g) * k;
    look.b = base.b + (tensor.b - base.b) * k;
    look.emissive = k > 0 ? glowEmissive(shares.tensor) : base.emissive;
    scene.setProxyLook(prototype, look);
  }
}

std::unique_ptr<LiveLayer> ComputeGlowLayer::make(const LayerSources& sources) {
  auto layer = std::make_unique<ComputeGlowLayer>();
  if (const HeroGpu* gpu = sources.stationGpu()) {
    layer->m_glow = ComputeGlow::build(sources.scene, *gpu);
  }
  return layer;
}

}  // namespace world
