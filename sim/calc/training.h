// Training from its parts: per-stage memory (weights, gradients, optimizer state under ZeRO, the
// activations of the micro-batches in flight under 1F1B or interleaving, the output logits, the
// framework's reserve) and the step time (per-layer matmul and causal-attention time at measured
// efficiencies, non-matmul kernels, TP/SP and CP communication on the scale-up links, PP sends,
// the pipeline bubble, DP/ZeRO reduce-scatter and all-gather over the fabric with the overlap the
// bubble and the last backward leave). MFU is an output. Units: bytes, seconds, FLOP, tokens.
#pragma once

#include <vector>

#include "sim/calc/collectives.h"
#include "sim/calc/memory.h"
#include "sim/calc/transformer.h"
#include "sim/specs.h"

namespace sim::calc {

/// A training layout and the hardware it runs on.
struct TrainingDesc {
  TransformerShape model;
  int tp = 1, cp = 1, pp = 1, dp = 1;
  int zeroStage = 1;
  int microBatch = 1;     // sequences per micro-batch
  int microBatches = 1;   // per DP replica per step
  int virtualStages = 1;  // interleaved chunks per pipeline rank
  double seqLen = 4096;
  ActivationStrategy activations = ActivationStrategy::Selective;
  double weightBytes = 2;      // per parameter, the compute copy
  double gradientBytes = 2;    // per parameter, what DP reduces
  double optimizerBytes = 12;  // per parameter (K of the ZeRO paper)
  double reserve_bytes = 0;    // the framework's own HBM
  double gemm_flops = 0;       // achieved matmul rate per GPU
  double attention_flops = 0;  // achieved fused-attention rate per GPU
  double hbm_Bps = 0;          // achieved HBM streaming per GPU
  double peak_flops = 0;       // dense peak in the compute precision (MFU's denominator)
  int gpusPerNode = 8;         // one scale-up domain
  double scaleUp_Bps = 0;      // per GPU, one direction
  double nodeEgress_Bps = 0;   // NICs x NIC rate per node, one direction
  double nicLatency_s = 0;     // one point-to-point message across the fabric
  bool scaleUpReduces = false;
  bool fabricReduces = false;
  double fabricTaper = 1.0;  // leaf down : up ports of the fabric
  CollectiveSpec collectives;
};

/// Whether the TP collectives run with sequence parallelism (all-gathers and reduce-scatters
/// instead of all-reduces): tp > 1 with the tp_sp, selective or full strategy.
bool sequenceParallel(const TrainingDesc& d);

/// One pipeline stage's memory on one GPU at its peak.
struct StageMemory {
  int stage = 0;
  int layers = 0;
  double inFlightMicroBatches = 0;
  double weights_bytes = 0;
  double gradients_bytes = 0;
  double optimizer_bytes = 0;
  double activations_bytes = 0;  // layers x in flight x per-layer activations
  double logits_bytes = 0;       // last stage: FP32 logits of the micro-batch for the loss
  double gathered_bytes = 0;     // ZeRO-3: two layers' weights unsharded (in use, prefetched)
                                 // and one layer's unsharded gradient before its reduce-scatter
  double reserve_bytes = 0;
  double total_bytes = 0;
};
/// Every stage's memory (stage 0 first).
std::vector<StageMemory> stageMemory(const TrainingDesc& d);

/// One step's time and its parts (the busiest stage sets the pipeline's pace).
struct TrainingStep {
  int stageLayers = 0;            // layers of the busiest stage
  double layerCompute_s = 0;      // one layer, one micro-batch, forward + backward (+ recompute)
  double layerMatmul_s = 0;       //   of which matmuls
  double layerAttention_s = 0;    //   of which attention over the context
  double layerElementwise_s = 0;  //   of which norms, activations, RoPE
  double layerTpComm_s = 0;       // TP/SP collectives of one layer and micro-batch (exposed)
  double layerCpComm_s = 0;       // CP ring passes beyond what attention hides
  double headCompute_s = 0;       // the output head and loss on the last stage, one micro-batch
  double ppSend_s = 0;            // point-to-point sends of one micro-batch (all chunks)
  double slot_s = 0;              // one micro-batch through the busiest stage
  double bubbleFraction = 0;      // (p - 1) / (v m)
  double pipeline_s = 0;          // m slots + the bubble
  double dpReduceScatter_s = 0;   // gradients over the DP group (ZeRO-3: every layer's, per step)
  double dpAllGather_s = 0;       // updated weights back (ZeRO-3: every layer's, twice, per step)
  double dpOverlapWindow_s = 0;   // what DP hides behind (ZeRO-3: what the layers hide)
  double dpExposed_s = 0;
  // ZeRO-3 / FSDP, per layer and micro-batch: its weights all-gathered (forward, and again for
  // the backward), its gradients reduce-scattered; what the prefetch leaves exposed per pass.
  double shardedLayerAllGather_s = 0;
  double shardedLayerReduceScatter_s = 0;
  double shardedForwardExposed_s = 0;   // one micro-batch's forward pass through the stage
  double shardedBackwardExposed_s = 0;  // its backward pass
  double optimizer_s = 0;               // Adam over the GPU's shard at HBM bandwidth
  double step_s = 0;
  double tokensPerStep = 0;
  double modelFlopsPerToken = 0;
  double modelFlopsPerGpu_flops = 0;  // model FLOP/s per GPU (what papers report as TFLOP/s)
  double mfu = 0;
  double tokensPerSecondPerGpu = 0;
};
TrainingStep trainingStep(const TrainingDesc& d);

}  // namespace sim::calc
