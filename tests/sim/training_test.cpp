// The training model from its parts: per-stage memory and the step, with MFU an output.
// Expected values are worked here by hand from the inputs.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/calc/memory.h"
#include "sim/calc/training.h"
#include "sim/model_params.h"
#include "tests/sim/shipped_catalog.h"

using namespace sim;
using namespace sim::calc;

namespace {

// Llama 3.1 70B on one H100-class GPU at round rates and with free links.
TrainingDesc single() {
  TrainingDesc d;
  d.model = transformerShape(simtest::model("llama3_1_70b"));
  d.seqLen = 4096;
  d.gemm_flops = 8e14;
  d.attention_flops = 3e14;
  d.hbm_Bps = 3e12;
  d.peak_flops = 1e15;
  d.gpusPerNode = 8;
  d.scaleUp_Bps = 450e9;
  d.nodeEgress_Bps = 400e9;
  d.collectives.ringFraction = d.collectives.nvlsFraction = d.collectives.nicFraction = 1;
  d.collectives.treeFraction = d.collectives.ll128Fraction = d.collectives.llFraction = 1;
  return d;
}

// One layer of Llama 3.1 70B: attention (q and o 8192 x 8192, k and v 8192 x 1024), the SwiGLU
// MLP (3 x 8192 x 28672) and two RMSNorm weights (the calculator spreads the final norm's 8,192
// over the 80 layers: 1e-7 of a layer, inside every tolerance below).
constexpr double H = 8192;
constexpr double LAYER_PARAMS = 2 * H * H + 2 * H * 1024 + 3 * H * 28672 + 2 * H;

// Forward of one layer and one 4,096-token micro-batch: matmuls at 8e14, causal attention
// (2 s^2 x 64 heads x 128) at 3e14, and the non-matmul traffic the step reports per pass.
double forwardOf(const TrainingStep& s) {
  const double matmul = 2 * (LAYER_PARAMS - 2 * H) * 4096 / 8e14;
  const double attention = 2.0 * 4096 * 4096 * 64 * 128 / 3e14;
  return matmul + attention + s.layerElementwise_s / 3;  // selective: 3 elementwise passes
}

// FSDP (ZeRO-3) over the 8 GPUs of the single() node's NVLink, 4 micro-batches: no NVLS and no
// latencies, every share 1, so a ring AllGather or ReduceScatter of S bytes takes
// (7/8) S / 450 GB/s.
TrainingDesc fsdpNode() {
  TrainingDesc d = single();
  d.dp = 8;
  d.zeroStage = 3;
  d.microBatches = 4;
  return d;
}

}  // namespace

TEST(Training, OneGpuStepIsItsLayersHeadAndOptimizer) {
  const TrainingDesc d = single();
  const TrainingStep s = trainingStep(d);
  const double h = 8192, tokens = 4096;
  const double layerWeights = 2 * h * 64 * 128 + 2 * h * 8 * 128 + 3 * h * 28672;
  // Selective recompute: 3 matmul passes, 4 attention passes (the core recomputed).
  EXPECT_NEAR(s.layerMatmul_s, 3 * 2 * layerWeights * tokens / 8e14, 1e-12);
  EXPECT_NEAR(s.layerAttention_s, 4 * 2 * tokens * tokens * 64 * 128 / 3e14, 1e-12);
  EXPECT_DOUBLE_EQ(s.layerTpComm_s, 0);
  EXPECT_DOUBLE_EQ(s.bubbleFraction, 0);
  EXPECT_DOUBLE_EQ(s.dpExposed_s, 0);
  EXPECT_NEAR(s.step_s, 80 * s.layerCompute_s + s.headCompute_s + s.optimizer_s, 1e-9);
  // MFU is an output: model FLOPs (6N + causal attention) over time and peak.
  const double modelFlops =
      3 * 2 * (80 * layerWeights + h * 128256) + 3 * 2 * tokens * 64 * 128 * 80;
  EXPECT_NEAR(s.modelFlopsPerToken, modelFlops, 1.0);
  EXPECT_NEAR(s.mfu, tokens * modelFlops / s.step_s / 1e15, 1e-12);
  EXPECT_GT(s.mfu, 0.4);
  EXPECT_LT(s.mfu, 0.8);
}

