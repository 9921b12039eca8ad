// Regressions of issue 19's simulation reproducers (5: layout overflow, 6: a one-rank collective,
// 7: contradictory inputs, 9: extreme finite values) and its weak spots in sim/ (a config.json
// naming its experts twice, a duplicate "workload" key, a BERT config of zeros). Each was
// accepted with an impossible figure before; each is now refused naming the field, or gives a
// figure checked here against an independent calculation.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "sim/calc/parallelism.h"
#include "sim/catalog.h"
#include "sim/domain.h"
#include "sim/engine/engine.h"
#include "sim/engine/scenarios.h"
#include "sim/evaluate.h"
#include "sim/hf_config.h"
#include "sim/scenario.h"
#include "sim/specs.h"
#include "tests/sim/shipped_catalog.h"

using namespace sim;

namespace {

using simtest::shipped;

ScenarioDesc builtin(const char* name) {
  auto s = loadScenario(name);
  EXPECT_TRUE(s.ok()) << s.error();
  return s.ok() ? *s : ScenarioDesc{};
}

// `base` with `sets` applied; the first refusal's message, or "" when all applied.
std::string setAll(ScenarioDesc& s, const std::vector<std::string>& sets) {
  for (const std::string& a : sets) {
    if (auto applied = applyOverride(s, a); !applied) return applied.error();
  }
  return "";
}

// The evaluation's refusal of `base` with `sets` ("" when it evaluates), every --set accepted.
std::string refusal(const char* base, const std::vector<std::string>& sets) {
  ScenarioDesc s = builtin(base);
  const std::string set = setAll(s, sets);
  EXPECT_EQ(set, "") << "the --set itself was refused";
  auto r = evaluateScenario(s, shipped());
  if (r) return "";
  EXPECT_FALSE(r.isDefect()) << r.error();
  return r.error();
}

Evaluation evaluated(const char* base, const std::vector<std::string>& sets) {
  ScenarioDesc s = builtin(base);
  EXPECT_EQ(setAll(s, sets), "");
  auto r = evaluateScenario(s, shipped());
  EXPECT_TRUE(r.ok()) << r.error();
  return r.ok() ? *r : Evaluation{};
}

Result<HfModel> importText(const std::string& text, const std::string& name = "config.json") {
  auto file = parseJsonText(text, name);
  if (!file) return Result<HfModel>::failure(file.error());
  return importHfConfig(*file);
}

std::string shippedText(const char* file) {
  std::ifstream in(assetsDir() / "catalog" / file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// True when a number of the table reads inf or nan (as printf writes them); names such as
// "infiniband_ndr" are no numbers.
bool printsNonFinite(const std::string& table) {
  std::istringstream words(table);
  for (std::string w; words >> w;) {
    if (w == "inf" || w == "-inf" || w == "nan" || w == "-nan") return true;
  }
  return false;
}

const char* TRAINING = "llama405b-training-16k-h100";
const char* SERVING = "llama70b-inference-h100";

}  // namespace

// Reproducer 5: workload.dp = 16777216 made tp x pp x dp wrap negative in int and pass
// <= cluster.gpus, printing a negative training time and energy.
TEST(Reliability, R5_LayoutProductsNeverWrap) {
  ScenarioDesc s = builtin(TRAINING);
  const std::string dp = setAll(s, {"workload.dp=16777216"});
  EXPECT_NE(dp.find("workload.dp must be <= 1048576"), std::string::npos) << dp;
  // Each degree inside its domain, the product (1024 x 4096 x 1024 x 2^20 = 2^52) far beyond any
  // int: refused against cluster.gpus, with the true product.
  const std::string product = refusal(
      TRAINING, {"cluster.system=gb200_nvl72", "cluster.systems_per_rack=1", "workload.tp=1024",
                 "workload.cp=4096", "workload.pp=1024", "workload.dp=1048576"});
  EXPECT_NE(product.find("= 4503599627370496 exceeds cluster.gpus = 16384"), std::string::npos)
      << product;
  // The product itself in 64 bits, and past 2^63 no product at all.
  const int big = std::numeric_limits<int>::max();
  EXPECT_EQ(calc::layoutGpus({8, 16, 128, 1, 1}), 16384);
  EXPECT_EQ(calc::layoutGpus({big, 1, 2, 1, 1}), int64_t(big) * 2);
  EXPECT_EQ(calc::layoutGpus({big, big, big, 1, big}), std::nullopt);
  EXPECT_EQ(calc::layoutGpus({8, 0, 1, 1, 1}), std::nullopt);
  // Huge micro-batch counts gave a negative bubble share (m + p overflowed in int).
  EXPECT_DOUBLE_EQ(calc::bubbleShareOfIteration(16, big), 15.0 / (2147483647.0 + 15.0));
  // 2^17 micro-batches: a step of ~11 hours. At the field's maximum, 2^20, the step (3.6 days)
  // leaves the training step's declared domain (sim::domains::TRAINING_STEP) and is refused.
  const Evaluation many = evaluated(TRAINING, {"workload.micro_batches=131072"});
  EXPECT_NEAR(many.number("parallelism.bubble_share_of_iteration"), 15.0 / (131072.0 + 15.0),
              1e-15);
  EXPECT_NE(refusal(TRAINING, {"workload.micro_batches=1048576"})
                .find("outside the modelled domain of a step"),
            std::string::npos);
  EXPECT_GT(many.number("compute.training_time_s"), 0);
  EXPECT_GT(many.number("power.training_facility_energy_kWh"), 0);
}

// Reproducer 6: collective.ranks = 1 divided by zero (algbw inf, busbw -nan in the table).
TEST(Reliability, R6_ACollectiveNeedsTwoRanks) {
  ScenarioDesc s = builtin(SERVING);
  const std::string one = setAll(s, {"collective.ranks=1"});
  EXPECT_NE(one.find("collective.ranks must be 0 (the default) or >= 2"), std::string::npos) << one;
  // Two ranks: an all-reduce's busbw is algbw x 2 (n - 1) / n = algbw (nccl-tests'
  // PERFORMANCE.md), algbw = bytes / time.
  const Evaluation two = evaluated(SERVING, {"collective.ranks=2"});
  const double algbw = two.number("collective.alg_bandwidth_Bps");
  EXPECT_NEAR(algbw, two.number("collective.bytes") / two.number("collective.time_s"),
              algbw * 1e-12);
  EXPECT_DOUBLE_EQ(two.number("collective.bus_bandwidth_Bps"), algbw);
  EXPECT_FALSE(printsNonFinite(two.toTable())) << two.toTable();
}

// Reproducer 7: inputs that contradict each other are refused naming the field to change.
TEST(Reliability, R7_ContradictionsAreRefusedWithTheirField) {
  struct Case {
    const char* base;
    std::vector<std::string> sets;
    const char* expected;
  };
  const Case cases[] = {
      // A static batch is served whole: 4096 x (2048 + 512) tokens of KV do not fit 8 H100s.
      {SERVING, {"workload.batching=static", "workload.batch=4096"}, "workload.batch: a static"},
      {SERVING,
       {"workload.batching=static", "workload.request_rate_per_s=5"},
       "workload.request_rate_per_s"},
      // Llama 3 70B was made for 8,192 tokens (meta-llama/llama-models sku_list.py).
      {SERVING,
       {"workload.model=llama3_70b", "workload.prompt_tokens=10000"},
       "workload.prompt_tokens: 10000 tokens exceed the model's context of 8192 tokens (models."
       "llama3_70b.context_tokens)"},
      {TRAINING, {"workload.seq_len=262144"}, "workload.seq_len: 262144 tokens exceed"},
      {TRAINING, {"workload.tp=3", "workload.dp=32"}, "workload.tp: 3 does not divide the 128"},
      {TRAINING,
       {"workload.pp=128", "workload.dp=16", "workload.virtual_stages=1"},
       "workload.pp: 128 exceeds the 126 layers"},
      // Ring attention cuts a sequence into 2 x cp chunks: 8190 is not a multiple of 4.
      {TRAINING, {"workload.cp=2", "workload.dp=64", "workload.seq_len=8190"}, "2 x cp = 4"},
      {TRAINING,
       {"workload.model=mixtral_8x7b", "workload.pp=4", "workload.virtual_stages=1",
        "workload.dp=384", "workload.ep=3"},
       "workload.ep: 3 does not divide the 8 experts"},
      {TRAINING, {"workload.ep=3"}, "workload.ep: 3 does not divide dp 128"},
      // 126 layers on 16 stages: the fullest stage holds ceil(126 / 16) = 8 layers.
      {TRAINING, {"workload.virtual_stages=9"}, "a stage holds at most 8 layers"},
      {TRAINING,
       {"workload.pp=1", "workload.dp=2048", "workload.virtual_stages=2"},
       "workload.virtual_stages: 2 interleaved chunks need a pipeline"},
      {"mixtral-inference-mi300x",
       {"workload.ep=2", "workload.dp=2", "cluster.gpus=2"},
       "workload.ep"},
      {SERVING, {"workload.cp=2", "workload.tp=4"}, "workload.cp"},
  };
  for (const Case& c : cases) {
    std::string what = c.base;
    for (const std::string& s : c.sets) what += " --set " + s;
    const std::string error = refusal(c.base, c.sets);
    EXPECT_NE(error.find(c.expected), std::string::npos) << what << "\n  got: " << error;
  }
  // Not contradictions: Llama 3's own layout (126 layers on 16 stages, 8 chunks each), and a
  // continuous batch above the KV cache, served at the most that fit and reported as not fitting.
  EXPECT_EQ(refusal(TRAINING, {}), "");
  const Evaluation over = evaluated(SERVING, {"workload.batch=4096"});
  EXPECT_FALSE(std::get<bool>(over.find("memory.fits")->value));
  EXPECT_EQ(over.number("compute.concurrency"), over.number("memory.max_batch"));
}

// Reproducer 9: extreme finite values printed null in the JSON and inf / -nan in the table.
TEST(Reliability, R9_ExtremeFiniteValuesAreRefusedOrPrintFinite) {
  for (const char* set :
       {"workload.training_tokens=1e308", "facility.pue=1e308", "accelerator.gemm_fraction=5e-324",
        "accelerator.hbm_bandwidth_Bps=1e-300", "workload.seq_len=nan",
        "facility.power_budget_W=inf"}) {
    ScenarioDesc s = builtin(TRAINING);
    const std::string error = setAll(s, {set});
    const std::string path = std::string(set).substr(0, std::string(set).find('='));
    EXPECT_EQ(error.rfind("--set " + path + ": " + path + " must be", 0), 0u)
        << set << ": " << error;
  }
  // A catalog figure of 1e-300 passed the loaders' "> 0": the catalog refuses it at load,
  // naming the file, the line and the figure.
  std::string gpus = shippedText("gpus.json");
  const std::string figure = "\"hbm_bandwidth_Bps\": {\"value\": 3.35e12";
  const size_t at = gpus.find(figure);
  ASSERT_NE(at, std::string::npos);
  gpus.replace(at, figure.size(), "\"hbm_bandwidth_Bps\": {\"value\": 1e-300");
  auto catalog = Catalog::loadTexts({{"gpus.json", gpus}});
  ASSERT_FALSE(catalog.ok());
  EXPECT_NE(catalog.error().find("gpus.json:"), std::string::npos) << catalog.error();
  EXPECT_NE(catalog.error().find("/gpus/h100_sxm/hbm_bandwidth_Bps"), std::string::npos)
      << catalog.error();
  EXPECT_NE(catalog.error().find("must be 0 (the default) or >= 1000"), std::string::npos)
      << catalog.error();
  // A unit the catalog has no domain for is refused too.
  auto unit = Catalog::loadTexts(
      {{"u.json",
        R"({"a": {"f": {"value": 1, "unit": "furlongs", "source": "s", "basis": "estimate"}}})"}});
  ASSERT_FALSE(unit.ok());
  EXPECT_NE(unit.error().find("unknown unit \"furlongs\""), std::string::npos) << unit.error();
  // At the top of their domains the figures print finite, in the JSON and the table.
  const Evaluation top = evaluated(TRAINING, {"workload.training_tokens=1e16", "facility.pue=10"});
  const std::string json = top.toJson().dump();
  EXPECT_EQ(json.find("null"), std::string::npos);
  EXPECT_FALSE(printsNonFinite(top.toTable())) << top.toTable();
  // 1e16 tokens at 6ND-ish FLOPs: the training time scales with the tokens from the default's.
  const Evaluation base = evaluated(TRAINING, {});
  EXPECT_NEAR(top.number("compute.training_time_s") / base.number("compute.training_time_s"),
              1e16 / base.number("compute.training_tokens"), 1e-6);
}

// Weak spot: num_experts: 0 beside num_local_experts: 8 counted Mixtral as dense.
TEST(Reliability, WeakSpot_ExpertCountsThatDisagreeAreRefused) {
  const std::string mixtral = R"({"model_type": "mixtral", "num_hidden_layers": 32,
    "hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 8,
    "intermediate_size": 14336, "vocab_size": 32000, "num_experts_per_tok": 2,
    "max_position_embeddings": 32768, )";
  auto both = importText(mixtral + R"("num_local_experts": 8,
    "num_experts": 0})",
                         "mixtral.json");
  ASSERT_FALSE(both.ok());
  EXPECT_NE(both.error().find("mixtral.json:5"), std::string::npos) << both.error();
  EXPECT_NE(both.error().find("\"num_experts\" = 0 contradicts \"num_local_experts\" = 8"),
            std::string::npos)
      << both.error();
  // The same count under two names is one count; Mixtral 8x7B's 46.7B parameters (Jiang et al.
  // arXiv:2401.04088) are then counted with its experts.
  auto agree = importText(mixtral + R"("num_local_experts": 8, "num_experts": 8})");
  ASSERT_TRUE(agree.ok()) << agree.error();
  EXPECT_EQ(agree->spec.experts, 8);
  EXPECT_NEAR(agree->params, 46.7e9, 0.1e9);
  EXPECT_EQ(agree->spec.contextTokens, 32768);
}

