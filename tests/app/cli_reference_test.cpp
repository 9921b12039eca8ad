// `dcwalk --cli-reference`, the command line as data for the man page and the completions: it
// carries the values the program knows, and refuses to lose one when an option is renamed.
#include <gtest/gtest.h>

#include "app/cli/cli_reference.h"
#include "app/cli/commands.h"
#include "app/modes/bench_paths.h"
#include "sim/scenario.h"

namespace {

// The reference's entry for `option` of subcommand `command`, or null.
const nlohmann::ordered_json* option(const nlohmann::ordered_json& reference,
                                     const std::string& command, const std::string& name) {
  for (const auto& sub : reference["commands"]) {
    if (sub["name"] != command) continue;
    for (const auto& o : sub["options"]) {
      for (const auto& n : o["names"])
        if (n == name) return &o;
    }
  }
  return nullptr;
}

}  // namespace

TEST(CliReference, CarriesTheValuesTheProgramKnows) {
  CLI::App cli{"dcwalk"};
  app::addTourCommand(cli);
  app::addShotCommand(cli);
  app::addSimCommand(cli);
  app::addBenchCommand(cli);
  auto reference = app::cliReference(cli);
  ASSERT_TRUE(reference) << reference.error();
  const auto* scenario = option(*reference, "sim", "--scenario");
  ASSERT_NE(scenario, nullptr);
  EXPECT_EQ((*scenario)["value"]["values"].get<std::vector<std::string>>(),
            sim::builtinScenarioNames());
  EXPECT_TRUE((*scenario)["value"]["files"].get<bool>());  // a scenario file of one's own too
  // The choices of a checked option come from its check: --quality auto|high|low.
  const auto* quality = option(*reference, "shot", "--quality");
  ASSERT_NE(quality, nullptr);
  EXPECT_EQ((*quality)["value"]["values"], nlohmann::json({"auto", "high", "low"}));
  // A flag takes no value; a number is no file.
  EXPECT_FALSE(option(*reference, "shot", "--traffic")->contains("value"));
  EXPECT_FALSE((*option(*reference, "shot", "--time"))["value"]["files"].get<bool>());
  EXPECT_TRUE((*option(*reference, "shot", "--out"))["value"]["files"].get<bool>());
}

// `bench --path` takes every path the bench flies, and its help names each of them (catch_up and
// swap were once missing from the help the man page is made of).
TEST(CliReference, BenchPathsHelpNamesEveryPath) {
  CLI::App cli{"dcwalk"};
  app::addBenchCommand(cli);
  const CLI::Option* path = cli.get_subcommand("bench")->get_option("--path");
  ASSERT_NE(path, nullptr);
  const std::vector<std::string> expected = {"stations", "campus", "overlays",
                                             "catch_up", "swap",   "tour"};
  EXPECT_EQ(app::benchPathNames(), expected);
  for (const std::string& name : expected) {
    EXPECT_NE(path->get_description().find(name), std::string::npos)
        << name << " not in: " << path->get_description();
  }
}

TEST(CliReference, FailsWhenAnOptionWithKnownValuesIsGone) {
  CLI::App cli{"dcwalk"};
  app::addTourCommand(cli);
  app::addSimCommand(cli);
  app::addBenchCommand(cli);
  cli.add_subcommand("shot", "a shot without --station")->add_option("--overlay");
  auto reference = app::cliReference(cli);
  ASSERT_FALSE(reference);
  EXPECT_NE(reference.error().find("shot --station"), std::string::npos) << reference.error();
}