TEST(Training, ThePipelineBubbleAndTheDpWindow) {
  TrainingDesc d = single();
  d.pp = 8;
  d.microBatches = 32;
  d.virtualStages = 2;
  d.dp = 16;
  const TrainingStep s = trainingStep(d);
  EXPECT_DOUBLE_EQ(s.bubbleFraction, 7.0 / 64.0);
  EXPECT_NEAR(s.pipeline_s, 32 * s.slot_s * (1 + 7.0 / 64.0), 1e-12);
  EXPECT_EQ(s.stageLayers, 10);
  // DP hides behind one pass through the stage; beyond it the collective is on the step.
  EXPECT_NEAR(s.dpExposed_s,
              std::max(0.0, s.dpReduceScatter_s + s.dpAllGather_s - s.dpOverlapWindow_s), 1e-15);
  d.nodeEgress_Bps = 1e9;  // a slow fabric exposes it
  const TrainingStep slow = trainingStep(d);
  EXPECT_GT(slow.dpExposed_s, 0.0);
  EXPECT_NEAR(slow.step_s, slow.pipeline_s + slow.dpExposed_s + slow.optimizer_s, 1e-9);
}

TEST(Training, ContextParallelHalvesEachGpusTokens) {
  TrainingDesc d = single();
  d.seqLen = 131072;
  const TrainingStep one = trainingStep(d);
  d.cp = 2;
  const TrainingStep two = trainingStep(d);
  EXPECT_NEAR(two.layerMatmul_s, one.layerMatmul_s / 2, 1e-12);
  EXPECT_NEAR(two.layerAttention_s, one.layerAttention_s / 2, 1e-12);
  // Ring attention's K/V passes hide behind attention at this length.
  EXPECT_DOUBLE_EQ(two.layerCpComm_s, 0.0);
}

TEST(Training, StageMemoryFollowsZeroAndTheMicroBatchesInFlight) {
  TrainingDesc d = single();
  d.dp = 64;
  d.zeroStage = 3;
  d.optimizerBytes = 12;
  const auto stages = stageMemory(d);
  ASSERT_EQ(stages.size(), 1u);
  // Known answer 38: ZeRO-3 over 64 ranks, 16 B per parameter of 70.55B: 17.64 GB.
  const double params = paramCount(simtest::model("llama3_1_70b"));
  EXPECT_NEAR(stages[0].weights_bytes + stages[0].gradients_bytes + stages[0].optimizer_bytes,
              16 * params / 64, 1e3);
  EXPECT_NEAR(stages[0].weights_bytes + stages[0].gradients_bytes + stages[0].optimizer_bytes,
              zeroModelStateBytesPerGpu(params, 3, 64, 12), 1e3);
  // 1F1B: stage s holds min(m, p - s) micro-batches.
  d.pp = 4;
  d.microBatches = 8;
  d.zeroStage = 1;
  const auto piped = stageMemory(d);
  ASSERT_EQ(piped.size(), 4u);
  EXPECT_DOUBLE_EQ(piped[0].inFlightMicroBatches, 4);
  EXPECT_DOUBLE_EQ(piped[3].inFlightMicroBatches, 1);
  EXPECT_GT(piped[0].activations_bytes, piped[3].activations_bytes);
  // The last stage keeps the micro-batch's FP32 logits: 4,096 tokens x 128,256 x 4 B.
  EXPECT_DOUBLE_EQ(piped[3].logits_bytes, 4096.0 * 128256 * 4);
  EXPECT_DOUBLE_EQ(piped[0].logits_bytes, 0);
}