// Weak spot: a second "workload" silently replaced the first.
TEST(Reliability, WeakSpot_DuplicateKeysAreRefusedWithBothLines) {
  auto dup = parseJsonText("{\n  \"workload\": {\"batch\": 4},\n  \"workload\": {\"tp\": 8}\n}",
                           "dup.json");
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error(),
            "dup.json:3:3 (/workload): duplicate key \"workload\" (first at line 2): a JSON object "
            "may name a member once");
  // Inside a section, written with an escape, and inside an array element.
  auto nested = parseJsonText(R"({"workload": {"tp": 1, "pp": 2, "\u0074p": 4}})", "n.json");
  ASSERT_FALSE(nested.ok());
  EXPECT_NE(nested.error().find("(/workload/tp)"), std::string::npos) << nested.error();
  auto inArray = parseJsonText(R"({"chapters": [{"id": "a"}, {"id": "b", "id": "c"}]})", "a.json");
  ASSERT_FALSE(inArray.ok());
  EXPECT_NE(inArray.error().find("(/chapters/1/id)"), std::string::npos) << inArray.error();
  // The same key in different objects, and keys inside strings, are no duplicates.
  EXPECT_TRUE(parseJsonText(R"({"a": {"k": 1}, "b": {"k": "\"k\": 2"}, "c": [{"k": 1}, {"k": 2}]})",
                            "ok.json")
                  .ok());
  // Through the scenario loader: the file's own error.
  auto file = parseJsonText(R"({"workload": {"batch": 4, "batch": 8}})", "s.json");
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.error().find("s.json:1:"), std::string::npos);
}

