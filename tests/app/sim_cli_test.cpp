// `dcwalk sim` end to end: known answers reached through --set alone, JSON and table output,
// and bad input (unknown field, wrong type, bad file, unknown scenario) -> exit status 2.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/common/cli.h"
#include "tests/common/paths.h"

namespace {

using testcli::CliRun;

// Runs `dcwalk <args>`; stderr joins stdout when `withStderr`.
CliRun dcwalk(const std::string& args, bool withStderr = false) {
  return testcli::dcwalk(args, withStderr);
}

nlohmann::json simJson(const std::string& args) {
  const CliRun run = dcwalk("sim --json " + args);
  EXPECT_EQ(run.status, 0) << run.out;
  auto parsed = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_FALSE(parsed.is_discarded()) << run.out;
  return parsed.is_discarded() ? nlohmann::json::object() : parsed;
}

std::filesystem::path tempFile(const std::string& name, const std::string& text) {
  static const testpaths::TempDir folder("sim-cli");
  const auto path = folder.path / name;
  std::ofstream(path) << text;
  return path;
}

const std::string BASE = "--scenario llama70b-inference-h100 ";

}  // namespace

TEST(SimCli, SeedFiguresOfTheDefaultScenario) {
  const auto j = simJson(BASE);
  EXPECT_EQ(j["scenario"]["name"], "llama70b-inference-h100");
  EXPECT_DOUBLE_EQ(j["hardware"]["gpu_hbm_bandwidth_Bps"].get<double>(), 3.35e12);
  EXPECT_DOUBLE_EQ(j["hardware"]["gpu_scale_up_bidirectional_Bps"].get<double>(), 900e9);
  EXPECT_DOUBLE_EQ(j["hardware"]["system_hbm_capacity_bytes"].get<double>(), 640e9);
}

TEST(SimCli, KnownAnswerRingAllReduceThroughSet) {
  // Row 7: S = 1 MiB, n = 8, alpha = 5 us, B = 370 GB/s -> 74.96 us.
  const auto j = simJson(BASE +
                         "--set collective.op=all_reduce --set collective.ranks=8 "
                         "--set collective.bytes=1048576 --set collective.alpha_s=5e-6 "
                         "--set collective.bandwidth_Bps=370e9");
  EXPECT_NEAR(j["collective"]["time_s"].get<double>(), 74.96e-6, 74.96e-6 * 0.001);
  EXPECT_DOUBLE_EQ(j["collective"]["bus_bw_factor"].get<double>(), 1.75);             // row 1
  EXPECT_NEAR(j["collective"]["nvls_bus_bw_factor"].get<double>(), 7.0 / 9.0, 1e-6);  // row 4
}

TEST(SimCli, KnownAnswerBusBwFromAlgBwThroughSet) {
  const auto j =
      simJson(BASE + "--set collective.ranks=8 --set collective.alg_bandwidth_Bps=275e9");
  EXPECT_NEAR(j["collective"]["bus_bandwidth_Bps"].get<double>(), 481.25e9, 481.25e9 * 0.005);
}

TEST(SimCli, KnownAnswer70BBf16FitThroughSet) {
  const auto j = simJson(BASE +
                         "--set cluster.gpu=h200 --set cluster.gpus=1 --set workload.tp=1 "
                         "--set workload.batch=1");
  EXPECT_NEAR(j["memory"]["weights_bytes"].get<double>(), 141.107e9, 141.107e9 * 1e-4);
  EXPECT_FALSE(j["memory"]["fits"].get<bool>());
  EXPECT_FALSE(j["comparison"]["h200_weights_fit"].get<bool>());
  EXPECT_TRUE(j["comparison"]["mi300x_weights_fit"].get<bool>());
}

