// Issue 40's weaker input cases through the command line: options that one mode would ignore are
// refused naming both flags, and an unknown bench scenario is refused (it was ignored: the bench
// ran training_405b whatever it was given).
#include <gtest/gtest.h>

#include <string>

#include "tests/common/cli.h"

namespace {

bool says(const testcli::CliRun& run, const std::string& words) {
  return run.out.find(words) != std::string::npos;
}

}  // namespace

TEST(InputRefusalsCli, OptionsAModeWouldIgnoreAreRefusedNamingBoth) {
  const std::pair<std::string, std::string> cases[] = {
      {"sim --engine training_405b --json --until 0.1", "--json excludes --engine"},
      {"sim --list --scenario llama70b-inference-h100", "--scenario excludes --list"},
      {"sim --validate --set workload.tp=4", "--set excludes --validate"},
  };
  for (const auto& [args, expected] : cases) {
    const testcli::CliRun run = testcli::dcwalk(args);
    EXPECT_EQ(run.status, 2) << args << "\n" << run.out;
    EXPECT_TRUE(says(run, expected)) << args << "\n" << run.out;
  }
}

TEST(InputRefusalsCli, BenchRefusesAnUnknownScenario) {
  const testcli::CliRun run = testcli::dcwalk(
      "bench --scenario nope --frames 2 --warmup 0 --size 64x36", true, "timeout 300");
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_TRUE(says(run, "nope: no such scenario")) << run.out;
}