// Weak spot: a BERT config with every size 0 was accepted.
TEST(Reliability, WeakSpot_ABertOfZerosIsRefused) {
  auto zeros = importText(R"({"model_type": "bert", "num_hidden_layers": 0, "hidden_size": 0,
    "num_attention_heads": 0, "intermediate_size": 0, "vocab_size": 0,
    "max_position_embeddings": 0, "type_vocab_size": 0})",
                          "bert.json");
  ASSERT_FALSE(zeros.ok());
  EXPECT_NE(zeros.error().find("bert.json:1 (/num_hidden_layers)"), std::string::npos)
      << zeros.error();
  EXPECT_NE(zeros.error().find("must be >= 1"), std::string::npos) << zeros.error();
  // Sizes past the shared domain, and 2^64 - 1 (which wrapped to -1 as a signed integer).
  auto huge = importText(R"({"model_type": "llama", "num_hidden_layers": 18446744073709551615})",
                         "huge.json");
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.error().find("must be <= 10000"), std::string::npos) << huge.error();
}

// The output domains themselves (what the evaluation's writer and the engine's checks apply).
TEST(Reliability, OutputDomainsByUnit) {
  EXPECT_EQ(outputError("s", 0), "");
  EXPECT_EQ(outputError("share", 1), "");
  EXPECT_EQ(outputError("C", -20), "");
  EXPECT_NE(outputError("s", -1e-9), "");
  EXPECT_NE(outputError("s", std::nan("")), "");
  EXPECT_NE(outputError("W", std::numeric_limits<double>::infinity()), "");
  EXPECT_NE(outputError("share", 1.0000001), "");
  EXPECT_NE(outputError("C", -274), "");
  EXPECT_NE(outputError("parsecs", 1), "");
  // Input domains: the default zero, integers, the edges.
  const Domain ranks = orZero(wholeNumbers(2, 1 << 20));
  EXPECT_EQ(domainError(ranks, 0), "");
  EXPECT_EQ(domainError(ranks, 1), "must be 0 (the default) or >= 2");
  EXPECT_EQ(domainError(ranks, 2.5), "must be an integer");
  EXPECT_EQ(domainError(ranks, 1048577), "must be <= 1048576");
  EXPECT_EQ(domainError(ranks, std::nan("")), "must be a finite number");
  EXPECT_EQ(describeDomain(ranks), "integer 2..1048576 count, or 0 (default)");
}