TEST(SimCli, KnownAnswersMemoryThroughSet) {
  const auto kv = simJson(BASE + "--set workload.model=llama3_8b --set workload.tp=1");
  EXPECT_DOUBLE_EQ(kv["memory"]["kv_cache_bytes_per_token"].get<double>(), 131072);  // row 27
  const auto zero = simJson(BASE +
                            "--set workload.kind=training --set workload.zero_stage=3 "
                            "--set workload.tp=1 --set workload.dp=64 --set cluster.gpus=64");
  EXPECT_NEAR(zero["memory"]["model_state_per_gpu_bytes"].get<double>(), 17.64e9,
              17.64e9 * 1e-3);  // row 38
  EXPECT_NEAR(zero["memory"]["training_state_bytes"].get<double>(), 1128.86e9,
              1128.86e9 * 1e-4);  // row 36
}

TEST(SimCli, KnownAnswersPipelineCoolingCostThroughSet) {
  const auto j = simJson(BASE +
                         "--set workload.tp=1 --set workload.pp=8 "
                         "--set workload.micro_batches=32 --set workload.virtual_stages=2 "
                         "--set facility.coolant_density_kg_per_m3=1000 "
                         "--set cost.cloud_instance_per_hour_usd=98.32");
  EXPECT_DOUBLE_EQ(j["parallelism"]["bubble_fraction"].get<double>(), 0.21875);  // row 43
  EXPECT_NEAR(j["parallelism"]["bubble_share_of_iteration"].get<double>(), 0.17949, 1e-5);
  EXPECT_DOUBLE_EQ(j["parallelism"]["interleaved_bubble_fraction"].get<double>(), 0.109375);
  EXPECT_NEAR(j["power"]["coolant_flow_per_kW_L_per_min"].get<double>(), 1.433,
              1.433 * 0.005);                                                    // row 47
  EXPECT_NEAR(j["cost"]["cloud_per_gpu_hour_usd"].get<double>(), 12.29, 0.005);  // row 52
}

TEST(SimCli, TableOutputAndList) {
  const CliRun table = dcwalk("sim " + BASE);
  EXPECT_EQ(table.status, 0);
  EXPECT_NE(table.out.find("[memory]"), std::string::npos);
  EXPECT_NE(table.out.find("kv_cache_bytes_per_token"), std::string::npos);
  const CliRun list = dcwalk("sim --list");
  EXPECT_EQ(list.status, 0);
  EXPECT_NE(list.out.find("llama405b-training-16k-gb200"), std::string::npos);
}

TEST(SimCli, HfConfigImport) {
  const auto config = tempFile("llama8b.json", R"({"model_type": "llama", "num_hidden_layers": 32,
    "hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 8,
    "intermediate_size": 14336, "vocab_size": 128256, "tie_word_embeddings": false})");
  const auto j = simJson("--hf-config " + config.string());
  EXPECT_DOUBLE_EQ(j["params"].get<double>(), 8030261248.0);  // row 32
  EXPECT_DOUBLE_EQ(j["kv_cache_bytes_per_token_bf16"].get<double>(), 131072.0);
  std::filesystem::remove(config);
}

TEST(SimCli, BadInputExitsWith2AndNamesThePlace) {
  const CliRun unknown = dcwalk("sim " + BASE + "--set workload.batchz=3", true);
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.out.find("workload.batchz"), std::string::npos) << unknown.out;

  const CliRun type = dcwalk("sim " + BASE + "--set workload.batch=lots", true);
  EXPECT_EQ(type.status, 2);
  EXPECT_NE(type.out.find("workload.batch must be an integer"), std::string::npos) << type.out;

  const CliRun noScenario = dcwalk("sim --scenario no-such-scenario", true);
  EXPECT_EQ(noScenario.status, 2);
  EXPECT_NE(noScenario.out.find("no-such-scenario"), std::string::npos) << noScenario.out;

  const auto bad = tempFile("bad.json", "{\n  \"workload\": {\n    \"tp\": \"eight\"\n  }\n}\n");
  const CliRun badFile = dcwalk("sim --scenario " + bad.string(), true);
  EXPECT_EQ(badFile.status, 2);
  EXPECT_NE(badFile.out.find(bad.string() + ":3"), std::string::npos) << badFile.out;
  EXPECT_NE(badFile.out.find("/workload/tp"), std::string::npos) << badFile.out;
  std::filesystem::remove(bad);

  const CliRun model = dcwalk("sim " + BASE + "--set workload.model=gpt5", true);
  EXPECT_EQ(model.status, 2);
  EXPECT_NE(model.out.find("workload.model"), std::string::npos) << model.out;

  const CliRun flag = dcwalk("sim --bogus", true);
  EXPECT_EQ(flag.status, 2);
}

