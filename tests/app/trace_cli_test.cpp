// `dcwalk trace` end to end on the real traces: the JSON the issue names (per rank: rank,
// world_size, device, span/compute/communication/exposed/memcpy/idle seconds, collectives), the
// table, --step, and bad files and flags -> exit status 2 with a message naming them.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/common/cli.h"
#include "tests/common/paths.h"

namespace {

std::string trace(const std::string& name) {
  std::string quoted = (testpaths::sharedDir() / "testdata" / "traces" / name).string();
  quoted.insert(quoted.begin(), '\'');
  return quoted + "'";
}

nlohmann::json traceJson(const std::string& args) {
  const testcli::CliRun run = testcli::dcwalk("trace --json " + args, false);
  EXPECT_EQ(run.status, 0) << run.out;
  auto parsed = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_FALSE(parsed.is_discarded()) << run.out;
  return parsed.is_discarded() ? nlohmann::json::object() : parsed;
}

// Every number in `j` is finite and non-negative (no output is ever null, inf, nan or negative).
void expectSaneNumbers(const nlohmann::json& j, const std::string& where) {
  if (j.is_object() || j.is_array()) {
    for (const auto& [key, value] : j.items()) expectSaneNumbers(value, where + "/" + key);
  } else {
    EXPECT_FALSE(j.is_null()) << where;
    if (j.is_number()) {
      EXPECT_TRUE(std::isfinite(j.get<double>())) << where;
      EXPECT_GE(j.get<double>(), 0) << where;
    }
  }
}

}  // namespace

TEST(TraceCli, JsonHoldsTheIssuesFieldsPerRank) {
  const nlohmann::json out =
      traceJson(trace("sampled_rank-0.json.gz") + " " + trace("sampled_rank-1.json.gz"));
  expectSaneNumbers(out, "");
  ASSERT_EQ(out["ranks"].size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const nlohmann::json& r = out["ranks"][i];
    EXPECT_EQ(r["rank"], i);
    EXPECT_EQ(r["world_size"], 128);
    EXPECT_EQ(r["device"], "unknown");
    for (const char* key : {"span_s", "compute_s", "communication_s", "exposed_communication_s",
                            "memcpy_s", "idle_s", "collectives"}) {
      EXPECT_TRUE(r.contains(key)) << key;
    }
    // Unions: each at most the span; exposed communication at most communication.
    const double span = r["span_s"];
    EXPECT_GT(span, 0);
    for (const char* key : {"compute_s", "communication_s", "memcpy_s", "idle_s"})
      EXPECT_LE(r[key].get<double>(), span) << key;
    EXPECT_LE(r["exposed_communication_s"].get<double>(), r["communication_s"].get<double>());
    // HTA's exclusive split adds up to its kernel time, the span.
    const nlohmann::json& h = r["hta_temporal_breakdown"];
    EXPECT_NEAR(
        h["idle_s"].get<double>() + h["compute_s"].get<double>() + h["non_compute_s"].get<double>(),
        span, 1e-9);
    std::set<std::string> kinds;
    for (const nlohmann::json& c : r["collectives"]) kinds.insert(c["kind"]);
    EXPECT_EQ(kinds, (std::set<std::string>{"allgather", "allreduce", "alltoall"}));
    ASSERT_EQ(r["steps"].size(), 2u);
    EXPECT_EQ(r["steps"][0]["step"], 551);
    EXPECT_EQ(r["steps"][1]["step"], 552);
  }
}

TEST(TraceCli, StepSelectsOneProfilerStep) {
  const nlohmann::json all = traceJson(trace("v100_single_rank.pt.trace.json.gz"));
  const nlohmann::json one = traceJson("--step 103 " + trace("v100_single_rank.pt.trace.json.gz"));
  EXPECT_EQ(one["step"], 103);
  ASSERT_EQ(one["ranks"].size(), 1u);
  const nlohmann::json& step = all["ranks"][0]["steps"][2];
  ASSERT_EQ(step["step"], 103);
  for (const char* key : {"gpu_events", "span_s", "compute_s", "idle_s"}) {
    EXPECT_EQ(one["ranks"][0][key], step[key]) << key;
  }
  EXPECT_LT(one["ranks"][0]["span_s"].get<double>(), all["ranks"][0]["span_s"].get<double>());
  EXPECT_EQ(one["ranks"][0]["device"], "Tesla V100-SXM2-32GB");
}

TEST(TraceCli, TableShowsBothBreakdowns) {
  const testcli::CliRun run = testcli::dcwalk("trace " + trace("a100_2rank_allreduce.json.gz"));
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("overlapping unions"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("HTA temporal breakdown (exclusive"), std::string::npos);
  EXPECT_NE(run.out.find("allreduce RING/LL"), std::string::npos);
  EXPECT_NE(run.out.find("NVIDIA A100-PG509-200"), std::string::npos);
}

TEST(TraceCli, BadFilesAndFlagsExitTwoNamingThem) {
  const auto dir = testpaths::freshDir("trace-cli");
  std::filesystem::create_directories(dir);
  const auto truncated = dir / "truncated.json";
  std::ofstream(truncated) << R"({"traceEvents": [{"ph": "X", "cat": "kernel", "ts": 1, )";
  testcli::CliRun run = testcli::dcwalk("trace '" + truncated.string() + "'");
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_NE(run.out.find(truncated.string()), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("truncated"), std::string::npos) << run.out;

  run = testcli::dcwalk("trace /nonexistent/rank0.json");
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_NE(run.out.find("/nonexistent/rank0.json: no such file"), std::string::npos) << run.out;

  // Only regular files are read: a FIFO with no writer would block the open forever.
  const std::string fifo = (dir / "rank0.fifo").string();
  std::filesystem::remove(fifo);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  run = testcli::dcwalk("trace '" + fifo + "'", true, "timeout 60");
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_NE(run.out.find(fifo + ": is not a regular file (a FIFO)"), std::string::npos) << run.out;
  run = testcli::dcwalk("trace '" + dir.string() + "'");
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_NE(run.out.find(dir.string() + ": is a directory"), std::string::npos) << run.out;
  run = testcli::dcwalk("trace /dev/zero", true, "timeout 60");
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_NE(run.out.find("/dev/zero: is not a regular file (a device)"), std::string::npos)
      << run.out;

  run = testcli::dcwalk("trace --step 999 " + trace("mi250_minitoy_train_kineto.json.gz"));
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_NE(run.out.find("no ProfilerStep#999 (its steps: 1, 2)"), std::string::npos) << run.out;

  // Files of one job only, as the replay needs: no rank twice, one world size (sampled_rank-* are
  // ranks 0 and 1 of 128; the a100 trace's ranks are of a world of 2).
  run = testcli::dcwalk("trace " + trace("sampled_rank-0.json.gz") + " " +
                        trace("sampled_rank-0.json.gz"));
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_NE(run.out.find("sampled_rank-0.json.gz: rank 0 is also"), std::string::npos) << run.out;
  run = testcli::dcwalk("trace " + trace("sampled_rank-1.json.gz") + " " +
                        trace("a100_2rank_allreduce.json.gz"));
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_NE(run.out.find("differs from"), std::string::npos) << run.out;

  run = testcli::dcwalk("trace --step -3 " + trace("mi250_minitoy_train_kineto.json.gz"));
  EXPECT_EQ(run.status, 2) << run.out;
  run = testcli::dcwalk("trace");
  EXPECT_EQ(run.status, 2) << run.out;
  std::filesystem::remove_all(dir);
}
