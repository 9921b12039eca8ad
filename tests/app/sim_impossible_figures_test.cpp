// Issue 40, the input side of `dcwalk sim`: no impossible figure is printed and no time input
// spins the engine. A serving model that does not fit has no latency (absent, with the reason),
// a TDP below idle power or a peak below a wider format's is refused naming the field, training
// lasts at least one step and a step or run outside its declared domain is refused, and --until
// below one engine step is refused instead of looping forever.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/common/cli.h"

namespace {

using testcli::CliRun;

bool says(const CliRun& run, const std::string& words) {
  return run.out.find(words) != std::string::npos;
}

nlohmann::json simJson(const std::string& args) {
  const CliRun run = testcli::dcwalk("sim --json " + args, false, "timeout 120");
  EXPECT_EQ(run.status, 0) << args << "\n" << run.out;
  auto parsed = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_FALSE(parsed.is_discarded()) << run.out;
  return parsed.is_discarded() ? nlohmann::json::object() : parsed;
}

const std::string SERVING = "--scenario llama70b-inference-h100 ";
const std::string TRAINING = "--scenario llama405b-training-16k-h100 ";

}  // namespace

// Old HEAD: `--until 1e-12` printed "simulated 0 of 0 s (0 %)" every 2 s and never ended.
TEST(SimImpossibleFigures, UntilBelowOneEngineStepIsRefusedNotSpun) {
  for (const char* until : {"1e-12", "1e-11", "0.005"}) {
    const CliRun run = testcli::dcwalk(std::string("sim --engine training_405b --until ") + until,
                                       true, "timeout 120");
    EXPECT_EQ(run.status, 2) << until << "\n" << run.out;
    EXPECT_TRUE(says(run, std::string("--until ") + until + ": shorter than one engine step"))
        << run.out;
  }
  // One step of 10 ms ends; ten steps write the one row at 0.1 s (a row every 10 steps).
  EXPECT_EQ(testcli::dcwalk("sim --engine training_405b --until 0.01", false, "timeout 120").status,
            0);
  const CliRun tenth =
      testcli::dcwalk("sim --engine training_405b --until 0.1", false, "timeout 120");
  ASSERT_EQ(tenth.status, 0) << tenth.out;
  std::istringstream lines(tenth.out);
  std::string header, row, extra;
  std::getline(lines, header);
  std::getline(lines, row);
  EXPECT_FALSE(std::getline(lines, extra)) << tenth.out;
  EXPECT_EQ(row.rfind("0.1,", 0), 0u) << row;
}

// Old HEAD: `fits: false` beside ttft_s 0, tpot_s 0, request_latency_s 0, iteration_s 0.
TEST(SimImpossibleFigures, AServingModelThatDoesNotFitHasNoLatency) {
  for (const char* set : {"workload.memory_fraction=0.01", "accelerator.hbm_usable_bytes=1e6"}) {
    const nlohmann::json j = simJson(SERVING + "--set " + set);
    EXPECT_FALSE(j["memory"]["fits"].get<bool>()) << set;
    EXPECT_EQ(j["compute"]["max_concurrency"].get<double>(), 0) << set;
    for (const char* key :
         {"ttft_s", "tpot_s", "request_latency_s", "tokens_per_s_per_sequence", "requests_per_s",
          "output_tokens_per_s", "iteration_s", "prefill_s", "cluster_tokens_per_s"}) {
      EXPECT_FALSE(j["compute"].contains(key)) << set << ": " << key;
    }
    ASSERT_TRUE(j["compute"].contains("latency")) << set;
    EXPECT_EQ(j["compute"]["latency"].get<std::string>().rfind("not applicable:", 0), 0u);
    EXPECT_FALSE(j.contains("cost") && j["cost"].contains("per_million_tokens_usd")) << set;
  }
  const CliRun table =
      testcli::dcwalk("sim " + SERVING + "--set workload.memory_fraction=0.01", false);
  EXPECT_EQ(table.status, 0);
  EXPECT_TRUE(says(table, "not applicable")) << table.out;
  EXPECT_FALSE(says(table, "ttft_s")) << table.out;
  // A model that fits keeps every figure.
  const nlohmann::json fits = simJson(SERVING);
  EXPECT_TRUE(fits["memory"]["fits"].get<bool>());
  EXPECT_GT(fits["compute"]["ttft_s"].get<double>(), 0);
  EXPECT_FALSE(fits["compute"].contains("latency"));
}

