// Scenarios: parsing with file:line errors, --set overrides with type checks, the built-in
// scenarios, and known answers reached through overrides alone.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "sim/catalog.h"
#include "sim/evaluate.h"
#include "sim/scenario.h"
#include "tests/common/paths.h"
#include "tests/sim/shipped_catalog.h"

using namespace sim;

namespace {

using simtest::shipped;

Result<ScenarioDesc> parse(const std::string& text, const std::string& name = "s.json") {
  auto file = parseJsonText(text, name);
  if (!file) return Result<ScenarioDesc>::failure(file.error());
  return parseScenario(*file);
}

Evaluation evaluateWith(const std::vector<std::string>& sets) {
  ScenarioDesc scenario;
  for (const std::string& s : sets) {
    auto applied = applyOverride(scenario, s);
    EXPECT_TRUE(applied.ok()) << applied.error();
  }
  auto result = evaluateScenario(scenario, shipped());
  EXPECT_TRUE(result.ok()) << result.error();
  return result.ok() ? *result : Evaluation{};
}

}  // namespace

TEST(Scenario, EveryBuiltInParsesAndEvaluates) {
  const auto names = builtinScenarioNames();
  ASSERT_GE(names.size(), 4u);
  for (const std::string& name : names) {
    auto scenario = loadScenario(name);
    ASSERT_TRUE(scenario.ok()) << scenario.error();
    EXPECT_EQ(scenario->name, name) << "a built-in's name matches its file";
    auto result = evaluateScenario(*scenario, shipped());
    ASSERT_TRUE(result.ok()) << name << ": " << result.error();
    for (const Output& o : result->outputs) {
      if (const double* d = std::get_if<double>(&o.value)) {
        EXPECT_TRUE(std::isfinite(*d)) << name << " " << o.section << "." << o.key;
      }
    }
  }
}

TEST(Scenario, FileErrorsNameLineAndPointer) {
  auto unknown = parse("{\n  \"workload\": {\n    \"batchx\": 3\n  }\n}", "bad.json");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().find("bad.json:3"), std::string::npos) << unknown.error();
  EXPECT_NE(unknown.error().find("workload.batchx"), std::string::npos) << unknown.error();

  auto type = parse("{\"workload\": {\n\"batch\": \"many\"}}", "t.json");
  ASSERT_FALSE(type.ok());
  EXPECT_NE(type.error().find("t.json:2"), std::string::npos) << type.error();
  EXPECT_NE(type.error().find("integer"), std::string::npos) << type.error();

  auto range = parse("{\"workload\": {\"tp\": 0}}");
  ASSERT_FALSE(range.ok());
  EXPECT_NE(range.error().find("workload.tp must be >= 1"), std::string::npos) << range.error();

  auto choice = parse("{\"workload\": {\"kind\": \"serving\"}}");
  ASSERT_FALSE(choice.ok());
  EXPECT_NE(choice.error().find("inference, training"), std::string::npos) << choice.error();

  auto notObject = parse("{\"workload\": 3}");
  ASSERT_FALSE(notObject.ok());
  EXPECT_NE(notObject.error().find("\"workload\" must be an object"), std::string::npos)
      << notObject.error();

  auto topLevel = parse("{\"clusterz\": 1}");
  ASSERT_FALSE(topLevel.ok());
  EXPECT_NE(topLevel.error().find("clusterz"), std::string::npos);
}

TEST(Scenario, OverridesAreTypeCheckedAndAtomic) {
  ScenarioDesc s;
  ASSERT_TRUE(applyOverride(s, "workload.batch=32").ok());
  EXPECT_EQ(s.workload.batch, 32);
  ASSERT_TRUE(applyOverride(s, "collective.bytes=1.5e9").ok());
  EXPECT_EQ(s.collective.bytes, 1.5e9);
  ASSERT_TRUE(applyOverride(s, "cluster.gpu=h200").ok());
  EXPECT_EQ(s.cluster.gpu, "h200");

  auto unknown = applyOverride(s, "workload.batchsize=4");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().find("workload.batchsize"), std::string::npos);
  auto notInt = applyOverride(s, "workload.batch=3.5");
  ASSERT_FALSE(notInt.ok());
  EXPECT_NE(notInt.error().find("integer"), std::string::npos);
  auto notNumber = applyOverride(s, "facility.pue=high");
  ASSERT_FALSE(notNumber.ok());
  auto noEquals = applyOverride(s, "workload.batch");
  ASSERT_FALSE(noEquals.ok());
  auto negative = applyOverride(s, "workload.batch=-2");
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(s.workload.batch, 32) << "a failed override leaves the scenario unchanged";
  auto badKernel = applyOverride(s, "workload.decode_attention=flash");
  ASSERT_FALSE(badKernel.ok());
  EXPECT_NE(badKernel.error().find("workload.decode_attention"), std::string::npos);
  EXPECT_EQ(s.workload.decodeAttention, "grouped");
  EXPECT_EQ(scenarioFieldPaths().size(), 77u);
}

