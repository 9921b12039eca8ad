// Known answers for parallelism: pipeline bubbles (GPipe; Narayanan et al.), the 8TP/(nX) rule,
// compute-bound thresholds (JAX scaling book), Megatron TP traffic. Rows of known_answers.csv.
#include <gtest/gtest.h>

#include "sim/calc/parallelism.h"

using namespace sim::calc;

TEST(Parallelism, KA10_DpComputeBoundThreshold) {
  EXPECT_DOUBLE_EQ(dpComputeBoundTokensPerGpu(990e12, 400e9), 2475.0);
  EXPECT_DOUBLE_EQ(dpComputeBoundTokensPerGpu(990e12, 450e9), 2200.0);
  EXPECT_DOUBLE_EQ(dpComputeBoundTokensPerGpu(2250e12, 400e9), 5625.0);
}

TEST(Parallelism, TpComputeBoundLimitLlama70B) {
  // Scaling book: Y < F W / C = 28,672 / 2,475 ~ 11.6 -> 8 in practice.
  EXPECT_NEAR(tpComputeBoundMaxDegree(28672, 990e12, 400e9), 28672.0 / 2475.0, 1e-9);
}

TEST(Parallelism, KA41_MegatronTrainingTimeGpt3) {
  const double t = megatronTrainingTime_s(300e9, 175e9, 1024, 140e12);
  EXPECT_NEAR(t / 86400.0, 33.9, 33.9 * 0.03);
  EXPECT_NEAR(t / 86400.0, 34.0, 34.0 * 0.03);
  // The paper's second example: 1T params, 450B tokens, 3072 GPUs at 163 TF -> ~84 days.
  EXPECT_NEAR(megatronTrainingTime_s(450e9, 1e12, 3072, 163e12) / 86400.0, 83.2, 0.1);
}

TEST(Parallelism, StageLayersFollowTheLlama3Layout) {
  // Llama 3 405B on PP 16: one layer less on the first and last stages (arXiv:2407.21783
  // §3.3.2): 7 + 14 x 8 + 7 = 126.
  EXPECT_EQ(stageLayers(126, 16, 0), 7);
  EXPECT_EQ(stageLayers(126, 16, 15), 7);
  int total = 0;
  for (int stage = 0; stage < 16; ++stage) total += stageLayers(126, 16, stage);
  EXPECT_EQ(total, 126);
  for (int stage = 1; stage < 15; ++stage) EXPECT_EQ(stageLayers(126, 16, stage), 8);
  EXPECT_EQ(stageLayers(80, 8, 3), 10);  // an even split stays even
  EXPECT_EQ(stageLayers(9, 1, 0), 9);
}

TEST(Parallelism, MicroBatchesInFlightUnder1F1BAndInterleaving) {
  // 1F1B: stage s holds p - s micro-batches (Narayanan et al. §2.2), at most m.
  EXPECT_DOUBLE_EQ(inFlightMicroBatches(0, 16, 32, 1), 16);
  EXPECT_DOUBLE_EQ(inFlightMicroBatches(15, 16, 32, 1), 1);
  EXPECT_DOUBLE_EQ(inFlightMicroBatches(0, 16, 4, 1), 4);
  // Interleaved, p = 8, v = 2, m = 32: Megatron warms up 2 (p - 1) + (v - 1) p = 22 chunks on
  // rank 0, so 23 chunks of half a stage are in flight: 11.5 stages' worth.
  EXPECT_DOUBLE_EQ(inFlightMicroBatches(0, 8, 32, 2), 11.5);
  // With m = p = 16 and v = 8 every micro-batch is in flight on rank 0 (m v = 128 < 143).
  EXPECT_DOUBLE_EQ(inFlightMicroBatches(0, 16, 16, 8), 16);
}

TEST(Parallelism, KA43_PipelineBubbles) {
  EXPECT_DOUBLE_EQ(bubbleFraction1F1B(8, 32), 0.21875);
  EXPECT_NEAR(bubbleShareOfIteration(8, 32), 0.17949, 1e-5);
  EXPECT_DOUBLE_EQ(bubbleFractionInterleaved(8, 32, 2), 0.109375);
  EXPECT_DOUBLE_EQ(bubbleFraction1F1B(1, 32), 0.0);
}

TEST(Parallelism, MegatronTpTraffic) {
  EXPECT_EQ(tpAllReducesPerLayer(), 4);
  // b s h x 2 bytes: 1 x 2048 x 12288 x 2.
  EXPECT_DOUBLE_EQ(tpAllReduceBytes(1, 2048, 12288, 2), 1.0 * 2048 * 12288 * 2);
  EXPECT_DOUBLE_EQ(ppActivationBytes(2, 4096, 8192, 2), 2.0 * 4096 * 8192 * 2);
  EXPECT_DOUBLE_EQ(moeAllToAllBytes(4096, 2, 4096, 2), 2.0 * 4096 * 2 * 4096 * 2);
}

TEST(Parallelism, LayoutChecks) {
  EXPECT_EQ(layoutGpus({8, 16, 128, 1}), 16384);
  EXPECT_EQ(checkLayout({8, 16, 128, 1}, 128, 126, 0), "");
  EXPECT_NE(checkLayout({3, 1, 1, 1}, 64, 80, 0), "");
  EXPECT_NE(checkLayout({1, 100, 1, 1}, 64, 80, 0), "");
  EXPECT_NE(checkLayout({1, 1, 4, 3}, 64, 80, 8), "");
  EXPECT_NE(checkLayout({1, 1, 8, 8}, 64, 80, 0), "");
  EXPECT_EQ(checkLayout({1, 1, 8, 8}, 32, 32, 8), "");
}
