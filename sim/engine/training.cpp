#include "sim/engine/training.h"

#include <algorithm>
#include <string>

#include "sim/calc/collectives.h"
#include "sim/calc/compute.h"
#include "sim/calc/memory.h"
#include "sim/calc/parallelism.h"
#include "sim/model_params.h"

namespace sim::engine {

Result<TrainingPlan> planTraining(const Catalog& catalog, const Cluster& cluster,
                                  const TrainingDesc& desc) {
  using R = Result<TrainingPlan>;
  TrainingPlan p;
  p.desc = desc;
  auto model = loadModel(catalog, desc.modelId);
  if (!model) return R::failure(model.error());
  p.model = *model;
  auto rules = loadRules(catalog);
  if (!rules) return R::failure(rules.error());
  auto nvlink = loadInterconnect(catalog, cluster.specs.gpu.scaleUpInterconnect);
  if (!nvlink) return R::failure(nvlink.error());

  if (desc.tp < 1 || desc.pp < 1 || desc.dp < 1)
    return R::failure("workload.training: tp, pp and dp must be >= 1");
  if (cluster.gpusPerRack % desc.tp != 0)
    return R::failure("workload.training.tp: " + std::to_string(desc.tp) +
                      " does not divide the NVLink domain of " +
                      std::to_string(cluster.gpusPerRack) + " GPUs");
  if (desc.pp > 250) return R::failure("workload.training.pp: at most 250 stages");
  const uint64_t groups = uint64_t(desc.pp) * desc.dp;
  const uint64_t slots = uint64_t(cluster.racks) * (cluster.gpusPerRack / desc.tp);
  if (groups > slots)
    return R::failure("workload.training: tp x pp x dp = " + std::to_string(groups * desc.tp) +
                      " GPUs exceed the fabric's " + std::to_string(cluster.gpuCount()));
  if (desc.microBatch < 1 || desc.microBatches < 1 || desc.virtualStages < 1)
    return R::failure("workload.training: microBatch, microBatches, virtualStages must be >= 1");
  if (!(desc.seqLen_tokens > 0)) return R::failure("workload.training.seqLen_tokens must be > 0");
  if (desc.ep < 1 || desc.dp % desc.ep != 0)
    return R::failure("workload.training.ep: " + std::to_string(desc.ep) +
                      " must be >= 1 and divide dp " + std::to_string(desc.dp));
  if (desc.ep > 1 && !isMoe(p.model))
    return R::failure("workload.training.ep: " + desc.modelId + " has no experts");
  if (desc.ep > 64) return R::failure("workload.training.ep: at most 64");
  if (desc.zeroStage < 0 || desc.zeroStage > 3)
    return R::failure("workload.training.zeroStage must be 0..3");

  const double bpe = bytesPerElement(desc.precision);
  const double tp = desc.tp, pp = desc.pp, dp = desc.dp, m = desc.microBatches;
  const double mbTokens = desc.microBatch * desc.seqLen_tokens;
  p.params = paramCount(p.model);
  p.activeParams = activeParamCount(p.model);
  p.tokensPerStep = dp * m * mbTokens;
  p.peak_flops = denseFlops(cluster.specs.gpu, desc.precision);
  p.efficiency = desc.computeEfficiency > 0 ? desc.computeEfficiency : rules->mfu;

  // Compute: 6N per token (2N forward, 4N backward) with N the parameters a token touches (all of
  // them for a dense model, the routed experts' for MoE), split over tp x pp GPUs.
  const double flopsPerMicroBatch =
      calc::trainingFlops(p.activeParams, mbTokens, false) / (tp * pp);
  const double rate = p.peak_flops * p.efficiency;
  p.forward_s = flopsPerMicroBatch / 3.0 / rate;
  p.backward_s = flopsPerMicroBatch * 2.0 / 3.0 / rate;

  // TP: 4 all-reduces per layer per micro-batch on NVLink (Megatron).
  const double layersPerStage = p.model.layers / pp;
  const double tpBytes =
      calc::tpAllReduceBytes(desc.microBatch, desc.seqLen_tokens, p.model.hidden, bpe);
  const calc::AlphaBeta nvl{nvlink->latency_s, scaleUpPerDirection_Bps(cluster.specs.gpu)};
  const double tpCount = calc::tpAllReducesPerLayer() * layersPerStage;
  p.tpComm_s = desc.tp > 1 ? tpCount * calc::ringAllReduceTime_s(tpBytes, desc.tp, nvl) : 0;

  // PP: one activation send forward and one gradient send backward per micro-batch, each TP
  // rank sending its 1/tp share (scatter/gather, Narayanan et al.) over its own NIC.
  const calc::AlphaBeta nic{cluster.specs.nic.latency_s, cluster.links[0].capacity_Bps};
  const double ppBytes =
      calc::ppActivationBytes(desc.microBatch, desc.seqLen_tokens, p.model.hidden, bpe) / tp;
  p.ppSend_s = desc.pp > 1 ? 2.0 * (nic.alpha_s + ppBytes / nic.bandwidth_Bps) : 0;
  p.microBatchSlot_s = p.forward_s + p.backward_s + p.tpComm_s + p.ppSend_s;
  p.bubbleFraction =
      calc::bubbleFractionInterleaved(desc.pp, desc.microBatches, desc.virtualStages);
  p.pipeline_s = m * p.microBatchSlot_s * (1.0 + p.bubbleFraction);

  // DP: gradients of the GPU's shard; ZeRO-1/2 reduce-scatter + all-gather move the same bytes
  // as a ring all-reduce, ZeRO-3 1.5x (Rajbhandari et al.).
  p.gradientBytesPerGpu = p.params / (tp * pp) * bpe;
  const double zeroFactor = desc.zeroStage == 3 ? 1.5 : 1.0;
  p.dpRingBytesPerGpu = desc.dp > 1 ? 2.0 * (dp - 1) / dp * p.gradientBytesPerGpu * zeroFactor : 0;
  p.dpAlphaBeta_s =
      desc.dp > 1 ? calc::ringAllReduceTime_s(p.gradientBytesPerGpu * zeroFactor, desc.dp, nic) : 0;
  p.dpAlpha_s = desc.dp > 1 ? 2.0 * (dp - 1) * nic.alpha_s : 0;

  // Optimizer: read and write the GPU's model state once at HBM bandwidth.
  const double state = calc::zeroModelStateBytesPerGpu(p.params / (tp * pp), desc.zeroStage, dp,
                                                       rules->adamOptimizerBytesPerParam);
  p.optimizer_s = 2.0 * state / cluster.specs.gpu.hbmBandwidth_Bps;

  // Placement: rank (stage s, replica d) is group i = s dp + d, in rack i mod racks at TP group
  // i / racks, so DP ring neighbours sit at the same local index in consecutive racks (one rail).
  p.jobGpus = static_cast<uint32_t>(groups * desc.tp);
  p.stageOfGpu.assign(cluster.gpuCount(), NOT_IN_JOB);
  p.gpuOfRank.resize(p.jobGpus);
  for (uint32_t s = 0; s < uint32_t(desc.pp); ++s)
    for (uint32_t d = 0; d < uint32_t(desc.dp); ++d) {
      const uint64_t i = uint64_t(s) * desc.dp + d;
      const uint32_t rack = static_cast<uint32_t>(i % cluster.racks);
      const uint32_t group = static_cast<uint32_t>(i / cluster.racks);
      for (uint32_t t = 0; t < uint32_t(desc.tp); ++t) {
        const uint32_t g = rack * cluster.gpusPerRack + group * desc.tp + t;
        p.gpuOfRank[i * desc.tp + t] = g;
        p.stageOfGpu[g] = static_cast<uint8_t>(s);
      }
    }
  auto rank = [&](uint32_t s, uint32_t d, uint32_t t) {
    return p.gpuOfRank[(uint64_t(s) * desc.dp + d) * desc.tp + t];
  };
  if (desc.dp > 1) {
    p.dpFlows.reserve(p.jobGpus);
    for (uint32_t s = 0; s < uint32_t(desc.pp); ++s)
      for (uint32_t t = 0; t < uint32_t(desc.tp); ++t)
        for (uint32_t d = 0; d < uint32_t(desc.dp); ++d)
          p.dpFlows.push_back({rank(s, d, t), rank(s, (d + 1) % desc.dp, t), p.dpRingBytesPerGpu});
  }
  const double ppStepBytes = m * ppBytes;
  for (uint32_t s = 0; s + 1 < uint32_t(desc.pp); ++s)
    for (uint32_t d = 0; d < uint32_t(desc.dp); ++d)
      for (uint32_t t = 0; t < uint32_t(desc.tp); ++t) {
        p.ppFlows.push_back({rank(s, d, t), rank(s + 1, d, t), ppStepBytes});
        p.ppFlows.push_back({rank(s + 1, d, t), rank(s, d, t), ppStepBytes});
      }
  // EP: each MoE layer dispatches tokens to their experts and combines them back (forward, and
  // again backward); each TP rank handles its 1/tp of the micro-batch's tokens and sends an
  // equal share to every other member of its EP group (uniform routing).
  if (desc.ep > 1) {
    p.allToAllBytesPerGpu =
        calc::moeAllToAllBytes(mbTokens / tp, p.model.expertsPerToken, p.model.hidden, bpe);
    p.allToAllAlphaBeta_s = calc::allToAllTime_s(p.allToAllBytesPerGpu, desc.ep, nic);
    p.allToAllAlpha_s = (desc.ep - 1) * nic.alpha_s;
    p.allToAllsPerMicroBatch = 2.0 * layersPerStage;
    const double perPeer = p.allToAllBytesPerGpu / desc.ep;
    for (uint32_t s = 0; s < uint32_t(desc.pp); ++s)
      for (uint32_t t = 0; t < uint32_t(desc.tp); ++t)
        for (uint32_t g = 0; g < uint32_t(desc.dp); g += desc.ep)
          for (uint32_t i = 0; i < uint32_t(desc.ep); ++i)
            for (uint32_t j = 0; j < uint32_t(desc.ep); ++j)
              if (i != j)
                p.allToAllFlows.push_back({rank(s, g + i, t), rank(s, g + j, t), perPeer});
  }
  p.nvlinkBytesPerStep = desc.tp > 1 ? p.jobGpus * m * tpCount * 2.0 * (tp - 1) / tp * tpBytes : 0;
  p.ppFabricBytesPerStep = ppStepBytes * p.ppFlows.size();
  p.dpFabricBytesPerStep = p.dpRingBytesPerGpu * p.dpFlows.size();

  // Stage s idles s forward slots before its first micro-batch and s backward slots after its
  // last (1F1B warm-up and cool-down); inside, it computes m slots.
  const double fwdSlot = p.forward_s + 0.5 * (p.tpComm_s + p.ppSend_s);
  const double bwdSlot = p.backward_s + 0.5 * (p.tpComm_s + p.ppSend_s);
  p.stages.resize(desc.pp);
  for (int s = 0; s < desc.pp; ++s) {
    StageWindow& w = p.stages[s];
    w.start_s = s * fwdSlot / desc.virtualStages;
    w.end_s = std::max(w.start_s, p.pipeline_s - s * bwdSlot / desc.virtualStages);
    const double window = w.end_s - w.start_s;
    w.busyFraction = window > 0 ? std::min(1.0, m * (p.forward_s + p.backward_s) / window) : 0;
  }
  return p;
}

}  // namespace sim::engine
