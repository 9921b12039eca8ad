#include "sim/engine/training.h"

#include <algorithm>
#include <string>

#include "sim/calc/collectives.h"
#include "sim/calc/compute.h"
#include "sim/calc/memory.h"
#include "sim/calc/parallelism.h"
#include "sim/model_params.h"
#include "sim/workload_inputs.h"

namespace sim::engine {

Result<TrainingPlan> planTraining(const Catalog& catalog, const Cluster& cluster,
                                  const TrainingDesc& desc) {
  using R = Result<TrainingPlan>;
  TrainingPlan p;
  p.desc = desc;
  auto model = loadModel(catalog, desc.modelId);
  if (!model) return R::failure(model.error());
  p.model = *model;

  if (desc.tp < 1 || desc.pp < 1 || desc.dp < 1)
    return R::failure("workload.training: tp, pp and dp must be >= 1");
  if (desc.cp < 1 || desc.cp > 64) return R::failure("workload.training.cp must be 1..64");
  // TP and CP ranks of a (stage, replica) share one NVLink domain: the placement unit.
  const int unit = desc.tp * desc.cp;
  if (cluster.gpusPerRack % unit != 0)
    return R::failure("workload.training.tp: tp x cp = " + std::to_string(unit) +
                      " does not divide the NVLink domain of " +
                      std::to_string(cluster.gpusPerRack) + " GPUs");
  if (desc.pp > 250) return R::failure("workload.training.pp: at most 250 stages");
  const uint64_t groups = uint64_t(desc.pp) * desc.dp;
  const uint64_t slots = uint64_t(cluster.racks) * (cluster.gpusPerRack / unit);
  if (groups > slots)
    return R::failure("workload.training: tp x cp x pp x dp = " + std::to_string(groups * unit) +
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
  if (std::string missing = missingTensorFormat(cluster.specs.gpu, desc.precision);
      !missing.empty()) {
    return R::failure("workload.training.precision: " + std::string(precisionName(desc.precision)) +
                      " math, but " + missing);
  }
  p.peak_flops = denseFlops(cluster.specs.gpu, desc.precision);

  // Step parts from the training calculator (the same numbers `dcwalk sim` prints).
  auto hw = hardwareInputs(catalog, cluster.specs.gpu, cluster.specs.system, cluster.specs.nic,
                           cluster.specs.fabricSwitch, int(cluster.gpuCount()));
  if (!hw) return R::failure(hw.error());
  const auto strategy = calc::parseActivationStrategy(desc.activations);
  if (!strategy)
    return R::failure("workload.training.activations: unknown \"" + desc.activations + "\"");
  calc::TrainingDesc td;
  td.model = calc::transformerShape(p.model);
  td.tp = desc.tp;
  td.cp = desc.cp;
  td.pp = desc.pp;
  td.dp = desc.dp;
  td.zeroStage = desc.zeroStage;
  td.microBatch = desc.microBatch;
  td.microBatches = desc.microBatches;
  td.virtualStages = desc.virtualStages;
  td.seqLen = desc.seqLen_tokens;
  td.activations = *strategy;
  applyHardware(td, *hw, desc.precision);
  p.step = calc::trainingStep(td);
  const double layersPerStage = p.step.stageLayers;
  p.tpComm_s = layersPerStage * (p.step.layerTpComm_s + p.step.layerCpComm_s);
  const double compute = p.step.slot_s - p.step.ppSend_s - p.tpComm_s;
  p.forward_s = compute / 3.0;  // forward 1, backward 2 (input and weight gradients)
  p.backward_s = compute - p.forward_s;
  p.ppSend_s = p.step.ppSend_s;
  p.microBatchSlot_s = p.step.slot_s;
  p.bubbleFraction = p.step.bubbleFraction;
  p.pipeline_s = p.step.pipeline_s;
  const calc::AlphaBeta nic{cluster.specs.nic.latency_s, cluster.links[0].capacity_Bps};
  const double tpBytes =
      calc::tpAllReduceBytes(desc.microBatch, desc.seqLen_tokens / desc.cp, p.model.hidden, bpe);
  const double tpCount = calc::tpAllReducesPerLayer() * p.model.layers / pp;  // bytes, on average
  const double ppBytes =
      calc::ppActivationBytes(desc.microBatch, desc.seqLen_tokens / desc.cp, p.model.hidden, bpe) /
      tp;

  // DP: gradients of the GPU's shard; ZeRO-1/2 reduce-scatter + all-gather move the same bytes
  // as a ring all-reduce once per step, ZeRO-3 1.5x that (two gathers, one reduce-scatter) for
  // every micro-batch, layer by layer (Rajbhandari et al.; calc::trainingStep). Routed link by
  // link below; the calculator's time and overlap window give the nominal step.
  p.gradientBytesPerGpu = p.params / (tp * pp) * bpe;
  const bool sharded = desc.zeroStage == 3;
  const double zeroFactor = sharded ? 1.5 * m : 1.0;
  const double collectives = sharded ? 3.0 * m * p.step.stageLayers : 2.0;
  p.dpRingBytesPerGpu = desc.dp > 1 ? 2.0 * (dp - 1) / dp * p.gradientBytesPerGpu * zeroFactor : 0;
  p.dpAlphaBeta_s = p.step.dpReduceScatter_s + p.step.dpAllGather_s;
  p.dpAlpha_s = desc.dp > 1 ? collectives * (dp - 1) * nic.alpha_s : 0;
  p.dpOverlap_s = p.step.dpOverlapWindow_s;
  p.optimizer_s = p.step.optimizer_s;

  // Placement: rank (stage s, replica d) is group i = s dp + d of tp x cp GPUs, in rack i mod
  // racks at group i / racks, so DP ring neighbours sit at the same local index in consecutive
  // racks (one rail).
  p.jobGpus = static_cast<uint32_t>(groups * unit);
  p.stageOfGpu.assign(cluster.gpuCount(), NOT_IN_JOB);
  p.gpuOfRank.resize(p.jobGpus);
  for (uint32_t s = 0; s < uint32_t(desc.pp); ++s)
    for (uint32_t d = 0; d < uint32_t(desc.dp); ++d) {
      const uint64_t i = uint64_t(s) * desc.dp + d;
      const uint32_t rack = static_cast<uint32_t>(i % cluster.racks);
      const uint32_t group = static_cast<uint32_t>(i / cluster.racks);
      for (uint32_t t = 0; t < uint32_t(unit); ++t) {
        const uint32_t g = rack * cluster.gpusPerRack + group * unit + t;
        p.gpuOfRank[i * unit + t] = g;
        p.stageOfGpu[g] = static_cast<uint8_t>(s);
      }
    }
  auto rank = [&](uint32_t s, uint32_t d, uint32_t t) {
    return p.gpuOfRank[(uint64_t(s) * desc.dp + d) * unit + t];
  };
  if (desc.dp > 1) {
    p.dpFlows.reserve(p.jobGpus);
    for (uint32_t s = 0; s < uint32_t(desc.pp); ++s)
      for (uint32_t t = 0; t < uint32_t(unit); ++t)
        for (uint32_t d = 0; d < uint32_t(desc.dp); ++d)
          p.dpFlows.push_back({rank(s, d, t), rank(s, (d + 1) % desc.dp, t), p.dpRingBytesPerGpu});
  }
  const double ppStepBytes = m * ppBytes;
  for (uint32_t s = 0; s + 1 < uint32_t(desc.pp); ++s)
    for (uint32_t d = 0; d < uint32_t(desc.dp); ++d)
      for (uint32_t t = 0; t < uint32_t(unit); ++t) {
        p.ppFlows.push_back({rank(s, d, t), rank(s + 1, d, t), ppStepBytes});
        p.ppFlows.push_back({rank(s + 1, d, t), rank(s, d, t), ppStepBytes});
      }
  // EP: each MoE layer dispatches tokens to their experts and combines them back (forward, and
  // again backward); each TP rank handles its 1/tp of the micro-batch's tokens and sends an
  // equal share to every other member of its EP group (uniform routing).
  if (desc.ep > 1) {
    p.allToAllBytesPerGpu =
        calc::moeAllToAllBytes(mbTokens / unit, p.model.expertsPerToken, p.model.hidden, bpe);
    p.allToAllAlphaBeta_s = calc::allToAllTime_s(p.allToAllBytesPerGpu, desc.ep, nic);
    p.allToAllAlpha_s = (desc.ep - 1) * nic.alpha_s;
    p.allToAllsPerMicroBatch = 2.0 * layersPerStage;
    const double perPeer = p.allToAllBytesPerGpu / desc.ep;
    for (uint32_t s = 0; s < uint32_t(desc.pp); ++s)
      for (uint32_t t = 0; t < uint32_t(unit); ++t)
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
