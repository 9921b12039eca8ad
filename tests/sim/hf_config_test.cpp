// Hugging Face config.json import: parameter counts (row 32 of known_answers.csv), the Llama FFN
// rule (row 33), Mixtral's total/active parameters, BERT via HF accelerate (row 55), bad input.
#include <gtest/gtest.h>

#include "sim/calc/memory.h"
#include "sim/catalog.h"
#include "sim/hf_config.h"
#include "sim/model_params.h"
#include "tests/common/shipped_catalog.h"

using namespace sim;

namespace {

// Field values from the meta-llama/Llama-3.1-*/config.json files on the Hugging Face hub.
std::string llamaConfig(int layers, int hidden, int heads, int intermediate) {
  return R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama",
  "num_hidden_layers": )" +
         std::to_string(layers) + R"(, "hidden_size": )" + std::to_string(hidden) +
         R"(, "num_attention_heads": )" + std::to_string(heads) +
         R"(, "num_key_value_heads": 8, "intermediate_size": )" + std::to_string(intermediate) +
         R"(, "vocab_size": 128256, "tie_word_embeddings": false, "rope_theta": 500000.0,
  "max_position_embeddings": 131072, "torch_dtype": "bfloat16"})";
}

Result<HfModel> import(const std::string& text, const std::string& name = "config.json") {
  auto file = parseJsonText(text, name);
  if (!file) return Result<HfModel>::failure(file.error());
  return importHfConfig(*file);
}

}  // namespace

TEST(HfConfig, KA32_Llama31ParameterCounts) {
  auto m8 = import(llamaConfig(32, 4096, 32, 14336));
  auto m70 = import(llamaConfig(80, 8192, 64, 28672));
  auto m405 = import(llamaConfig(126, 16384, 128, 53248));
  ASSERT_TRUE(m8.ok() && m70.ok() && m405.ok()) << m8.error() << m70.error() << m405.error();
  EXPECT_EQ(m8->params, 8030261248.0);
  EXPECT_EQ(m70->params, 70553706496.0);
  EXPECT_EQ(m405->params, 405853388800.0);
  EXPECT_EQ(m8->activeParams, m8->params);
  EXPECT_EQ(m70->kvBytesPerTokenBf16, 327680.0);
}

TEST(HfConfig, CatalogModelsAgreeWithImportedCounts) {
  const sim::Catalog* catalog = &testcatalog::shipped();
  auto m405 = loadModel(*catalog, "llama3_1_405b");
  ASSERT_TRUE(m405.ok()) << m405.error();
  EXPECT_EQ(paramCount(*m405), 405853388800.0);
}

TEST(HfConfig, KA33_LlamaFfnWidthRule) {
  EXPECT_EQ(llamaFfnHidden(16384, 1.2, 4096), 53248);
  EXPECT_EQ(llamaFfnHidden(4096, 1.3, 1024), 14336);
  EXPECT_EQ(llamaFfnHidden(8192, 1.3, 4096), 28672);
  // The catalog's stored multipliers reproduce its stored widths.
  const sim::Catalog* catalog = &testcatalog::shipped();
  for (const char* id : {"llama3_1_8b", "llama3_1_70b", "llama3_1_405b"}) {
    const std::string base = std::string("models.") + id + ".";
    EXPECT_EQ(llamaFfnHidden(static_cast<int>(catalog->find(base + "hidden")->value),
                             catalog->find(base + "ffn_dim_multiplier")->value,
                             static_cast<int>(catalog->find(base + "ffn_multiple_of")->value)),
              catalog->find(base + "intermediate")->value)
        << id;
  }
}

TEST(HfConfig, MixtralTotalAndActiveParameters) {
  // mistralai/Mixtral-8x7B-v0.1 config.json; Mistral quotes 46.7B total, 12.9B active.
  auto m = import(R"({"model_type": "mixtral", "num_hidden_layers": 32, "hidden_size": 4096,
    "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
    "vocab_size": 32000, "num_local_experts": 8, "num_experts_per_tok": 2,
    "tie_word_embeddings": false})");
  ASSERT_TRUE(m.ok()) << m.error();
  EXPECT_EQ(m->spec.experts, 8);
  EXPECT_NEAR(m->params, 46.7e9, 0.05e9);
  EXPECT_NEAR(m->activeParams, 12.9e9, 0.05e9);
  EXPECT_EQ(m->params, 46702792704.0);
}

