// Known answers for memory: KV cache, weights, training state, ZeRO (Rajbhandari et al.),
// activations (Korthikanti et al.), HF accelerate's estimate. Rows of known_answers.csv.
#include <gtest/gtest.h>

#include "sim/calc/memory.h"
#include "sim/catalog.h"
#include "sim/model_params.h"
#include "sim/specs.h"
#include "tests/sim/shipped_catalog.h"

using namespace sim;
using namespace sim::calc;

namespace {

using simtest::model;
using simtest::shipped;

constexpr double GIB = 1024.0 * 1024.0 * 1024.0;

}  // namespace

TEST(Memory, KA27_KvPerTokenLlama3_8B) {
  EXPECT_EQ(kvCacheBytesPerToken(32, 8, 128, 2.0), 131072.0);
  EXPECT_EQ(kvCacheBytesPerToken(model("llama3_8b"), Precision::BF16), 131072.0);
}

TEST(Memory, KA28_KvPerTokenLlama3_70B) {
  EXPECT_EQ(kvCacheBytesPerToken(80, 8, 128, 2.0), 327680.0);
  EXPECT_EQ(kvCacheBytesPerToken(model("llama3_70b"), Precision::BF16), 327680.0);
}

TEST(Memory, KvPerToken405BAndFullContext) {
  // Reference C.2: 405B 516,096 B/token; 131,072 tokens -> 16 / 40 / 63 GiB.
  EXPECT_EQ(kvCacheBytesPerToken(model("llama3_1_405b"), Precision::BF16), 516096.0);
  EXPECT_EQ(kvCacheBytes(kvCacheBytesPerToken(model("llama3_1_8b"), Precision::BF16), 131072, 1),
            16.0 * GIB);
  EXPECT_EQ(kvCacheBytes(kvCacheBytesPerToken(model("llama3_1_70b"), Precision::BF16), 131072, 1),
            40.0 * GIB);
  EXPECT_EQ(kvCacheBytes(kvCacheBytesPerToken(model("llama3_1_405b"), Precision::BF16), 131072, 1),
            63.0 * GIB);
}

TEST(Memory, KA31_KvCacheBatch32At8kIs32GiB) {
  EXPECT_EQ(kvCacheBytes(131072.0, 8192, 32), 32.0 * GIB);
}

TEST(Memory, KA34_70BBf16DoesNotFitH200ButFitsMi300x) {
  const double weights = weightBytes(paramCount(model("llama3_1_70b")), Precision::BF16);
  EXPECT_NEAR(weights, 141.107e9, 141.107e9 * 1e-4);
  auto h200 = loadGpu(shipped(), "h200");
  auto mi300x = loadGpu(shipped(), "mi300x");
  ASSERT_TRUE(h200.ok() && mi300x.ok());
  EXPECT_FALSE(checkFit(weights, h200->hbmCapacity_bytes).fits);
  EXPECT_TRUE(checkFit(weights, mi300x->hbmCapacity_bytes).fits);
}

TEST(Memory, SeedFigure70BIn8BitStreamsAbout70GBPerToken) {
  // Each decode step reads every weight once: ~70 GB for a 70B model in 8-bit.
  const double weights = weightBytes(paramCount(model("llama3_1_70b")), Precision::FP8);
  EXPECT_NEAR(weights, 70.55e9, 0.01e9);
  EXPECT_NEAR(weights / 1e9, 70.0, 1.0);
}

TEST(Memory, WeightsByPrecisionFollowBytesPerElement) {
  const double p = 8030261248.0;
  EXPECT_NEAR(weightBytes(p, Precision::BF16), 16.06e9, 0.01e9);
  EXPECT_EQ(weightBytes(p, Precision::FP32), 4 * p);
  EXPECT_EQ(weightBytes(p, Precision::FP8), p);
  EXPECT_EQ(weightBytes(p, Precision::INT4), 0.5 * p);
  EXPECT_EQ(weightBytes(p, Precision::FP4), 0.5 * p);
}

TEST(Memory, KA36_TrainingState70B) {
  auto rules = loadRules(shipped());
  ASSERT_TRUE(rules.ok()) << rules.error();
  const double params = paramCount(model("llama3_1_70b"));
  EXPECT_NEAR(trainingStateBytes(params, rules->adamBytesPerParam), 1128.86e9, 1128.86e9 * 1e-4);
}