TEST(SimCli, PrintsTheFatTreeTheSupportedItPowerAndTheSweep) {
  const CliRun table = dcwalk("sim --scenario llama405b-training-16k-h100");
  EXPECT_EQ(table.status, 0);
  for (const char* part : {"[fabric]", "leaf_switches", "facility_supported_it_power_W",
                           "[collective_sweep]", "busbw (GB/s)", "algorithm/protocol"}) {
    EXPECT_NE(table.out.find(part), std::string::npos) << part;
  }
  const auto j = simJson("--scenario llama405b-training-16k-h100");
  EXPECT_DOUBLE_EQ(j["fabric"]["leaf_switches"].get<double>(), 512);  // known answer 15
  EXPECT_DOUBLE_EQ(j["power"]["facility_supported_it_power_W"].get<double>(), 100e6 / 1.2);
  EXPECT_TRUE(j["collective_sweep"].contains("8589934592B_bus_bandwidth_Bps"));
  EXPECT_TRUE(j["memory"]["fits"].get<bool>());  // the Llama 3 layout on 80 GB H100s
}

TEST(SimCli, EngineTakesAScenarioFileAndSet) {
  // An analytic scenario file through the time engine, with an analytic --set.
  const std::string file =
      std::string(DCWALK_SOURCE_DIR) + "/assets/scenarios/llama405b-training-16k-gb200.json";
  const CliRun run = dcwalk("sim --engine " + file + " --set workload.micro_batches=32 --until 1");
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("time_s"), std::string::npos);
  // A built-in engine scenario takes the engine's own --set paths.
  const CliRun builtin =
      dcwalk("sim --engine training_405b --set workload.training.micro_batches=32 --until 1");
  EXPECT_EQ(builtin.status, 0) << builtin.out;
  // Bad paths exit 2 naming them, either way.
  const CliRun bad = dcwalk("sim --engine " + file + " --set workload.bogus=1", true);
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.out.find("workload.bogus"), std::string::npos) << bad.out;
  const CliRun badEngine = dcwalk("sim --engine training_405b --set workload.training.tp=x", true);
  EXPECT_EQ(badEngine.status, 2);
  EXPECT_NE(badEngine.out.find("workload.training.tp"), std::string::npos) << badEngine.out;
}

TEST(SimCli, ValidateReportsEveryCase) {
  const CliRun report = dcwalk("sim --validate");
  EXPECT_EQ(report.status, 0);
  EXPECT_NE(report.out.find("cases within"), std::string::npos);
  // The rows of ../shared/reference/measured_calibration.csv and
  // measured_calibration_2026-12-02.csv.
  const std::vector<const char*> ids = {"T01", "T03", "T04", "T06", "I01", "I02", "I03",
                                        "I05", "I07", "I09", "C01", "C02", "C04", "P01",
                                        "P04", "C10", "C11", "C12", "I11", "P06"};
  for (const char* id : ids) {
    EXPECT_NE(report.out.find(std::string("| ") + id + " |"), std::string::npos) << id;
  }
  const CliRun json = dcwalk("sim --validate --json", false);
  auto parsed = nlohmann::json::parse(json.out, nullptr, false);
  ASSERT_FALSE(parsed.is_discarded()) << json.out;
  EXPECT_EQ(parsed.size(), ids.size());
}

