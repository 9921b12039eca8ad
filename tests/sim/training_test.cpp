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
