// The serving model: one iteration from its parts, the KV budget of the usable HBM, continuous
// batching in steady state (prefill paid by every admitted request), a request rate through
// Little's law, and static batching. Expected values are worked here from the formulas' inputs.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/calc/serving.h"
#include "sim/model_params.h"
#include "tests/sim/shipped_catalog.h"

using namespace sim;
using namespace sim::calc;

namespace {

// Llama 3.1 70B in FP8 with a BF16 KV cache on `tp` H100s, at simple round figures so the
// expectations below can be worked by hand: no launch cost, no all-reduce latency.
ServingDesc h100(int tp) {
  ServingDesc d;
  d.model = transformerShape(simtest::model("llama3_1_70b"));
  d.tp = tp;
  d.weightBytes = 1;
  d.kvBytes = 2;
  d.gemm_flops = 1e15;
  d.attention_flops = 3e14;
  d.hbm_Bps = 3e12;
  d.usable_bytes = 85.52e9;
  d.reserve_bytes = 2e9;
  d.memoryFraction = 0.9;
  d.maxNumTokens = 8192;
  d.tpTopology = {.ranks = tp, .ranksPerNode = 8, .scaleUp_Bps = 450e9};
  d.collectives.ringFraction = d.collectives.nvlsFraction = d.collectives.nicFraction = 1;
  d.collectives.treeFraction = d.collectives.ll128Fraction = d.collectives.llFraction = 1;
  return d;
}

}  // namespace

TEST(Serving, DecodeAtBatchOneStreamsTheWeights) {
  // Reference C.5's method: a batch-1 decode step reads every weight once, the input embedding
  // table aside (a lookup reads one row): 70.55 GB - 128,256 x 8,192 of FP8 weights over 2 GPUs
  // at 3 TB/s each: 11.58 ms.
  const ServingDesc d = h100(2);
  const IterationCost c = iterationCost(d, 1, 1, 0, 0);
  const double streamed = paramCount(simtest::model("llama3_1_70b")) - 128256.0 * 8192;
  EXPECT_NEAR(c.matmul_s, streamed / 2 / 3e12, 1e-9);
  EXPECT_DOUBLE_EQ(c.attention_s, 0);
  EXPECT_DOUBLE_EQ(c.fixed_s, 0);
  // With kernels: 80 layers x 8 kernels x 5 us = 3.2 ms more.
  ServingDesc k = d;
  k.kernelsPerLayer = 8;
  k.kernelLaunch_s = 5e-6;
  EXPECT_NEAR(iterationCost(k, 1, 1, 0, 0).total_s - c.total_s, 3.2e-3, 1e-12);
}

TEST(Serving, KvBudgetIsTheUsableHbmLessWeightsAndReserve) {
  // Per GPU: 0.9 x 85.52 GB - 2 GB - 35.28 GB of weights; BF16 KV of 4 of the 8 KV heads per GPU:
  // 2 x 80 layers x 4 x 128 x 2 B = 163,840 B per token.
  const ServingDesc d = h100(2);
  const double weights = paramCount(simtest::model("llama3_1_70b")) / 2;
  const double free = 0.9 * 85.52e9 - 2e9 - weights;
  EXPECT_DOUBLE_EQ(kvCapacityTokens(d), std::floor(free / 163840.0));
  const ServingResult r = continuousBatching(d, 1000, 1000, 0, 0);
  EXPECT_DOUBLE_EQ(r.maxConcurrency, std::floor(std::floor(free / 163840.0) / 2000.0));
  EXPECT_DOUBLE_EQ(r.concurrency, r.maxConcurrency);
}

TEST(Serving, ContinuousBatchingPaysEveryPrefill) {
  // In steady state at concurrency C each iteration decodes C tokens and prefills the C / OSL
  // requests that replace the finishers: C x ISL / OSL prompt tokens.
  const ServingDesc d = h100(2);
  const double c = 64, isl = 1000, osl = 1000;
  const ServingResult r = continuousBatching(d, isl, osl, c, 0);
  const IterationCost mixed = iterationCost(d, c + c * isl / osl, c + c / osl, c * (isl + osl / 2),
                                            c / osl * causalAttentionFlops(d.model, isl));
  EXPECT_NEAR(r.iteration.total_s, mixed.total_s, 1e-15);
  EXPECT_NEAR(r.outputTokensPerSecond, c / mixed.total_s, 1e-9);
  // Decode alone would be faster: the prefill is not free.
  const IterationCost decodeOnly = iterationCost(d, c, c, c * (isl + osl / 2), 0);
  EXPECT_GT(r.iteration.total_s, decodeOnly.total_s);
  EXPECT_GT(r.iteration.attention_s, decodeOnly.attention_s);
  // More requests in flight: more tokens per second, each one slower.
  const ServingResult more = continuousBatching(d, isl, osl, 2 * c, 0);
  EXPECT_GT(more.outputTokensPerSecond, r.outputTokensPerSecond);
  EXPECT_GT(more.tpot_s, r.tpot_s);
}

