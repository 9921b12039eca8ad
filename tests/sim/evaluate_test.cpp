// What a scenario can express and what the evaluation prints: models by dimensions or by a
// config.json, accelerators by figures, the fat-tree counts, the facility's supported IT power,
// the collective sweep, and impossible inputs refused naming the field.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "sim/evaluate.h"
#include "sim/scenario.h"
#include "tests/common/paths.h"
#include "tests/sim/shipped_catalog.h"

using namespace sim;
using simtest::shipped;

namespace {

Evaluation evaluateWith(const std::string& base, const std::vector<std::string>& sets) {
  auto s = loadScenario(base);
  EXPECT_TRUE(s.ok()) << s.error();
  for (const std::string& o : sets) {
    auto applied = applyOverride(*s, o);
    EXPECT_TRUE(applied.ok()) << applied.error();
  }
  auto r = evaluateScenario(*s, shipped());
  EXPECT_TRUE(r.ok()) << r.error();
  return r.ok() ? *r : Evaluation{};
}

std::string evaluationError(const std::string& base, const std::vector<std::string>& sets) {
  auto s = loadScenario(base);
  EXPECT_TRUE(s.ok()) << s.error();
  for (const std::string& o : sets) {
    auto applied = applyOverride(*s, o);
    if (!applied) return applied.error();
  }
  auto r = evaluateScenario(*s, shipped());
  EXPECT_FALSE(r.ok()) << "expected a refusal";
  return r.ok() ? "" : r.error();
}

const std::string INFERENCE = "llama70b-inference-h100";
const std::string TRAINING = "llama405b-training-16k-h100";

}  // namespace

TEST(Evaluate, AModelByItsDimensionsIsTheCatalogModel) {
  const Evaluation catalog = evaluateWith(INFERENCE, {});
  const Evaluation inline_ = evaluateWith(
      INFERENCE, {"model.layers=80", "model.hidden=8192", "model.heads=64", "model.kv_heads=8",
                  "model.intermediate=28672", "model.vocab=128256"});
  for (const char* key : {"memory.params", "memory.kv_cache_bytes_per_token", "compute.tpot_s",
                          "compute.output_tokens_per_s", "memory.max_batch"}) {
    EXPECT_DOUBLE_EQ(inline_.number(key), catalog.number(key)) << key;
  }
}

TEST(Evaluate, AModelFromAConfigJsonNextToTheScenarioFile) {
  const auto dir = testpaths::freshDir("evaluate-hf");
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "config.json") << R"({"model_type": "llama", "num_hidden_layers": 32,
    "hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 8,
    "intermediate_size": 14336, "vocab_size": 128256, "tie_word_embeddings": false})";
  std::ofstream(dir / "scenario.json") << R"({"name": "hf", "model": {"hf_config": "config.json"},
    "cluster": {"system": "hgx_h200", "gpus": 1}, "workload": {"kind": "inference"}})";
  auto s = loadScenarioFile(dir / "scenario.json");
  ASSERT_TRUE(s.ok()) << s.error();
  auto r = evaluateScenario(*s, shipped());
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_DOUBLE_EQ(r->number("memory.params"), 8030261248.0);                // known answer 32
  EXPECT_DOUBLE_EQ(r->number("memory.kv_cache_bytes_per_token"), 131072.0);  // known answer 27
  std::filesystem::remove_all(dir);
}

TEST(Evaluate, AnAcceleratorByItsFigures) {
  // Twice the HBM bandwidth of an H100 (all else equal) at batch 1: the weight stream halves.
  const Evaluation h100 = evaluateWith(INFERENCE, {"workload.batch=1"});
  const Evaluation fast =
      evaluateWith(INFERENCE, {"workload.batch=1", "accelerator.name=H100 with 2x HBM",
                               "accelerator.hbm_bandwidth_Bps=6.7e12"});
  EXPECT_NEAR(fast.number("compute.iteration_matmul_s"),
              h100.number("compute.iteration_matmul_s") / 2, 1e-12);
  EXPECT_DOUBLE_EQ(fast.number("hardware.gpu_hbm_bandwidth_Bps"), 6.7e12);
  // A measured efficiency given with it replaces the catalog's.
  const Evaluation slow = evaluateWith(INFERENCE, {"accelerator.hbm_fraction=0.5"});
  EXPECT_DOUBLE_EQ(slow.number("hardware.gpu_achieved_hbm_bandwidth_Bps"), 0.5 * 3.35e12);
}