TEST(Scenario, EvaluationErrorsNameTheField) {
  ScenarioDesc s;
  ASSERT_TRUE(applyOverride(s, "workload.model=llama9").ok());
  auto r = evaluateScenario(s, shipped());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("workload.model"), std::string::npos) << r.error();

  ScenarioDesc t;
  ASSERT_TRUE(applyOverride(t, "workload.tp=16").ok());
  auto tooMany = evaluateScenario(t, shipped());
  ASSERT_FALSE(tooMany.ok());
  EXPECT_NE(tooMany.error().find("cluster.gpus"), std::string::npos) << tooMany.error();

  ScenarioDesc u;
  ASSERT_TRUE(applyOverride(u, "cost.compare=h100_sxm,nonesuch").ok());
  auto compare = evaluateScenario(u, shipped());
  ASSERT_FALSE(compare.ok());
  EXPECT_NE(compare.error().find("cost.compare"), std::string::npos) << compare.error();
}

TEST(Scenario, KnownAnswersThroughOverridesAlone) {
  // Row 7: ring all-reduce alpha-beta.
  const Evaluation ring =
      evaluateWith({"collective.op=all_reduce", "collective.ranks=8", "collective.bytes=1048576",
                    "collective.alpha_s=5e-6", "collective.bandwidth_Bps=370e9"});
  EXPECT_NEAR(ring.number("collective.time_s"), 74.96e-6, 74.96e-6 * 0.001);
  EXPECT_DOUBLE_EQ(ring.number("collective.bus_bw_factor"), 1.75);
  // Row 5: a measured algbw converted to busbw.
  const Evaluation bus = evaluateWith({"collective.ranks=8", "collective.alg_bandwidth_Bps=275e9"});
  EXPECT_NEAR(bus.number("collective.bus_bandwidth_Bps"), 481.25e9, 481.25e9 * 0.005);
  // Row 34: 70B BF16 on one H200 does not fit; on one MI300X it does.
  const Evaluation h200 = evaluateWith({"cluster.gpu=h200", "cluster.gpus=1", "workload.batch=1",
                                        "workload.prompt_tokens=1", "workload.output_tokens=1"});
  EXPECT_NEAR(h200.number("memory.weights_bytes"), 141.107e9, 141.107e9 * 1e-4);
  EXPECT_EQ(std::get<bool>(h200.find("comparison.h200_weights_fit")->value), false);
  EXPECT_EQ(std::get<bool>(h200.find("comparison.mi300x_weights_fit")->value), true);
  // Row 38: ZeRO-3 on 64 ranks.
  const Evaluation zero = evaluateWith(
      {"workload.kind=training", "workload.zero_stage=3", "workload.dp=64", "cluster.gpus=64"});
  EXPECT_NEAR(zero.number("memory.model_state_per_gpu_bytes"), 17.64e9, 17.64e9 * 1e-3);
  // Row 43: pipeline bubbles.
  const Evaluation pipe =
      evaluateWith({"workload.pp=8", "workload.micro_batches=32", "workload.virtual_stages=2"});
  EXPECT_DOUBLE_EQ(pipe.number("parallelism.bubble_fraction"), 0.21875);
  EXPECT_DOUBLE_EQ(pipe.number("parallelism.interleaved_bubble_fraction"), 0.109375);
  // Row 47: coolant flow per kW at rho = 1000 kg/m^3.
  const Evaluation cool = evaluateWith({"facility.coolant_density_kg_per_m3=1000"});
  EXPECT_NEAR(cool.number("power.coolant_flow_per_kW_L_per_min"), 1.433, 1.433 * 0.005);
  // Row 52: cloud price per GPU-hour.
  const Evaluation cloud = evaluateWith({"cost.cloud_instance_per_hour_usd=98.32"});
  EXPECT_NEAR(cloud.number("cost.cloud_per_gpu_hour_usd"), 12.29, 0.005);
  // Row 27: Llama 3 8B KV per token.
  const Evaluation kv = evaluateWith({"workload.model=llama3_8b"});
  EXPECT_DOUBLE_EQ(kv.number("memory.kv_cache_bytes_per_token"), 131072);
}