// Issue 40, contradictory systems (old HEAD: each exit 0). --set cluster.systems_per_rack=1024
// priced 1024 DGX H100 in one rack; accelerator.hbm_usable_bytes=1e15 gave an 80 GB GPU 931,323
// GiB; cluster.switch=nvswitch_gen3 built the fabric of NVLink switches; compute_dtype=fp8 on an
// A100 was priced at its BF16 peak (3.12e14 FLOP/s) and fp4 on an H100 at its FP8 one.
TEST(Reliability, I40_ContradictorySystemsAreRefusedNamingBothFields) {
  struct Case {
    const char* base;
    std::vector<std::string> sets;
    std::vector<const char*> expected;  // every one in the refusal
  };
  const Case cases[] = {
      {SERVING,
       {"cluster.systems_per_rack=1024"},
       {"cluster.systems_per_rack", "systems.dgx_h100.rack_units", "facility.default.rack_units"}},
      // A 48U rack holds six 8U DGX H100 (48 / 8): the seventh is one too many.
      {SERVING, {"cluster.systems_per_rack=7"}, {"cluster.systems_per_rack: 7", "56U", "48U"}},
      // An NVL72 is a rack of its own.
      {TRAINING,
       {"cluster.system=gb200_nvl72", "cluster.systems_per_rack=2"},
       {"cluster.systems_per_rack", "a rack or more"}},
      {SERVING,
       {"accelerator.hbm_usable_bytes=1e15"},
       {"accelerator.hbm_usable_bytes", "gpus.h100_sxm.hbm_capacity_bytes"}},
      {SERVING,
       {"accelerator.hbm_bytes=40e9", "accelerator.hbm_usable_bytes=80e9"},
       {"accelerator.hbm_usable_bytes", "accelerator.hbm_bytes"}},
      {SERVING,
       {"cluster.switch=nvswitch_gen3"},
       {"cluster.switch: nvswitch_gen3 is a scale_up switch", "switches.nvswitch_gen3.kind"}},
      {SERVING,
       {"cluster.scale_out_nic=nvlink4"},
       {"cluster.scale_out_nic: nvlink4", "interconnects.nvlink4.kind"}},
      {SERVING,
       {"cluster.system=dgx_a100", "workload.compute_dtype=fp8"},
       {"workload.compute_dtype", "gpus.a100_sxm.dense_fp8_flops"}},
      {SERVING,
       {"workload.compute_dtype=fp4"},
       {"workload.compute_dtype", "gpus.h100_sxm.dense_fp4_flops"}},
  };
  for (const Case& c : cases) {
    std::string what = c.base;
    for (const std::string& s : c.sets) what += " --set " + s;
    const std::string error = refusal(c.base, c.sets);
    for (const char* words : c.expected) {
      EXPECT_NE(error.find(words), std::string::npos) << what << "\n  got: " << error;
    }
  }
  // What is not contradictory: six DGX H100 in a rack, the H100's whole 80 GiB
  // (80 x 2^30 bytes) usable, FP8 on an H100, FP4 on a B200.
  EXPECT_EQ(refusal(SERVING, {"cluster.systems_per_rack=6"}), "");
  EXPECT_EQ(refusal(SERVING, {"accelerator.hbm_usable_bytes=85899345920"}), "");
  EXPECT_NE(refusal(SERVING, {"accelerator.hbm_usable_bytes=85900394496"}), "");  // + 1 MiB
  EXPECT_EQ(refusal(SERVING, {"workload.compute_dtype=fp8"}), "");
  EXPECT_EQ(refusal("llama70b-fp8-inference-b200", {"workload.compute_dtype=fp4"}), "");
}