TEST(Evaluate, FatTreeCountsAtTheSwitchRadix) {
  // Known answer 15: 16,384 endpoints on radix-64 switches, pruned 3-tier: 512 + 512 + 256.
  const Evaluation t = evaluateWith(TRAINING, {});
  EXPECT_DOUBLE_EQ(t.number("fabric.endpoints"), 16384);
  EXPECT_DOUBLE_EQ(t.number("fabric.tiers"), 3);
  EXPECT_DOUBLE_EQ(t.number("fabric.leaf_switches"), 512);
  EXPECT_DOUBLE_EQ(t.number("fabric.spine_switches"), 512);
  EXPECT_DOUBLE_EQ(t.number("fabric.core_switches"), 256);
  // Known answer 16: radix 144, 2 tiers, 10,368 endpoints on 144 + 72 switches.
  const Evaluation x =
      evaluateWith(TRAINING, {"cluster.switch_radix=144", "cluster.gpus=10368", "workload.dp=81"});
  EXPECT_DOUBLE_EQ(x.number("fabric.tiers"), 2);
  EXPECT_DOUBLE_EQ(x.number("fabric.total_switches"), 216);
}

TEST(Evaluate, FacilityBudgetAndNodePower) {
  const Evaluation t = evaluateWith(TRAINING, {"facility.pue=1.25"});
  EXPECT_DOUBLE_EQ(t.number("power.facility_supported_it_power_W"), 100e6 / 1.25);
  // Busy GPUs draw between idle and TDP; the node's mean sits under its peak.
  const double busy = t.number("power.gpu_busy_fraction");
  EXPECT_GT(busy, 0.3);
  EXPECT_LT(busy, 1.0);
  EXPECT_LT(t.number("power.node_power_W"), t.number("power.node_peak_power_W"));
  EXPECT_NEAR(t.number("power.gpu_power_W"), 88 + busy * (700 - 88), 1e-9);
}

TEST(Evaluate, CollectiveSweepLikeAllReducePerf) {
  const Evaluation e = evaluateWith(INFERENCE, {});
  double previous = 0;
  for (double bytes = 8; bytes <= 8.0 * (1ull << 30); bytes *= 2) {
    const std::string key =
        "collective_sweep." + std::to_string(static_cast<unsigned long long>(bytes)) + "B_";
    const double busbw = e.number(key + "bus_bandwidth_Bps");
    ASSERT_FALSE(std::isnan(busbw)) << key;
    EXPECT_GE(busbw, previous * 0.95) << key;  // bandwidth grows with the size
    EXPECT_NEAR(e.number(key + "alg_bandwidth_Bps"), bytes / e.number(key + "time_s"), 1e-6);
    previous = busbw;
  }
  EXPECT_EQ(std::get<std::string>(e.find("collective_sweep.8B_algorithm")->value), "ring/LL");
  EXPECT_EQ(std::get<std::string>(e.find("collective_sweep.8589934592B_algorithm")->value),
            "nvls/Simple");
}

TEST(Evaluate, ImpossibleInputsAreRefusedNamingTheField) {
  EXPECT_NE(evaluationError(INFERENCE, {"model.layers=10"}).find("model.hidden"),
            std::string::npos);
  EXPECT_NE(
      evaluationError(INFERENCE, {"accelerator.gemm_fraction=2"}).find("accelerator.gemm_fraction"),
      std::string::npos);
  EXPECT_NE(evaluationError(INFERENCE, {"workload.cp=2", "cluster.gpus=16"}).find("workload.cp"),
            std::string::npos);
  EXPECT_NE(evaluationError(INFERENCE, {"cluster.system=dgx_a100", "collective.algorithm=nvls"})
                .find("collective.algorithm"),
            std::string::npos);
  EXPECT_NE(evaluationError(INFERENCE, {"cluster.switch_radix=7"}).find("cluster.switch_radix"),
            std::string::npos);
  EXPECT_NE(evaluationError(TRAINING, {"workload.tp=16", "workload.dp=64"}).find("workload.tp"),
            std::string::npos);
}