// Issue 19's simulation reproducers through the command line: each exits 2 naming the field
// (5: a layout that wrapped, 6: a one-rank collective, 7: a contradiction, 9: extreme values),
// as do a duplicate key, a config.json naming its experts twice and an engine arrival rate that
// would have run for hours; nan and inf reach the domains through --set.
TEST(SimCli, ReliabilityReproducersExitWith2NamingTheField) {
  const std::string training = "sim --scenario llama405b-training-16k-h100 ";
  const std::pair<std::string, std::string> cases[] = {
      {training + "--set workload.dp=16777216", "workload.dp must be <= 1048576"},
      {training + "--set workload.micro_batches=2147483647", "workload.micro_batches"},
      {"sim " + BASE + "--set collective.ranks=1", "collective.ranks must be 0"},
      {"sim " + BASE + "--set workload.batching=static --set workload.batch=4096",
       "workload.batch: a static batch"},
      {training + "--set workload.training_tokens=1e308", "workload.training_tokens must be <="},
      {training + "--set facility.pue=1e308", "facility.pue must be <= 10"},
      {training + "--set workload.seq_len=nan", "workload.seq_len must be a finite number"},
      {training + "--set accelerator.tdp_W=inf", "accelerator.tdp_W must be a finite number"},
      {"sim --engine inference_70b --set workload.inference.arrival_rate_per_replica_per_s=1e12",
       "workload.inference.arrival_rate_per_replica_per_s"},
      {"sim --engine llama70b-inference-h100 --set workload.request_rate_per_s=1e6",
       "the time engine's workload.inference.arrival_rate_per_replica_per_s"},
  };
  for (const auto& [args, expected] : cases) {
    const CliRun run = dcwalk(args, true);
    EXPECT_EQ(run.status, 2) << args << "\n" << run.out;
    EXPECT_NE(run.out.find(expected), std::string::npos) << args << "\n" << run.out;
    EXPECT_EQ(run.out.find("internal error"), std::string::npos) << run.out;
  }
  const auto dup = tempFile("dup.json",
                            "{\n  \"workload\": {\"batch\": 4},\n"
                            "  \"workload\": {\"tp\": 8}\n}\n");
  const CliRun dupRun = dcwalk("sim --scenario " + dup.string(), true);
  EXPECT_EQ(dupRun.status, 2);
  EXPECT_NE(dupRun.out.find(dup.string() + ":3:3 (/workload): duplicate key \"workload\""),
            std::string::npos)
      << dupRun.out;
  std::filesystem::remove(dup);
  const auto experts = tempFile("experts.json", R"({"model_type": "mixtral",
    "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
    "intermediate_size": 14336, "vocab_size": 32000, "num_experts_per_tok": 2,
    "num_local_experts": 8, "num_experts": 0})");
  const CliRun expertsRun = dcwalk("sim --hf-config " + experts.string(), true);
  EXPECT_EQ(expertsRun.status, 2);
  EXPECT_NE(expertsRun.out.find("contradicts \"num_local_experts\" = 8"), std::string::npos)
      << expertsRun.out;
  std::filesystem::remove(experts);
}

// No built-in scenario prints a null in its JSON or an inf / nan in its table.
TEST(SimCli, EveryBuiltInPrintsOnlyFiniteFigures) {
  const CliRun list = dcwalk("sim --list", false);
  std::istringstream names(list.out);
  size_t checked = 0;
  for (std::string line; std::getline(names, line);) {
    if (line.find(' ') != std::string::npos) continue;  // engine scenarios: "(time simulation)"
    const CliRun json = dcwalk("sim --json --scenario " + line, false);
    EXPECT_EQ(json.status, 0) << line;
    EXPECT_EQ(json.out.find("null"), std::string::npos) << line;
    const CliRun table = dcwalk("sim --scenario " + line, false);
    std::istringstream words(table.out);
    for (std::string w; words >> w;) {
      EXPECT_TRUE(w != "inf" && w != "-inf" && w != "nan" && w != "-nan") << line << ": " << w;
    }
    ++checked;
  }
  EXPECT_GE(checked, 6u);
}