// The time engine takes the same refusals: FP4 math on an H100 (its default GB200 has FP4), an
// NVLink switch in the fabric.
TEST(Reliability, I40_TheEngineRefusesAFormatTheGpuLacksAndAScaleUpFabricSwitch) {
  auto training = engine::builtinScenario("training_405b");
  ASSERT_TRUE(training.ok()) << training.error();
  engine::EngineDesc fp4 = *training;
  fp4.workload.training.precision = Precision::FP4;
  EXPECT_TRUE(engine::Engine::create(shipped(), fp4).ok());
  fp4.cluster.systemId = "dgx_h100";
  auto e = engine::Engine::create(shipped(), fp4);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().find("workload.training.precision"), std::string::npos) << e.error();
  EXPECT_NE(e.error().find("gpus.h100_sxm.dense_fp4_flops"), std::string::npos) << e.error();
  engine::EngineDesc nvswitch = *training;
  nvswitch.cluster.switchId = "nvswitch_gen3";
  auto f = engine::Engine::create(shipped(), nvswitch);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.error().find("cluster.switch: nvswitch_gen3"), std::string::npos) << f.error();
  EXPECT_TRUE(engine::Engine::create(shipped(), *training).ok());
}

// Every catalog GPU's usable HBM fits its capacity read as GiB (the check compares like with
// like): nvidia-smi's 81,559 MiB of an H100 within 80 x 1024 MiB.
TEST(Reliability, I40_EveryCatalogGpusUsableHbmFitsItsCapacity) {
  for (const std::string& id : shipped().children("gpus")) {
    auto gpu = loadGpu(shipped(), id);
    ASSERT_TRUE(gpu.ok()) << gpu.error();
    EXPECT_LE(gpu->hbmUsable_bytes, gpu->hbmCapacity_bytes / 1e9 * 1024.0 * 1024 * 1024) << id;
  }
  auto h100 = loadGpu(shipped(), "h100_sxm");
  ASSERT_TRUE(h100.ok());
  EXPECT_DOUBLE_EQ(h100->hbmUsable_bytes, 81559.0 * 1024 * 1024);
}