// An NVL72 rack cut into 8-GPU NVLink domains (cluster.domain_gpus): each domain has its 8 GPUs'
// NICs (one 400G ConnectX-7 per GPU, 18 trays x 4), not the rack's 72, so a 24-GPU ring across
// three domains runs at the NIC share of 8 x 50 GB/s, below its NVLink share (0.772 x 900 GB/s).
TEST(Evaluate, APartitionedNvlinkDomainKeepsItsGpusNics) {
  const std::vector<std::string> groups = {
      "cluster.system=gb200_nvl72",  "cluster.systems_per_rack=1", "cluster.gpus=24",
      "cluster.domain_gpus=8",       "collective.ranks=24",        "collective.algorithm=ring",
      "collective.bytes=17179869184"};
  const Evaluation e = evaluateWith(INFERENCE, groups);
  EXPECT_DOUBLE_EQ(e.number("collective.nodes"), 3.0);
  const double nicBound = 8 * 50e9 * 0.96;  // 8 NICs x 400 Gb/s x the NIC share
  EXPECT_NEAR(e.number("collective.bus_bandwidth_Bps"), nicBound, 0.01 * nicBound);
  // The same 24 GPUs in one (whole-rack) domain: NVLink only.
  const Evaluation whole = evaluateWith(
      INFERENCE, {"cluster.system=gb200_nvl72", "cluster.systems_per_rack=1", "cluster.gpus=24",
                  "collective.ranks=24", "collective.algorithm=ring"});
  EXPECT_DOUBLE_EQ(whole.number("collective.nodes"), 1.0);
}

TEST(Evaluate, ADomainThatIsNotAPartitionIsRefusedNamingTheField) {
  for (const char* d : {"cluster.domain_gpus=7", "cluster.domain_gpus=144"}) {
    EXPECT_NE(evaluationError(INFERENCE, {"cluster.system=gb200_nvl72",
                                          "cluster.systems_per_rack=1", "cluster.gpus=72", d})
                  .find("cluster.domain_gpus"),
              std::string::npos)
        << d;
  }
  auto s = loadScenario(INFERENCE);
  ASSERT_TRUE(s.ok());
  for (const char* bad :
       {"cluster.domain_gpus=-1", "cluster.domain_gpus=2.5", "cluster.domain_gpus=100000"}) {
    auto applied = applyOverride(*s, bad);
    ASSERT_FALSE(applied.ok()) << bad;
    EXPECT_NE(applied.error().find("cluster.domain_gpus"), std::string::npos) << applied.error();
  }
}

TEST(Evaluate, NoBuiltInOrValidationScenarioPrintsAnInvalidNumber) {
  std::vector<std::filesystem::path> files;
  for (const std::string& name : builtinScenarioNames()) {
    files.push_back(assetsDir() / "scenarios" / (name + ".json"));
  }
  for (const auto& entry :
       std::filesystem::directory_iterator(assetsDir() / "scenarios" / "validation")) {
    if (entry.path().extension() == ".json" && entry.path().filename() != "cases.json") {
      files.push_back(entry.path());
    }
  }
  for (const auto& file : files) {
    auto s = loadScenarioFile(file);
    ASSERT_TRUE(s.ok()) << s.error();
    auto r = evaluateScenario(*s, shipped());
    ASSERT_TRUE(r.ok()) << file << ": " << r.error();
    for (const Output& o : r->outputs) {
      if (const double* v = std::get_if<double>(&o.value)) {
        EXPECT_TRUE(std::isfinite(*v) && *v >= 0) << file << " " << o.section << "." << o.key;
      }
    }
  }
}
