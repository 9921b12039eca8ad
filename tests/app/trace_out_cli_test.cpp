// `--trace-out DIR` end to end (app/cli/trace_out.h): `dcwalk sim --engine S --trace-out` writes a
// Kineto trace per rank that `dcwalk trace` reads back; `dcwalk trace REAL --scenario S
// --trace-out` writes the model's step for the real ranks on their clock; bad targets (a file,
// an unwritable place, a missing parent, an existing trace, absurd rank sets) exit 2 with a
// message naming the flag, and nothing is written or created.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/common/cli.h"
#include "tests/common/paths.h"

namespace fs = std::filesystem;

namespace {

fs::path freshDir(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("dcwalk-trace-out-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

size_t filesIn(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return 0;
  return size_t(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

std::string quoted(const fs::path& p) {
  std::string text = p.string();  // built in place: GCC 12's -Wrestrict misfires on "'" + s
  text.insert(text.begin(), '\'');
  return text + "'";
}

nlohmann::json traceJson(const std::string& files) {
  const testcli::CliRun run = testcli::dcwalk("trace --json " + files, false);
  EXPECT_EQ(run.status, 0) << run.out;
  auto parsed = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_FALSE(parsed.is_discarded()) << run.out;
  return parsed.is_discarded() ? nlohmann::json::object() : parsed;
}

}  // namespace

TEST(TraceOutCli, SimWritesGzippedRanksThatTraceReadsBack) {
  const fs::path dir = freshDir("sim");
  const testcli::CliRun run = testcli::dcwalk("sim --engine training_405b --trace-out " +
                                              quoted(dir) + " --trace-ranks 0,8 --gzip");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("wrote"), std::string::npos) << run.out;
  ASSERT_EQ(filesIn(dir), 2u);
  const nlohmann::json out = traceJson(quoted(dir / "dcwalk_rank0.pt.trace.json.gz") + " " +
                                       quoted(dir / "dcwalk_rank8.pt.trace.json.gz"));
  ASSERT_EQ(out["ranks"].size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const nlohmann::json& r = out["ranks"][i];
    EXPECT_EQ(r["rank"], i * 8);
    EXPECT_EQ(r["world_size"], 16384);
    EXPECT_EQ(r["rank_source"], "distributedInfo");
    EXPECT_GT(r["compute_s"].get<double>(), 0);
    EXPECT_GT(r["exposed_communication_s"].get<double>(), 0);
    EXPECT_GT(r["idle_s"].get<double>(), 0);  // the pipeline bubble
    ASSERT_EQ(r["steps"].size(), 1u);
    EXPECT_EQ(r["steps"][0]["step"], 0);
  }
  fs::remove_all(dir);
}

TEST(TraceOutCli, ServingWritesIterationsAsSteps) {
  const fs::path dir = freshDir("serving");
  const testcli::CliRun run =
      testcli::dcwalk("sim --engine inference_70b --until 1.5 --trace-out " + quoted(dir));
  ASSERT_EQ(run.status, 0) << run.out;
  ASSERT_EQ(filesIn(dir), 1u);  // replica 0; no replica is slower
  const nlohmann::json out = traceJson(quoted(dir / "dcwalk_rank0.pt.trace.json"));
  const nlohmann::json& r = out["ranks"][0];
  EXPECT_EQ(r["world_size"], 144 * 8);
  EXPECT_GT(r["steps"].size(), 10u);  // prefill and decode iterations
  EXPECT_GT(r["compute_attention_s"].get<double>(), 0);
  fs::remove_all(dir);
}

TEST(TraceOutCli, TraceWritesTheModelForTheRealRanksOnTheirClock) {
  const fs::path dir = freshDir("real");
  const fs::path traces = testpaths::sharedDir() / "testdata" / "traces";
  const std::string real =
      quoted(traces / "sampled_rank-0.json.gz") + " " + quoted(traces / "sampled_rank-1.json.gz");
  const testcli::CliRun run =
      testcli::dcwalk("trace " + real + " --scenario training_405b --trace-out " + quoted(dir));
  ASSERT_EQ(run.status, 0) << run.out;
  ASSERT_EQ(filesIn(dir), 2u);
  const nlohmann::json measured = traceJson(real);
  const nlohmann::json modelled = traceJson(quoted(dir / "dcwalk_rank0.pt.trace.json") + " " +
                                            quoted(dir / "dcwalk_rank1.pt.trace.json"));
  ASSERT_EQ(modelled["ranks"].size(), 2u);
  for (int i = 0; i < 2; ++i) EXPECT_EQ(modelled["ranks"][i]["rank"], measured["ranks"][i]["rank"]);
  // On the real rank's clock: the modelled file starts at the real one's first GPU event.
  std::ifstream in(dir / "dcwalk_rank0.pt.trace.json");
  const auto json = nlohmann::json::parse(in);
  double first = 1e300;
  for (const auto& ev : json["traceEvents"])
    if (ev.value("cat", "") == "kernel") first = std::min(first, ev["ts"].get<double>());
  EXPECT_GT(first, 1e9);  // microseconds of the real trace's clock, not 0
  fs::remove_all(dir);
}

TEST(TraceOutCli, BadTargetsAreRefusedAndNothingIsWritten) {
  const fs::path base = freshDir("bad");
  fs::create_directories(base);
  auto refused = [&](const std::string& args, const std::string& says) {
    const testcli::CliRun run = testcli::dcwalk("sim --engine training_405b " + args);
    EXPECT_EQ(run.status, 2) << args << "\n" << run.out;
    EXPECT_NE(run.out.find(says), std::string::npos) << args << "\n" << run.out;
  };
  // An existing file, untouched.
  const fs::path file = base / "a-file";
  std::ofstream(file) << "keep";
  refused("--trace-out " + quoted(file), "is a file");
  std::ifstream in(file);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "keep");
  // No parent, and a place nobody can create a folder in (/proc, even as root).
  refused("--trace-out " + quoted(base / "no" / "such"), "does not exist");
  EXPECT_FALSE(fs::exists(base / "no"));
  refused("--trace-out /proc/dcwalk-trace-out-test", "--trace-out");
  EXPECT_FALSE(fs::exists("/proc/dcwalk-trace-out-test"));
  // Absurd rank sets: the folder is not even created.
  const fs::path dir = base / "out";
  for (const auto& [ranks, says] :
       std::vector<std::pair<std::string, std::string>>{{"0-100000", "more than 64"},
                                                        {"99999999", "not in the job"},
                                                        {"3,3", "twice"},
                                                        {"x", "not a rank"},
                                                        {"-4", "not a rank"},
                                                        {"2-1", "not a rank"}}) {
    refused("--trace-out " + quoted(dir) + " --trace-ranks '" + ranks + "'", says);
    EXPECT_FALSE(fs::exists(dir)) << ranks;
  }
  // An existing trace in the folder: left as it was, and no other file written beside it.
  fs::create_directories(dir);
  std::ofstream(dir / "dcwalk_rank8.pt.trace.json") << "mine";
  refused("--trace-out " + quoted(dir) + " --trace-ranks 0,8", "exists already");
  EXPECT_EQ(filesIn(dir), 1u);
  std::ifstream kept(dir / "dcwalk_rank8.pt.trace.json");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(kept), {}), "mine");
  // Found only when the default ranks are known (stage 1's first rank): the set is not committed.
  const fs::path other = base / "other";
  fs::create_directories(other);
  std::ofstream(other / "dcwalk_rank1024.pt.trace.json") << "mine";
  refused("--trace-out " + quoted(other), "dcwalk_rank1024.pt.trace.json");
  EXPECT_EQ(filesIn(other), 1u);
  // The trace flags need --trace-out.
  const testcli::CliRun gzip = testcli::dcwalk("sim --engine training_405b --gzip");
  EXPECT_EQ(gzip.status, 2) << gzip.out;
  fs::remove_all(base);
}