// Issue 40, 3 (old HEAD, --set workload.memory_fraction=0.01: comparison.h100_sxm_tokens_per_s_
// per_gpu 0 beside h100_sxm_weights_fit false): a GPU that serves nothing has no throughput.
TEST(Reliability, I40_AComparedGpuThatServesNothingHasNoThroughput) {
  const Evaluation none = evaluated(SERVING, {"workload.memory_fraction=0.01"});
  for (const char* id : {"h100_sxm", "h200", "b200", "mi300x"}) {
    const std::string key = std::string("comparison.") + id;
    EXPECT_EQ(none.find(key + "_tokens_per_s_per_gpu"), nullptr) << id;
    EXPECT_EQ(none.find(key + "_tokens_per_J"), nullptr) << id;
    const Output* why = none.find(key + "_serving");
    ASSERT_NE(why, nullptr) << id;
    EXPECT_EQ(std::get<std::string>(why->value).rfind("not applicable: not one request fits", 0),
              0u);
  }
  // FP4 math: the B200 serves, the H100, H200 and MI300X have no FP4 peak and are not priced.
  const Evaluation fp4 = evaluated("llama70b-fp8-inference-b200", {"workload.compute_dtype=fp4"});
  EXPECT_GT(fp4.number("comparison.b200_tokens_per_s_per_gpu"), 0);
  for (const char* id : {"h100_sxm", "h200", "mi300x"}) {
    const std::string key = std::string("comparison.") + id;
    EXPECT_EQ(fp4.find(key + "_tokens_per_s_per_gpu"), nullptr) << id;
    const Output* why = fp4.find(key + "_serving");
    ASSERT_NE(why, nullptr) << id;
    EXPECT_NE(std::get<std::string>(why->value).find("has no FP4 peak"), std::string::npos);
  }
  // Where it serves, a GPU keeps its figures.
  EXPECT_GT(evaluated(SERVING, {}).number("comparison.h100_sxm_tokens_per_s_per_gpu"), 0);
}
