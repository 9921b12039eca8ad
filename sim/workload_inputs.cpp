#include "sim/workload_inputs.h"

#include <algorithm>

namespace sim {

Result<HardwareInputs> hardwareInputs(const Catalog& catalog, const GpuSpec& gpu,
                                      const SystemSpec& system, const InterconnectSpec& nic,
                                      const SwitchSpec& fabric, int clusterGpus) {
  using R = Result<HardwareInputs>;
  HardwareInputs hw;
  hw.gpu = gpu;
  hw.domainGpus = std::max(1, std::min(system.scaleUpDomainGpus, clusterGpus));
  // Every GPU brings its share of the system's NICs to its domain (a partitioned NVL72 rack's
  // 8-GPU domain has 8 NICs, a whole one 72, a partly used DGX only its GPUs' rails).
  const double nicsPerGpu = system.gpus > 0 ? double(system.scaleOutNics) / system.gpus : 0.0;
  hw.nodeEgress_Bps = hw.domainGpus * nicsPerGpu * nic.linkPerDirection_Bps;
  hw.nicLatency_s = nic.latency_s;
  hw.fabricReduces = fabric.inNetworkReduction;
  hw.fabricTaper = fabric.taper;
  if (!system.scaleUpSwitchId.empty()) {
    auto scaleUp = loadSwitch(catalog, system.scaleUpSwitchId);
    if (!scaleUp) return R::failure(scaleUp.error() + " (systems." + system.id + ")");
    hw.scaleUpReduces = scaleUp->inNetworkReduction;
  }
  auto rules = loadRules(catalog);
  if (!rules) return R::failure(rules.error());
  hw.rules = *rules;
  auto collectives = loadCollectives(catalog, system.scaleUpSwitchId);
  if (!collectives) return R::failure(collectives.error());
  hw.collectives = *collectives;
  return hw;
}

calc::CollectiveTopology collectiveTopology(const HardwareInputs& hw, int ranks) {
  return {.ranks = ranks,
          .ranksPerNode = hw.domainGpus,
          .scaleUp_Bps = scaleUpPerDirection_Bps(hw.gpu),
          .nodeEgress_Bps = hw.nodeEgress_Bps,
          .scaleUpReduces = hw.scaleUpReduces,
          .fabricReduces = hw.fabricReduces,
          .fabricTaper = hw.fabricTaper};
}

void applyHardware(calc::TrainingDesc& d, const HardwareInputs& hw, Precision compute) {
  d.optimizerBytes = hw.rules.adamOptimizerBytesPerParam;
  d.reserve_bytes = hw.rules.frameworkReserve_bytes;
  d.gemm_flops = achievedGemmFlops(hw.gpu, compute);
  d.attention_flops = achievedAttentionFlops(hw.gpu);
  d.hbm_Bps = achievedHbm_Bps(hw.gpu);
  d.peak_flops = denseFlops(hw.gpu, compute);
  d.gpusPerNode = hw.domainGpus;
  d.scaleUp_Bps = scaleUpPerDirection_Bps(hw.gpu);
  d.nodeEgress_Bps = hw.nodeEgress_Bps;
  d.nicLatency_s = hw.nicLatency_s;
  d.scaleUpReduces = hw.scaleUpReduces;
  d.fabricReduces = hw.fabricReduces;
  d.fabricTaper = hw.fabricTaper;
  d.collectives = hw.collectives;
}

void applyHardware(calc::ServingDesc& d, const HardwareInputs& hw, Precision compute) {
  d.gemm_flops = achievedGemmFlops(hw.gpu, compute);
  d.attention_flops = achievedAttentionFlops(hw.gpu);
  d.hbm_Bps = achievedHbm_Bps(hw.gpu);
  d.usable_bytes = hw.gpu.hbmUsable_bytes;
  d.reserve_bytes = hw.rules.frameworkReserve_bytes;
  d.memoryFraction = hw.rules.memoryFraction;
  d.maxNumTokens = hw.rules.maxNumTokens;
  d.kernelsPerLayer = hw.rules.kernelsPerLayer;
  d.kernelLaunch_s = hw.rules.kernelLaunch_s;
  d.tpTopology = collectiveTopology(hw, d.tp);
  d.collectives = hw.collectives;
}

}  // namespace sim
