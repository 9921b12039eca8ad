#include "sim/calc/training.h"

#include <algorithm>
#include <cmath>

#include "sim/calc/parallelism.h"

namespace sim::calc {

bool sequenceParallel(const TrainingDesc& d) {
  return d.tp > 1 && (d.activations == ActivationStrategy::TensorSequence ||
                      d.activations == ActivationStrategy::Selective ||
                      d.activations == ActivationStrategy::Full);
}

namespace {

double tokensPerMicroBatch(const TrainingDesc& d) {
  return d.microBatch * d.seqLen / d.cp;
}

// Parameters stage `s` holds: its layers, the input table on the first stage, the output head
// on the last (a tied table keeps a copy there when the pipeline has more than one stage).
double stageParams(const TrainingDesc& d, int s, int layers) {
  double p = layers * d.model.layerParams;
  if (s == 0) p += d.model.embeddingParams;
  if (s == d.pp - 1) {
    const double head =
        d.model.headParams > 0 ? d.model.headParams : d.model.vocab * d.model.hidden;
    if (d.model.headParams > 0 || d.pp > 1) p += head;
  }
  return p;
}

// A collective on the scale-up links of one node (TP, or CP when it fits inside the node).
CollectiveTopology insideNode(const TrainingDesc& d, int ranks) {
  return {.ranks = ranks,
          .ranksPerNode = ranks,
          .scaleUp_Bps = d.scaleUp_Bps,
          .nodeEgress_Bps = d.nodeEgress_Bps,
          .scaleUpReduces = d.scaleUpReduces,
          .fabricReduces = d.fabricReduces,
          .fabricTaper = d.fabricTaper};
}

// A collective of `ranks` GPUs, `perNode` of them sharing a node whose other GPUs run their own
// copies of it at the same time (so the group gets its share of the node's NICs).
CollectiveTopology acrossNodes(const TrainingDesc& d, int ranks, int perNode) {
  CollectiveTopology t = insideNode(d, ranks);
  t.ranksPerNode = std::clamp(perNode, 1, ranks);
  t.nodeEgress_Bps = d.nodeEgress_Bps * t.ranksPerNode / std::max(d.gpusPerNode, 1);
  return t;
}

// TP (and SP) collectives of one layer and micro-batch. Sequence parallel: forward 2 all-gathers
// + 2 reduce-scatters, backward 2 reduce-scatters + 4 all-gathers (the inputs are gathered again
// for the weight gradients, Korthikanti et al. §4.2.2); plain TP: 2 all-reduces each way
// (Shoeybi et al. §3). Full recompute repeats the forward ones. They sit on the critical path:
// each feeds the next matmul (Narayanan et al. arXiv:2104.04473 §3.2).
double tpCommPerLayer(const TrainingDesc& d) {
  if (d.tp <= 1) return 0.0;
  const double bytes = tokensPerMicroBatch(d) * d.model.hidden * 2.0;
  const CollectiveTopology topo = insideNode(d, d.tp);
  const double repeat = d.activations == ActivationStrategy::Full ? 1.0 : 0.0;
  if (sequenceParallel(d)) {
    const double ag = ncclCollective(Collective::AllGather, bytes, topo, d.collectives).time_s;
    const double rs = ncclCollective(Collective::ReduceScatter, bytes, topo, d.collectives).time_s;
    return (6.0 + 2.0 * repeat) * ag + (4.0 + 2.0 * repeat) * rs;
  }
  const double ar = ncclCollective(Collective::AllReduce, bytes, topo, d.collectives).time_s;
  return (4.0 + 2.0 * repeat) * ar;
}

// Context parallelism (ring attention): each layer passes its K and V chunk around the CP ring,
// cp - 1 hops forward and twice that backward (KV and their gradients); a hop overlaps the
// attention of the chunk already there, so only what attention cannot hide is exposed.
double cpCommPerLayer(const TrainingDesc& d, double attention_s) {
  if (d.cp <= 1) return 0.0;
  const double kvPerRank = std::max(1.0, d.model.kvHeads / d.tp) * d.model.headDim;
  const double chunk = 2.0 * tokensPerMicroBatch(d) * kvPerRank * 2.0;
  const bool inside = double(d.tp) * d.cp <= d.gpusPerNode;  // in doubles: no int overflow
  const double bw = inside ? d.scaleUp_Bps * d.collectives.ringFraction
                           : d.nodeEgress_Bps * d.collectives.nicFraction / d.gpusPerNode;
  const double hop = inside ? d.collectives.hopScaleUpSimple_s : d.nicLatency_s;
  const double comm = 3.0 * (d.cp - 1.0) * (hop + chunk / bw);
  return std::max(0.0, comm - attention_s);
}

// ZeRO-3 / FSDP (Rajbhandari et al. arXiv:1910.02054 §5.3; Zhao et al., PyTorch FSDP, VLDB 2023
// §3.2-3.4): for every micro-batch each layer's weights are all-gathered over the DP group before
// its forward and again before its backward, and its gradients reduce-scattered after its
// backward (FSDP's default with gradient accumulation). Prefetching gathers layer i + 1 while
// layer i computes its forward; in the backward, layer i computes while layer i - 1 is gathered
// and layer i + 1's gradients are reduce-scattered, both on the same links. So a pass exposes its
// first gather (and the backward its last reduce-scatter), and each further layer whatever of
// its communication outlasts its neighbour's compute.
void shardedDataParallel(const TrainingDesc& d, const CollectiveTopology& topo, double forward_s,
                         double backward_s, TrainingStep& r) {
  const double layer = d.model.layerParams / d.tp;
  const double ag =
      ncclCollective(Collective::AllGather, layer * d.weightBytes, topo, d.collectives).time_s;
  const double rs =
      ncclCollective(Collective::ReduceScatter, layer * d.gradientBytes, topo, d.collectives)
          .time_s;
  const double later = std::max(0, r.stageLayers - 1);
  r.shardedLayerAllGather_s = ag;
  r.shardedLayerReduceScatter_s = rs;
  r.shardedForwardExposed_s = ag + later * std::max(0.0, ag - forward_s);
  r.shardedBackwardExposed_s = ag + rs + later * std::max(0.0, ag + rs - backward_s);
  const double m = d.microBatches;
  r.dpAllGather_s = m * r.stageLayers * 2.0 * ag;
  r.dpReduceScatter_s = m * r.stageLayers * rs;
  const double exposed = m * (r.shardedForwardExposed_s + r.shardedBackwardExposed_s);
  r.dpOverlapWindow_s = r.dpAllGather_s + r.dpReduceScatter_s - exposed;
}

}  // namespace

std::vector<StageMemory> stageMemory(const TrainingDesc& d) {
  std::vector<StageMemory> stages(std::max(d.pp, 1));
  const double tokens = tokensPerMicroBatch(d);
  const double perLayer = layerActivationBytes(d.model, d.activations, tokens, d.seqLen, d.tp);
  const double shards = std::max(1, d.dp * d.cp);  // the distributed optimizer shards over both
  for (int s = 0; s < d.pp; ++s) {
    StageMemory& m = stages[s];
    m.stage = s;
    m.layers = stageLayers(int(d.model.layers), d.pp, s);
    const double params = stageParams(d, s, m.layers) / d.tp;
    m.weights_bytes = params * d.weightBytes / (d.zeroStage >= 3 ? shards : 1.0);
    m.gradients_bytes = params * d.gradientBytes / (d.zeroStage >= 2 ? shards : 1.0);
    m.optimizer_bytes = params * d.optimizerBytes / (d.zeroStage >= 1 ? shards : 1.0);
    m.inFlightMicroBatches = inFlightMicroBatches(s, d.pp, d.microBatches, d.virtualStages);
    m.activations_bytes = m.layers * m.inFlightMicroBatches * perLayer;
    if (s == d.pp - 1) m.logits_bytes = tokens * d.model.vocab / d.tp * 4.0;
    if (d.zeroStage >= 3 && shards > 1) {
      const double layer = d.model.layerParams / d.tp;
      m.gathered_bytes = layer * (2.0 * d.weightBytes + d.gradientBytes);
    }
    m.reserve_bytes = d.reserve_bytes;
    m.total_bytes = m.weights_bytes + m.gradients_bytes + m.optimizer_bytes + m.activations_bytes +
                    m.logits_bytes + m.gathered_bytes + m.reserve_bytes;
  }
  return stages;
}

TrainingStep trainingStep(const TrainingDesc& d) {
  TrainingStep r;
  const double tokens = tokensPerMicroBatch(d);
  const bool full = d.activations == ActivationStrategy::Full;
  const bool recomputeAttention = full || d.activations == ActivationStrategy::Selective;
  // Forward 1, backward 2 (input and weight gradients), recompute +1 forward.
  const double matmulPasses = full ? 4.0 : 3.0;
  const double attentionPasses = recomputeAttention ? 4.0 : 3.0;
  r.layerMatmul_s = matmulPasses * 2.0 * d.model.layerMatmulParams * tokens / d.tp / d.gemm_flops;
  const double attentionForward =
      2.0 * d.seqLen * d.seqLen * d.model.heads * d.model.headDim * d.microBatch / (d.cp * d.tp);
  r.layerAttention_s = attentionPasses * attentionForward / d.attention_flops;
  r.layerElementwise_s = (full ? 4.0 : 3.0) * tokens *
                         elementwiseBytesPerToken(d.model, d.tp, sequenceParallel(d)) / d.hbm_Bps;
  r.layerCompute_s = r.layerMatmul_s + r.layerAttention_s + r.layerElementwise_s;
  r.layerTpComm_s = tpCommPerLayer(d);
  r.layerCpComm_s = cpCommPerLayer(d, r.layerAttention_s);
  // The output head (3 passes) and the loss over FP32 logits (a few passes) on the last stage.
  const double logits = tokens * d.model.vocab / d.tp;
  r.headCompute_s =
      3.0 * 2.0 * d.model.hidden * logits / d.gemm_flops + 3.0 * logits * 4.0 / d.hbm_Bps;

  const double perLayer = r.layerCompute_s + r.layerTpComm_s + r.layerCpComm_s;
  double stage_s = 0;
  for (int s = 0; s < d.pp; ++s) {
    const int layers = stageLayers(int(d.model.layers), d.pp, s);
    const double t = layers * perLayer + (s == d.pp - 1 ? r.headCompute_s : 0.0);
    if (t > stage_s) {
      stage_s = t;
      r.stageLayers = layers;
    }
  }
  // PP: each chunk of the stage sends its output forward and receives a gradient back; with
  // sequence parallelism each TP rank sends its 1/tp slice over its own NIC.
  if (d.pp > 1) {
    const bool inside = double(d.tp) * d.cp * d.pp <= d.gpusPerNode;
    const double bytes = tokens * d.model.hidden * 2.0 / d.tp;
    const double bw = inside ? d.scaleUp_Bps * d.collectives.ringFraction
                             : d.nodeEgress_Bps * d.collectives.nicFraction / d.gpusPerNode;
    const double latency = inside ? d.collectives.hopScaleUpSimple_s : d.nicLatency_s;
    r.ppSend_s = 2.0 * d.virtualStages * (latency + bytes / bw);
  }
  r.slot_s = stage_s + r.ppSend_s;
  r.bubbleFraction = bubbleFractionInterleaved(d.pp, d.microBatches, d.virtualStages);
  r.pipeline_s = d.microBatches * r.slot_s * (1.0 + r.bubbleFraction);

  // DP / ZeRO-1/2 over the fabric: gradients reduce-scattered, weights all-gathered once per
  // step. Bucket by bucket the reduce-scatter hides behind the last micro-batch's backward, the
  // all-gather behind the next step's first forward (Megatron's overlapped gradient reduce and
  // parameter gather). The first stage sets the step and has no bubble to spare at either end, so
  // the window is one pass of a micro-batch through the stage. ZeRO-3 pays per layer instead
  // (shardedDataParallel).
  const int group = d.dp * d.cp;
  if (group > 1) {
    const double modelGroup = double(d.tp) * d.cp * d.pp;
    const int perNode = int(std::max(1.0, std::floor(d.gpusPerNode / modelGroup)));
    const CollectiveTopology topo = acrossNodes(d, group, perNode);
    if (d.zeroStage >= 3) {
      const double forward_s = r.layerMatmul_s / matmulPasses +
                               r.layerAttention_s / attentionPasses +
                               r.layerElementwise_s / (full ? 4.0 : 3.0);
      shardedDataParallel(d, topo, forward_s, r.layerCompute_s - forward_s, r);
    } else {
      double params = 0;
      for (int s = 0; s < d.pp; ++s) {
        params = std::max(params, stageParams(d, s, stageLayers(int(d.model.layers), d.pp, s)));
      }
      const double bytes = params / d.tp * d.gradientBytes;
      r.dpReduceScatter_s =
          ncclCollective(Collective::ReduceScatter, bytes, topo, d.collectives).time_s;
      r.dpAllGather_s = ncclCollective(Collective::AllGather, bytes, topo, d.collectives).time_s;
      r.dpOverlapWindow_s = stage_s;
    }
    r.dpExposed_s = std::max(0.0, r.dpReduceScatter_s + r.dpAllGather_s - r.dpOverlapWindow_s);
  }
  // Adam reads and writes the GPU's share of the model state once.
  double state = 0;
  for (const StageMemory& m : stageMemory(d)) {
    state = std::max(state, m.weights_bytes + m.gradients_bytes + m.optimizer_bytes);
  }
  r.optimizer_s = 2.0 * state / d.hbm_Bps;
  r.step_s = r.pipeline_s + r.dpExposed_s + r.optimizer_s;

  const double gpus = double(d.tp) * d.cp * d.pp * d.dp;
  r.tokensPerStep = double(d.microBatches) * d.microBatch * d.seqLen * d.dp;
  r.modelFlopsPerToken = trainingModelFlopsPerToken(d.model, d.seqLen);
  r.tokensPerSecondPerGpu = r.tokensPerStep / (gpus * r.step_s);
  r.modelFlopsPerGpu_flops = r.tokensPerSecondPerGpu * r.modelFlopsPerToken;
  r.mfu = r.modelFlopsPerGpu_flops / d.peak_flops;
  return r;
}

}  // namespace sim::calc