TEST(Scenario, TrainingScenarioIsPlausible) {
  auto s = loadScenario("llama405b-training-16k-h100");
  ASSERT_TRUE(s.ok()) << s.error();
  auto r = evaluateScenario(*s, shipped());
  ASSERT_TRUE(r.ok()) << r.error();
  // The paper trained 15.6T tokens in ~54 days on a mix of 8K- and 16K-GPU phases (38-43 % MFU);
  // an order-of-magnitude check on the step model's training time.
  const double days = r->number("compute.training_time_s") / 86400.0;
  EXPECT_GT(days, 40.0);
  EXPECT_LT(days, 90.0);
  EXPECT_GT(r->number("compute.mfu"), 0.3);
  EXPECT_LT(r->number("compute.mfu"), 0.6);
  // The fullest stage, computed here tensor by tensor: stage 1 holds 8 of the 126 layers (the
  // first and last hold 7) with all 16 micro-batches in flight; ZeRO-1 over DP 128; selective
  // recompute keeps, per token and layer on one of 8 TP ranks, (both norm inputs + the QKV and
  // MLP inputs 8h + Q and the attention output 4h + K, V 4 x 1024 + gate, up, activation 6F) / 8
  // bytes; plus the 2 GB framework reserve.
  const double h = 16384, ffn = 53248, tokens = 8192;
  const double layerParams = 2 * h * h + 2 * h * 1024 + 3 * h * ffn + 2 * h;
  const double state = 8 * layerParams / 8 * (2 + 2 + 12.0 / 128);
  const double perLayer = (8 * h + 4 * h + 4 * 1024 + 6 * ffn) / 8 * tokens;
  const double total = state + 8 * 16 * perLayer + 2e9;
  EXPECT_NEAR(r->number("memory.peak_stage_index"), 1, 0);
  EXPECT_NEAR(r->number("memory.training_per_gpu_bytes"), total, 1e3);
  // It fits the 81,559 MiB an H100 reports, not the marketed 80e9 bytes.
  EXPECT_TRUE(std::get<bool>(r->find("memory.fits")->value));
  EXPECT_GT(total, 80e9);
  EXPECT_LT(total, 81559.0 * (1 << 20));
  // Llama 3.1 405B on 16K H100: the model card's 30.84M GPU-hours -> 21.59 GWh at 700 W.
  EXPECT_NEAR(r->number("power.reported_training_gpu_energy_kWh"), 21.59e6, 21.59e6 * 0.001);
}

TEST(Scenario, EveryOutputKeyAndFieldIsDocumented) {
  std::ifstream in(testpaths::sourceDir() / "docs" / "sim.md");
  ASSERT_TRUE(in) << "docs/sim.md missing";
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  for (const std::string& path : scenarioFieldPaths()) {
    EXPECT_NE(doc.find("`" + path + "`"), std::string::npos) << path << " is not documented";
  }
  for (const std::string& name : builtinScenarioNames()) {
    auto scenario = loadScenario(name);
    ASSERT_TRUE(scenario.ok()) << scenario.error();
    ASSERT_TRUE(applyOverride(*scenario, "cost.cloud_instance_per_hour_usd=10").ok());
    auto result = evaluateScenario(*scenario, shipped());
    ASSERT_TRUE(result.ok()) << result.error();
    for (const Output& o : result->outputs) {
      std::string key = o.key;
      if (o.section == "collective_sweep") {
        key = "<bytes>" + key.substr(key.find('B'));  // "8589934592B_time_s" -> "<bytes>B_time_s"
      }
      if (o.section == "comparison") {
        // Keys are "<gpu id>_<quantity>" for each id of cost.compare.
        std::stringstream ids(scenario->cost.compare);
        for (std::string id; std::getline(ids, id, ',');) {
          if (key.rfind(id + "_", 0) == 0) key = "<gpu>" + key.substr(id.size());
        }
      }
      EXPECT_NE(doc.find("`" + o.section + "." + key + "`"), std::string::npos)
          << o.section << "." << o.key << " is not documented in docs/sim.md";
    }
  }
}