TEST(Serving, ALoneRequestDecodesWithoutOthersPrefill) {
  const ServingDesc d = h100(2);
  const ServingResult r = continuousBatching(d, 5000, 500, 1, 0);
  EXPECT_NEAR(r.tpot_s, iterationCost(d, 1, 1, 5000 + 250, 0).total_s, 1e-15);
  // TTFT: the 5,000-token prompt in one chunk (budget 8,192), attending to itself.
  EXPECT_NEAR(r.ttft_s, iterationCost(d, 5000, 1, 0, attentionFlops(d.model, 5000, 0)).total_s,
              1e-12);
  EXPECT_NEAR(attentionFlops(d.model, 5000, 0), causalAttentionFlops(d.model, 5000), 1.0);
}

TEST(Serving, RequestRateSettlesByLittlesLaw) {
  const ServingDesc d = h100(2);
  const double rate = 2.0, isl = 1000, osl = 200;
  const ServingResult r = continuousBatching(d, isl, osl, 0, rate);
  EXPECT_NEAR(r.concurrency, rate * (r.prefill.total_s + (osl - 1) * r.tpot_s), 1e-3);
  EXPECT_NEAR(r.outputTokensPerSecond, rate * osl, 1e-6);
  // Past what the KV cache holds, the replica saturates at its max-load throughput.
  const ServingResult flood = continuousBatching(d, isl, osl, 0, 1e6);
  EXPECT_DOUBLE_EQ(flood.concurrency, flood.maxConcurrency);
}

TEST(Serving, StaticBatchWaitsForPrefillThenDecodes) {
  const ServingDesc d = h100(2);
  const double b = 16, isl = 2048, osl = 128;
  const ServingResult r = staticBatching(d, isl, osl, b);
  const double prefill =
      iterationCost(d, b * isl, b, 0, b * causalAttentionFlops(d.model, isl)).total_s;
  const double tpot = iterationCost(d, b, b, b * (isl + osl / 2), 0).total_s;
  EXPECT_NEAR(r.outputTokensPerSecond, b * osl / (prefill + (osl - 1) * tpot), 1e-9);
  // A batch whose KV cannot fit serves nothing.
  EXPECT_DOUBLE_EQ(staticBatching(d, isl, osl, 1e6).outputTokensPerSecond, 0.0);
}

TEST(Serving, ADecodeKernelPerQueryHeadReadsTheKvCacheOncePerHead) {
  // 1,000 sequences of 3,072 tokens of context on TP 2: each GPU holds 4 of the 8 KV heads
  // (2 x 80 layers x 4 x 128 x 2 B = 163,840 B per token) and 32 of the 64 query heads. Grouped
  // kernels read each KV head once (3.072e6 tokens x 163,840 B at 3 TB/s: 167.8 ms); a kernel
  // whose every query head loads its KV head reads it 32 / 4 = 8 times.
  ServingDesc d = h100(2);
  const double kv = 3.072e6 * 163840.0;
  const IterationCost grouped = iterationCost(d, 1000, 1000, 3.072e6, 0);
  EXPECT_NEAR(grouped.attention_s, kv / 3e12, 1e-9);
  d.kvReadPerQueryHead = true;
  const IterationCost perHead = iterationCost(d, 1000, 1000, 3.072e6, 0);
  EXPECT_NEAR(perHead.attention_s, 8 * kv / 3e12, 1e-9);
  EXPECT_DOUBLE_EQ(perHead.matmul_s, grouped.matmul_s);
  // TP 16 replicates the 8 KV heads (one per GPU) under 4 query heads each: 4 reads.
  d.tp = 16;
  const double perGpu = 2.0 * 80 * 1 * 128 * 2;
  EXPECT_NEAR(iterationCost(d, 1000, 1000, 3.072e6, 0).attention_s, 4 * 3.072e6 * perGpu / 3e12,
              1e-9);
}