// Old HEAD: accelerator.tdp_W=50 was priced (idle 88 W, the GPU "drew" 69.7 W), exit 0.
TEST(SimImpossibleFigures, TdpBelowIdleAndPeaksOutOfPrecisionOrderAreRefused) {
  const std::pair<std::string, std::string> cases[] = {
      {SERVING + "--set accelerator.tdp_W=50", "accelerator.tdp_W: 50 W is below the GPU's idle"},
      {SERVING + "--set accelerator.dense_fp8_flops=1e14",
       "accelerator.dense_fp8_flops: the FP8 peak of 1e+14 FLOP/s is below the BF16 peak"},
      {SERVING + "--set accelerator.dense_bf16_flops=5e15",
       "gpus.h100_sxm.dense_fp8_flops: the FP8 peak"},
      {"--scenario llama70b-fp8-inference-b200 --set accelerator.dense_fp4_flops=1e15",
       "accelerator.dense_fp4_flops: the FP4 peak of 1e+15 FLOP/s is below the FP8 peak"},
  };
  for (const auto& [args, expected] : cases) {
    const CliRun run = testcli::dcwalk("sim " + args, true);
    EXPECT_EQ(run.status, 2) << args << "\n" << run.out;
    EXPECT_TRUE(says(run, expected)) << args << "\n" << run.out;
  }
  // The idle power named is the catalog's (idle_power_W of h100_sxm).
  const CliRun tdp = testcli::dcwalk("sim " + SERVING + "--set accelerator.tdp_W=50", true);
  EXPECT_TRUE(says(tdp, "gpus.h100_sxm.idle_power_W")) << tdp.out;
  // An override in order is taken.
  EXPECT_EQ(simJson(SERVING + "--set accelerator.tdp_W=800")["power"]["gpu_tdp_W"], 800);
  // The time engine runs catalog GPUs: any accelerator field is refused, not ignored.
  const CliRun engine = testcli::dcwalk(
      "sim --engine llama70b-inference-h100 --set accelerator.tdp_W=800 --until 0.01", true);
  EXPECT_EQ(engine.status, 2) << engine.out;
  EXPECT_TRUE(says(engine, "accelerator: the time engine runs catalog GPUs")) << engine.out;
}

// Old HEAD: training_tokens=1 trained in 3.5e-7 s against a 5.34 s step; a 303-year step exit 0.
TEST(SimImpossibleFigures, TrainingLastsAtLeastOneStepAndStaysInItsDomain) {
  const nlohmann::json one = simJson(TRAINING + "--set workload.training_tokens=1");
  const nlohmann::json& c = one["compute"];
  // One whole step, stretched by the effective-training-time share like every step.
  EXPECT_NEAR(c["training_time_s"].get<double>(),
              c["step_time_s"].get<double>() / c["effective_training_time_fraction"].get<double>(),
              1e-9 * c["training_time_s"].get<double>());
  const CliRun slow =
      testcli::dcwalk("sim " + TRAINING + "--set accelerator.dense_bf16_flops=1e9", true);
  EXPECT_EQ(slow.status, 2) << slow.out;
  EXPECT_TRUE(says(slow, "workload: a training step of")) << slow.out;
  EXPECT_TRUE(says(slow, "outside the modelled domain of a step (at most 86400 s)")) << slow.out;
  const CliRun endless = testcli::dcwalk(
      "sim " + TRAINING + "--set workload.dp=1 --set workload.training_tokens=1e16", true);
  EXPECT_EQ(endless.status, 2) << endless.out;
  EXPECT_TRUE(says(endless, "workload.training_tokens: 1e+16 tokens take")) << endless.out;
  EXPECT_TRUE(says(endless, "outside the modelled domain of a run")) << endless.out;
}

// Issue 40, 3 (old HEAD: "h100_sxm_tokens_per_s_per_gpu": 0 beside "h100_sxm_weights_fit":
// false): a compared GPU that serves nothing has no throughput in the JSON, and says why.
TEST(SimImpossibleFigures, AComparedGpuThatServesNothingHasNoThroughput) {
  const nlohmann::json j = simJson(SERVING + "--set workload.memory_fraction=0.01");
  ASSERT_TRUE(j.contains("comparison")) << j.dump();
  const nlohmann::json& c = j["comparison"];
  EXPECT_FALSE(c.contains("h100_sxm_tokens_per_s_per_gpu")) << c.dump();
  EXPECT_FALSE(c.contains("h100_sxm_per_million_tokens_usd")) << c.dump();
  ASSERT_TRUE(c.contains("h100_sxm_serving")) << c.dump();
  EXPECT_EQ(c["h100_sxm_serving"].get<std::string>().rfind("not applicable", 0), 0u);
  EXPECT_EQ(c["h100_sxm_weights_fit"], false);
}
