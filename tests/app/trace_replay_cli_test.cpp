// `--trace` on shot (and its refusals), and `dcwalk trace --scenario`: measured vs modelled with
// the gap named. The shares are checked against the trace's own JSON breakdown (computed from the
// raw events in tests/sim/trace_real_test.cpp) and the model's against the evaluation keys.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/common/cli.h"
#include "tests/common/paths.h"

namespace {

std::string trace(const std::string& name) {
  return "'" + (testpaths::sharedDir() / "testdata" / "traces" / name).string() + "'";
}

std::string sampled() {
  return trace("sampled_rank-0.json.gz") + " " + trace("sampled_rank-1.json.gz");
}

std::string tempPng(const char* name) {
  static const testpaths::TempDir folder("replay-png");
  return (folder.path / name).string();
}

}  // namespace

TEST(TraceReplayCli, ShotReplaysTwoRanksAndMarksTheRestNoData) {
  const std::string out = tempPng("shot.png");
  const testcli::CliRun run =
      testcli::dcwalk("shot --trace " + sampled() +
                      " --station rack --time 1.05 --size 320x180 --out '" + out + "'");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("t = 1.050 s of 1.231 s"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("2 of 128 ranks traced"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("no data"), std::string::npos) << run.out;  // a label of an untraced GPU
  EXPECT_NE(run.out.find("names no device"), std::string::npos) << run.out;  // sampled_rank-*
  EXPECT_NE(run.out.find("measured vs modelled"), std::string::npos) << run.out;
  EXPECT_TRUE(std::filesystem::exists(out));
  std::filesystem::remove(out);
}

TEST(TraceReplayCli, ShotRefusesBadTraceFlagsWithExitTwo) {
  const std::string out = tempPng("bad.png");
  struct Case {
    std::string args, says;
  };
  const auto dir = testpaths::freshDir("replay-cli");
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "map.txt") << "0 5\n1 5\n";
  std::ofstream(dir / "bad.json") << "{\"traceEvents\": [ {\"ph\": \"X\", ";
  // A FIFO with no writer: opening it to read would wait for one forever.
  const std::string fifo = (dir / "fifo").string();
  std::filesystem::remove(fifo);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const Case cases[] = {
      {"--trace " + sampled() + " --rank-layout tp=3,dp=3", "--rank-layout: tp x pp x dp = 9"},
      {"--trace " + sampled() + " --rank-layout ep=2", "--rank-layout: 'ep=2'"},
      {"--trace " + sampled() + " --time 99", "--time 99: outside the trace"},
      {"--trace " + sampled() + " --step 7", "--step 7: no traced rank has ProfilerStep#7"},
      {"--trace " + sampled() + " --rank-map '" + (dir / "map.txt").string() + "'",
       "map.txt:2: GPU 5 already holds rank 0"},
      {"--trace '" + (dir / "bad.json").string() + "'", "bad.json"},
      {"--step 3", "--step needs --trace"},
      {"--trace " + trace("sampled_rank-0.json.gz") + " " + trace("sampled_rank-0.json.gz"),
       "rank 0 is also"},
      {"--trace '" + fifo + "'", "--trace: " + fifo + ": is not a regular file (a FIFO)"},
      {"--trace " + sampled() + " --rank-map '" + fifo + "'",
       "--rank-map: " + fifo + ": is not a regular file (a FIFO)"},
      {"--trace " + sampled() + " --rank-map '" + dir.string() + "'",
       "--rank-map: " + dir.string() + ": is a directory"},
  };
  for (const Case& c : cases) {
    const testcli::CliRun run = testcli::dcwalk(
        "shot --station rack --size 64x36 --out '" + out + "' " + c.args, true, "timeout 120");
    EXPECT_EQ(run.status, 2) << c.args << "\n" << run.out;
    EXPECT_NE(run.out.find(c.says), std::string::npos) << c.args << "\n" << run.out;
  }
  std::filesystem::remove_all(dir);
}

TEST(TraceReplayCli, TraceScenarioPutsTheModelBesideTheMeasuredStep) {
  const testcli::CliRun run =
      testcli::dcwalk("trace --json --scenario training_405b " + sampled(), false);
  ASSERT_EQ(run.status, 0) << run.out;
  const auto j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j["ranks"].size(), 2u);
  for (const auto& r : j["ranks"]) {
    const auto& m = r["measured_vs_modelled"];
    // The measured shares are the breakdown's own figures over its span.
    const double span = r["span_s"];
    EXPECT_NEAR(m["measured"]["compute"].get<double>(), r["compute_s"].get<double>() / span, 1e-9);
    EXPECT_NEAR(m["measured"]["exposed_communication"].get<double>(),
                r["exposed_communication_s"].get<double>() / span, 1e-9);
    EXPECT_NEAR(m["measured"]["idle"].get<double>(), r["idle_s"].get<double>() / span, 1e-9);
    for (const char* side : {"measured", "modelled"}) {
      const auto& s = m[side];
      EXPECT_NEAR(s["compute"].get<double>() + s["exposed_communication"].get<double>() +
                      s["idle"].get<double>() + s["other"].get<double>(),
                  1.0, 1e-9)
          << side;
    }
    // The gap named is the largest of the three, in the words and numbers of the shares.
    const auto& g = m["gaps"][0];
    char expected[160];
    std::snprintf(expected, sizeof expected, "%s %.1f %% measured vs %.1f %% modelled",
                  g["quantity"].get<std::string>().c_str(), 100 * g["measured"].get<double>(),
                  100 * g["modelled"].get<double>());
    EXPECT_EQ(m["gap"], expected);
    for (const auto& other : m["gaps"]) {
      EXPECT_GE(std::abs(g["measured"].get<double>() - g["modelled"].get<double>()),
                std::abs(other["measured"].get<double>() - other["modelled"].get<double>()));
    }
  }
  const testcli::CliRun table = testcli::dcwalk("trace --scenario training_405b " + sampled());
  EXPECT_EQ(table.status, 0);
  EXPECT_NE(table.out.find("measured vs modelled (training_405b"), std::string::npos);
  EXPECT_NE(table.out.find("gap: "), std::string::npos);
  const testcli::CliRun bad = testcli::dcwalk("trace --scenario nope " + sampled());
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.out.find("--scenario"), std::string::npos) << bad.out;
}