TEST(Memory, KA38_Zero3PerGpu70BAt64Ranks) {
  const double params = paramCount(model("llama3_1_70b"));
  EXPECT_NEAR(zeroModelStateBytesPerGpu(params, 3, 64, 12), 17.64e9, 17.64e9 * 1e-3);
}

TEST(Memory, ZeroPaperFigure1For7p5BAt64Ranks) {
  // Rajbhandari et al. Fig. 1: 120 GB, 31.4 GB, 16.6 GB, 1.9 GB.
  const double psi = 7.5e9;
  EXPECT_NEAR(zeroModelStateBytesPerGpu(psi, 0, 64, 12), 120e9, 1e6);
  EXPECT_NEAR(zeroModelStateBytesPerGpu(psi, 1, 64, 12), 31.4e9, 0.05e9);
  EXPECT_NEAR(zeroModelStateBytesPerGpu(psi, 2, 64, 12), 16.6e9, 0.05e9);
  EXPECT_NEAR(zeroModelStateBytesPerGpu(psi, 3, 64, 12), 1.875e9, 1e6);
}

TEST(Memory, Zero70BStagesMatchReference) {
  const double params = paramCount(model("llama3_1_70b"));
  EXPECT_NEAR(zeroModelStateBytesPerGpu(params, 1, 64, 12), 295.4e9, 0.1e9);
  EXPECT_NEAR(zeroModelStateBytesPerGpu(params, 2, 64, 12), 156.5e9, 0.1e9);
}

TEST(Memory, KorthikantiGpt3ActivationsPerLayer) {
  // GPT-3 175B, s = 2048, b = 1, h = 12288, a = 96, t = 8 (reference C.4).
  const double s = 2048, b = 1, h = 12288, a = 96, t = 8;
  EXPECT_NEAR(activationBytesPerLayer(ActivationStrategy::None, s, b, h, a, t), 2.869e9, 0.001e9);
  EXPECT_NEAR(activationBytesPerLayer(ActivationStrategy::TensorParallel, s, b, h, a, t), 0.579e9,
              0.001e9);
  EXPECT_NEAR(activationBytesPerLayer(ActivationStrategy::TensorSequence, s, b, h, a, t), 0.359e9,
              0.001e9);
  EXPECT_NEAR(activationBytesPerLayer(ActivationStrategy::Selective, s, b, h, a, t), 0.107e9,
              0.001e9);
  EXPECT_NEAR(activationBytesPerLayer(ActivationStrategy::Full, s, b, h, a, t), 0.0503e9, 0.0001e9);
}

TEST(Memory, Llama70BActivationsAt8kWithoutParallelism) {
  // Reference C.4: 23.76 GB per layer at s = 8192, b = 1.
  EXPECT_NEAR(activationBytesPerLayer(ActivationStrategy::None, 8192, 1, 8192, 64, 1), 23.76e9,
              0.01e9);
}

TEST(Memory, InferenceOverheadAndFit) {
  EXPECT_DOUBLE_EQ(inferenceMemoryBytes(100e9, 10e9, 0.2), 130e9);
  const MemoryFit fit = checkFit(90e9, 80e9);
  EXPECT_FALSE(fit.fits);
  EXPECT_DOUBLE_EQ(fit.headroom_bytes, -10e9);
  // 80 GB - 20 GB fixed = 60 GB of KV at 1 GB per sequence -> 60 sequences.
  EXPECT_EQ(maxBatchForKv(80e9, 20e9, 1e9 / 1000.0, 1000.0), 60.0);
  EXPECT_EQ(maxBatchForKv(80e9, 90e9, 1.0, 1.0), 0.0);
}

TEST(Memory, StrategyNamesRoundTrip) {
  for (ActivationStrategy s : {ActivationStrategy::None, ActivationStrategy::TensorParallel,
                               ActivationStrategy::TensorSequence, ActivationStrategy::Selective,
                               ActivationStrategy::Full}) {
    EXPECT_EQ(parseActivationStrategy(activationStrategyName(s)), s);
  }
  EXPECT_FALSE(parseActivationStrategy("some").has_value());
}