TEST(HfConfig, KA55_BertBaseCasedLikeAccelerate) {
  // bert-base-cased config.json; accelerate estimate-memory: fp32 total 413.18 MB (MiB), Adam
  // 1.61 GB (GiB, ~4x), largest layer (word embeddings) 84.95 MB.
  auto m = import(R"({"model_type": "bert", "vocab_size": 28996, "hidden_size": 768,
    "num_hidden_layers": 12, "num_attention_heads": 12, "intermediate_size": 3072,
    "max_position_embeddings": 512, "type_vocab_size": 2})");
  ASSERT_TRUE(m.ok()) << m.error();
  const double mib = 1024.0 * 1024.0;
  const double weights = calc::weightBytes(m->params, Precision::FP32);
  EXPECT_NEAR(weights / mib, 413.18, 413.18 * 0.01);
  EXPECT_NEAR(calc::accelerateAdamBytes(weights) / (1024.0 * mib), 1.61, 1.61 * 0.01);
  EXPECT_NEAR(28996.0 * 768 * 4 / mib, 84.95, 0.01);
  EXPECT_EQ(m->kvBytesPerTokenBf16, 0.0);
}

TEST(HfConfig, BadConfigsNameFileAndLine) {
  auto wrongType = import("{\n  \"model_type\": \"llama\",\n  \"num_hidden_layers\": \"32\"\n}",
                          "bad_config.json");
  ASSERT_FALSE(wrongType.ok());
  EXPECT_NE(wrongType.error().find("bad_config.json:3"), std::string::npos) << wrongType.error();
  EXPECT_NE(wrongType.error().find("/num_hidden_layers"), std::string::npos);

  auto missing = import(R"({"model_type": "llama", "num_hidden_layers": 2})", "short.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("hidden_size"), std::string::npos) << missing.error();

  auto unsupported = import(R"({"model_type": "deepseek_v3"})", "ds.json");
  ASSERT_FALSE(unsupported.ok());
  EXPECT_NE(unsupported.error().find("not supported"), std::string::npos);

  auto gqa = import(llamaConfig(2, 60, 6, 128), "gqa.json");  // 6 heads, 8 KV heads
  ASSERT_FALSE(gqa.ok());
  EXPECT_NE(gqa.error().find("num_key_value_heads"), std::string::npos) << gqa.error();

  auto notJson = import("{ oops", "broken.json");
  ASSERT_FALSE(notJson.ok());
  EXPECT_NE(notJson.error().find("broken.json:1"), std::string::npos) << notJson.error();
}

// Issue 40's weak spots in the import (old HEAD: each accepted). A llama config with Mixtral's
// expert fields was priced as an MoE on every layer (LlamaForCausalLM builds it dense); DeepSeek's
// first_k_dense_replace was ignored (its first k layers are dense); a config without model_type
// was called `model_type ""`; 4096 / 3 heads was floored to a head_dim of 1365.
TEST(HfConfig, I40_ConfigsTheModelWouldMisreadAreRefusedNamingTheField) {
  const std::string dense = llamaConfig(32, 4096, 32, 14336);
  const auto with = [&](const std::string& fields) {
    return import(dense.substr(0, dense.size() - 1) + ", " + fields + "}", "c.json");
  };
  const auto refuses = [](const Result<HfModel>& r, const std::string& words) {
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find(words), std::string::npos) << r.error();
  };
  refuses(with(R"("num_local_experts": 8, "num_experts_per_tok": 2)"),
          R"(model_type "llama" is a dense model, but the config gives it 8 experts)");
  refuses(with(R"("first_k_dense_replace": 3)"), R"(c.json:3 (/first_k_dense_replace))");
  refuses(with(R"("decoder_sparse_step": 2)"), R"("decoder_sparse_step" makes some layers)");
  refuses(with(R"("mlp_only_layers": [0, 1])"), R"("mlp_only_layers" makes some layers dense)");
  // The values under which every layer is alike change nothing.
  auto alike =
      with(R"("first_k_dense_replace": 0, "decoder_sparse_step": 1, "mlp_only_layers": [])");
  ASSERT_TRUE(alike.ok()) << alike.error();
  EXPECT_DOUBLE_EQ(alike->params, import(dense)->params);

  std::string untyped = dense;
  untyped.replace(untyped.find(R"("model_type": "llama",)"), 22, "");
  refuses(import(untyped, "c.json"), R"(c.json: config.json lacks "model_type")");

  // 4096 is not a multiple of 3 heads: refused without head_dim, taken as given with one.
  refuses(import(llamaConfig(2, 4096, 3, 128), "c.json"),
          "hidden_size 4096 is not a multiple of num_attention_heads 3");
  const std::string three = llamaConfig(2, 4096, 3, 128);
  std::string single = three;
  single.replace(single.find(R"("num_key_value_heads": 8)"), 24, R"("num_key_value_heads": 1)");
  auto given = import(single.substr(0, single.size() - 1) + R"(, "head_dim": 128})");
  ASSERT_TRUE(given.ok()) << given.error();
  EXPECT_EQ(given->spec.headDim, 128);
  refuses(import(R"({"model_type": "bert", "vocab_size": 100, "hidden_size": 100,
    "num_hidden_layers": 1, "num_attention_heads": 3, "intermediate_size": 10,
    "max_position_embeddings": 16})"),
          "hidden_size 100 is not a multiple of num_attention_heads 3");
}
