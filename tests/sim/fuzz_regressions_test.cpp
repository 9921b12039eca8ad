// Replays every input under fuzz/regressions/<target>/ (json, catalog, scenario, hf_config, trace)
// through the fuzzers' own entry points (fuzz/entry_points.h): once a fuzzing finding is fixed,
// its input lives there and must stay harmless. Inputs still awaiting a fix wait in
// fuzz/regressions/pending/, which is not replayed.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "fuzz/entry_points.h"
#include "fuzz/trace_entry_point.h"
#include "tests/common/paths.h"

namespace fs = std::filesystem;

namespace {

std::vector<uint8_t> bytesOf(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

/// Runs `entry` on every file in fuzz/regressions/<target>/; returns how many it replayed.
int replay(const std::string& target,
           const std::function<std::string(const uint8_t*, size_t)>& entry) {
  const fs::path dir = testpaths::sourceDir() / "fuzz" / "regressions" / target;
  int replayed = 0;
  EXPECT_TRUE(fs::is_directory(dir)) << dir << " is missing: the replay would pass on nothing";
  if (!fs::is_directory(dir)) return 0;
  for (const auto& file : fs::directory_iterator(dir)) {
    if (!file.is_regular_file()) continue;
    std::vector<uint8_t> bytes = bytesOf(file.path());
    EXPECT_EQ(entry(bytes.data(), bytes.size()), "") << file.path();
    ++replayed;
  }
  return replayed;
}

std::string text(const std::vector<uint8_t>& bytes) {
  return std::string(bytes.begin(), bytes.end());
}

const uint8_t* data(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

}  // namespace

TEST(FuzzRegressions, ReplayJson) {
  EXPECT_GE(replay("json", fuzzentry::json), 1);
}

TEST(FuzzRegressions, ReplayCatalog) {
  EXPECT_GE(replay("catalog", fuzzentry::catalog), 3);
}

TEST(FuzzRegressions, ReplayScenario) {
  EXPECT_GE(replay("scenario", fuzzentry::scenario), 6);
}

TEST(FuzzRegressions, ReplayHfConfig) {
  EXPECT_GE(replay("hf_config", fuzzentry::hfConfig), 1);
}

TEST(FuzzRegressions, ReplayTrace) {
  EXPECT_GE(replay("trace", fuzzentry::trace), 1);
}

// The trace seeds are accepted whole and refused when cut, both within the contract.
TEST(FuzzRegressions, TraceEntryPointAcceptsSeedsAndTruncations) {
  const fs::path seeds = testpaths::sourceDir() / "fuzz" / "seeds" / "trace";
  int seen = 0;
  for (const auto& file : fs::directory_iterator(seeds)) {
    const std::string seed = text(bytesOf(file.path()));
    EXPECT_EQ(fuzzentry::trace(data(seed), seed.size()), "") << file.path();
    const std::string cut = seed.substr(0, seed.size() / 2);
    EXPECT_EQ(fuzzentry::trace(data(cut), cut.size()), "") << file.path();
    ++seen;
  }
  EXPECT_GE(seen, 3);
}

// The entry points must tell a contract break from a proper refusal, or the replays prove nothing.
TEST(FuzzRegressions, EntryPointsAcceptGoodInputAndNamedRefusals) {
  const fs::path seeds = testpaths::sourceDir() / "fuzz" / "seeds";
  const std::string llama = text(bytesOf(seeds / "hf_config" / "llama3_1_8b.json"));
  ASSERT_FALSE(llama.empty());
  EXPECT_EQ(fuzzentry::hfConfig(data(llama), llama.size()), "");
  const std::string truncated = llama.substr(0, llama.size() / 2);
  EXPECT_EQ(fuzzentry::hfConfig(data(truncated), truncated.size()), "");
  EXPECT_EQ(fuzzentry::json(data(truncated), truncated.size()), "");

  EXPECT_NE(fuzzentry::checkNamed("", "config.json"), "");
  EXPECT_NE(fuzzentry::checkNamed("parse error at line 1", "config.json"), "");
  EXPECT_EQ(fuzzentry::checkNamed("config.json:1:2: parse error", "config.json"), "");

  const std::string scenarioWithOverrides =
      text(bytesOf(seeds / "scenario" / "overrides_on_builtin.txt"));
  EXPECT_EQ(fuzzentry::scenario(data(scenarioWithOverrides), scenarioWithOverrides.size()), "");
}

TEST(FuzzRegressions, SplitPartsSeparatesCatalogFiles) {
  auto parts = fuzzentry::splitParts("{\"a\": 1}\n%%\n{\"b\": 2}\n%%\n");
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0], "{\"a\": 1}");
  EXPECT_EQ(parts[1], "{\"b\": 2}");
  EXPECT_EQ(parts[2], "");
}