// FSDP / ZeRO-3 on one 8-GPU node: every layer's weights gathered before its forward and again
// before its backward, its gradients reduce-scattered, for every micro-batch; the prefetch hides
// what the neighbouring layer's compute covers. Worked from bytes and bandwidth, independently of
// the calculator's collective model.
TEST(ShardedTraining, EachLayerIsGatheredTwiceAndReduceScatteredPerMicroBatch) {
  const TrainingDesc d = fsdpNode();
  const TrainingStep s = trainingStep(d);
  const double ag = 7.0 / 8.0 * LAYER_PARAMS * 2 / 450e9;  // BF16 weights
  const double rs = 7.0 / 8.0 * LAYER_PARAMS * 2 / 450e9;  // BF16 gradients
  EXPECT_NEAR(s.shardedLayerAllGather_s, ag, ag * 1e-6);
  EXPECT_NEAR(s.shardedLayerReduceScatter_s, rs, rs * 1e-6);
  ASSERT_EQ(s.stageLayers, 80);
  EXPECT_NEAR(s.dpAllGather_s, 4 * 80 * 2 * ag, 4 * 80 * 2 * ag * 1e-6);
  EXPECT_NEAR(s.dpReduceScatter_s, 4 * 80 * rs, 4 * 80 * rs * 1e-6);
  // A 70B layer's 1.7 GB gather (3.3 ms) hides behind the previous layer's 9 ms forward: only the
  // first gather of each pass and the last reduce-scatter stay on the step.
  const double forward = forwardOf(s);
  ASSERT_GT(forward, ag);
  ASSERT_GT(s.layerCompute_s - forward, ag + rs);
  EXPECT_NEAR(s.shardedForwardExposed_s, ag, ag * 1e-6);
  EXPECT_NEAR(s.shardedBackwardExposed_s, ag + rs, ag * 1e-6);
  EXPECT_NEAR(s.dpExposed_s, 4 * (2 * ag + rs), 4 * (2 * ag + rs) * 1e-6);
  EXPECT_NEAR(s.step_s, s.pipeline_s + s.dpExposed_s + s.optimizer_s, s.step_s * 1e-12);
}

TEST(ShardedTraining, WhatOutlastsTheNeighbouringLayersComputeIsExposed) {
  TrainingDesc d = fsdpNode();
  d.scaleUp_Bps = 25e9;  // PCIe-class links: a layer's gather outlasts its neighbour's compute
  const TrainingStep s = trainingStep(d);
  const double ag = 7.0 / 8.0 * LAYER_PARAMS * 2 / 25e9;
  const double rs = ag;
  const double forward = forwardOf(s);
  const double backward = s.layerCompute_s - forward;
  ASSERT_GT(ag, forward);
  ASSERT_GT(ag + rs, backward);
  const double fwdExposed = ag + 79 * (ag - forward);
  const double bwdExposed = ag + rs + 79 * (ag + rs - backward);
  EXPECT_NEAR(s.shardedForwardExposed_s, fwdExposed, fwdExposed * 1e-6);
  EXPECT_NEAR(s.shardedBackwardExposed_s, bwdExposed, bwdExposed * 1e-6);
  EXPECT_NEAR(s.dpExposed_s, 4 * (fwdExposed + bwdExposed), 4 * (fwdExposed + bwdExposed) * 1e-6);
  // Communication-bound: each micro-batch costs about its 3 x 80 transfers.
  EXPECT_NEAR(s.dpExposed_s + 4 * 80 * s.layerCompute_s, 4 * 80 * 3 * ag, 0.02 * 4 * 80 * 3 * ag);
  // ZeRO-1 on the same links pays one reduce-scatter and one gather of the model per step.
  d.zeroStage = 1;
  const TrainingStep zero1 = trainingStep(d);
  EXPECT_GT(s.step_s, zero1.step_s);
}

TEST(ShardedTraining, MemoryShardsTheStateAndHoldsTwoGatheredLayers) {
  const TrainingDesc d = fsdpNode();
  const StageMemory m = stageMemory(d).front();
  const double params = 80 * LAYER_PARAMS + 2 * H * 128256 + H;  // embedding, head, final norm
  EXPECT_NEAR(m.weights_bytes + m.gradients_bytes + m.optimizer_bytes, 16 * params / 8,
              params * 1e-6);
  // The layer computing and the one prefetched, in BF16, and the layer's BF16 gradient.
  EXPECT_NEAR(m.gathered_bytes, LAYER_PARAMS * (2 * 2 + 2), LAYER_PARAMS * 1e-6);
  EXPECT_NEAR(m.total_bytes,
              m.weights_bytes + m.gradients_bytes + m.optimizer_bytes + m.activations_bytes +
                  m.logits_bytes + m.gathered_bytes + m.reserve_bytes,
              1.0);
  TrainingDesc plain = d;
  plain.zeroStage = 1;
  EXPECT_DOUBLE_EQ(stageMemory(plain).front().gathered_bytes, 0.0);
}
