// Known answers for memory: KV cache, weights, training state, ZeRO (Rajbhandari et al.),
// activations (Korthikanti et al.), HF accelerate's estimate. Rows of known_answers.csv.
#include <gtest/gtest.h>

#include "sim/calc/memory.h"
#include "sim/calc/transformer.h"
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
  // Against the marketed capacity (the reference's reading) ...
  EXPECT_GT(weights, h200->hbmCapacity_bytes);
  EXPECT_LT(weights, mi300x->hbmCapacity_bytes);
  // ... and against what a serving engine may take of the usable HBM (vLLM's 0.9 of 143,771 MiB
  // = 135.7 GB, less the 2 GB framework reserve): the measured "H200 cannot load it".
  EXPECT_GT(weights + 2e9, 0.9 * 143771.0 * (1 << 20));
  EXPECT_DOUBLE_EQ(h200->hbmUsable_bytes, 143771.0 * (1 << 20));
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
  // GPT-3 175B, s = 2048, b = 1, h = 12288, a = 96, t = 8 (reference C.4): the tensor-by-tensor
  // count with GPT-3's shapes (multi-head attention, a 4h GELU MLP, dropout) is Table 2.
  const TransformerShape gpt3 = transformerShape(model("gpt3_175b"));
  const double s = 2048;
  EXPECT_NEAR(layerActivationBytes(gpt3, ActivationStrategy::None, s, s, 8), 2.869e9, 0.001e9);
  EXPECT_NEAR(layerActivationBytes(gpt3, ActivationStrategy::TensorParallel, s, s, 8), 0.579e9,
              0.001e9);
  EXPECT_NEAR(layerActivationBytes(gpt3, ActivationStrategy::TensorSequence, s, s, 8), 0.359e9,
              0.001e9);
  EXPECT_NEAR(layerActivationBytes(gpt3, ActivationStrategy::Selective, s, s, 8), 0.107e9, 0.001e9);
  EXPECT_NEAR(layerActivationBytes(gpt3, ActivationStrategy::Full, s, s, 8), 0.0503e9, 0.0001e9);
}

TEST(Memory, Llama70BActivationsAt8kWithoutParallelismUseItsOwnShapes) {
  // Reference C.4 quotes 23.76 GB per layer at s = 8192 by GPT's formula sbh(34 + 5as/h). With
  // Llama's own shapes, per token (2-byte tensors): both norm inputs, the QKV and MLP inputs
  // (4 x 2h); Q and the attention output (2 x 2h), K and V with 8 of 64 heads (2 x 2 x h/8);
  // gate, up and activation outputs (3 x 2F, F = 28,672); the softmax (2 a s); no dropout masks.
  const double h = 8192, f = 28672, a = 64, s = 8192;
  const double perToken = 8 * h + 4 * h + 4 * h / 8 + 6 * f + 2 * a * s;
  const TransformerShape llama = transformerShape(model("llama3_1_70b"));
  EXPECT_NEAR(layerActivationBytes(llama, ActivationStrategy::None, s, s, 1), perToken * s, 1.0);
  EXPECT_LT(perToken * s, 23.76e9 / 2);  // GQA and no dropout: less than half GPT's count
}

TEST(Memory, StrategyNamesRoundTrip) {
  for (ActivationStrategy s : {ActivationStrategy::None, ActivationStrategy::TensorParallel,
                               ActivationStrategy::TensorSequence, ActivationStrategy::Selective,
                               ActivationStrategy::Full}) {
    EXPECT_EQ(parseActivationStrategy(activationStrategyName(s)), s);
  }
  EXPECT_FALSE(parseActivationStrategy("some").has_value());
}
