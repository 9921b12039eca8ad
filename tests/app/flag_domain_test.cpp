// Every numeric command-line flag has a declared domain (app/cli/flag_domains.h), and is fed its
// domain's edges and beyond: refused by the parser (exit 2 in main), or accepted as a finite value
// inside the domain. Parsed in-process on the real command tree (nothing runs), so the whole sweep
// costs well under a second; a few refusals are run through the executable for the exit status
// and message.
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/cli/commands.h"
#include "app/cli/flag_domains.h"
#include "tests/common/cli.h"

namespace {

// The command tree exactly as main() builds it.
struct Tree {
  CLI::App cli{"dcwalk"};
  std::vector<app::Command> commands;
  Tree() {
    cli.require_subcommand(0, 1);
    commands = app::addCommands(cli);
  }
};

// Options whose value CLI11 converts to a number, with the path of their subcommand.
void numericOptions(const CLI::App& app, const std::string& path,
                    std::set<std::pair<std::string, std::string>>& out) {
  for (const CLI::Option* option : app.get_options()) {
    const std::string type = option->get_type_name();
    const bool numeric =
        type.rfind("INT", 0) == 0 || type.rfind("UINT", 0) == 0 || type.rfind("FLOAT", 0) == 0;
    if (numeric && option->nonpositional()) out.insert({path, "--" + option->get_lnames()[0]});
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    numericOptions(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), out);
}

// What the flag must accept, computed here: the text read whole as a number (plain digits as an
// exact integer, anything else as the nearest double), finite, inside [min, max] and whole when
// the domain says so.
bool shouldAccept(const std::string& text, const app::NumberDomain& d) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
  if (d.integer && text.find_first_not_of("-0123456789") == std::string::npos) {
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (errno == 0 && end == text.c_str() + text.size())
      return (long double)v >= d.min && (long double)v <= d.max;
  }
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(v)) return false;
  if (d.integer && v != std::floor(v)) return false;
  return v >= d.min && v <= d.max;
}

// Words a flag needs beside it to parse at all: trace wants a file, --soak wants --kiosk.
std::vector<std::string> companions(const std::string& command, const std::string& flag) {
  if (command == "trace") return {std::string(DCWALK_SOURCE_DIR) + "/README.md"};
  if (flag == "--soak") return {"--kiosk"};
  return {};
}

// Parses `dcwalk COMMAND FLAG VALUE ...`; true when accepted, with the value CLI11 converted.
bool parse(const std::string& command, const std::string& flag, const std::string& value,
           double& converted, std::string& error) {
  Tree tree;
  std::vector<std::string> args = {command, flag, value};
  for (const std::string& extra : companions(command, flag)) args.push_back(extra);
  try {
    tree.cli.parse(app::parseOrder(args));
  } catch (const CLI::ParseError& e) {
    error = e.what();
    return false;
  }
  converted = tree.cli.get_subcommand(command)->get_option(flag)->as<double>();
  return true;
}

std::string text(long double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17Lg", v);
  return buffer;
}

}  // namespace

TEST(FlagDomains, EveryNumericFlagOfEverySubcommandHasOneDomain) {
  Tree tree;
  std::set<std::pair<std::string, std::string>> options;
  numericOptions(tree.cli, "", options);
  std::set<std::pair<std::string, std::string>> declared;
  for (const app::FlagDomain& entry : app::flagDomains()) {
    EXPECT_TRUE(declared.insert({entry.command, entry.flag}).second)
        << entry.command << " " << entry.flag << " is declared twice";
    EXPECT_TRUE(options.count({entry.command, entry.flag}))
        << entry.command << " " << entry.flag << " is declared but no such numeric option exists";
    EXPECT_LT(entry.domain.min, entry.domain.max) << entry.flag;
    EXPECT_TRUE(std::isfinite(entry.domain.min) && std::isfinite(entry.domain.max)) << entry.flag;
  }
  for (const auto& [command, flag] : options)
    EXPECT_TRUE(declared.count({command, flag})) << command << " " << flag << " has no domain";
  EXPECT_GE(options.size(), 15u);  // tour 9, shot 1, sim 1, trace 1, bench 3
}

TEST(FlagDomains, EdgesAndBeyondAreRefusedOrGiveAValueInsideTheDomain) {
  int accepted = 0, refused = 0;
  for (const app::FlagDomain& entry : app::flagDomains()) {
    const app::NumberDomain& d = entry.domain;
    const long double lo = d.min, hi = d.max;
    const long double step = d.integer ? 1.0L : (hi - lo) * 1e-6L;
    std::vector<std::string> values = {"0",
                                       "-1",
                                       "1",
                                       "1e-300",
                                       "5e-324",
                                       "-5e-324",
                                       "1e300",
                                       "1e308",
                                       "1e400",
                                       "-1e400",
                                       "nan",
                                       "-nan",
                                       "NaN",
                                       "inf",
                                       "-inf",
                                       "infinity",
                                       "2147483648",
                                       "-2147483649",
                                       "4294967296",
                                       "4294967312",
                                       "9223372036854775807",
                                       "9223372036854775808",
                                       "18446744073709551616",
                                       "0.5",
                                       "1.5",
                                       "",
                                       " 1",
                                       "1 ",
                                       "abc",
                                       "1x",
                                       "0x10",
                                       "010",
                                       "1e3",
                                       text(lo),
                                       text(hi),
                                       text(lo - step),
                                       text(hi + step),
                                       text((lo + hi) / 2)};
    for (const std::string& value : values) {
      double converted = 0;
      std::string error;
      const bool ok = parse(entry.command, entry.flag, value, converted, error);
      const std::string what = std::string(entry.command) + " " + entry.flag + " '" + value + "'";
      if (!ok) {
        ++refused;
        EXPECT_NE(error.find(entry.flag), std::string::npos) << what << ": " << error;
        EXPECT_FALSE(shouldAccept(value, d)) << what << " was refused: " << error;
        continue;
      }
      ++accepted;
      EXPECT_TRUE(shouldAccept(value, d)) << what << " was accepted as " << converted;
      EXPECT_TRUE(std::isfinite(converted)) << what;
      EXPECT_GE(converted, d.min) << what;
      EXPECT_LE(converted, d.max) << what;
      if (d.integer) {
        EXPECT_EQ(converted, std::floor(converted)) << what;
      }
    }
  }
  EXPECT_GT(accepted, 0);
  EXPECT_GT(refused, accepted);
}

TEST(FlagDomains, WholeNumbersAreReadInDecimalWhateverTheirSpelling) {
  double converted = 0;
  std::string error;
  ASSERT_TRUE(parse("bench", "--frames", "010", converted, error)) << error;
  EXPECT_EQ(converted, 10.0);  // not octal 8
  ASSERT_TRUE(parse("bench", "--frames", "1e3", converted, error)) << error;
  EXPECT_EQ(converted, 1000.0);
  ASSERT_TRUE(parse("trace", "--step", "4611686018427387904", converted, error)) << error;
  EXPECT_FALSE(parse("trace", "--step", "4611686018427387905", converted, error));  // 2^62 + 1
}

// Issue 19, reproducer 4: nan passed every range check (CLI::Range compares false both ways).
TEST(FlagDomains, NanAndHugeValuesExitTwoNamingTheFlag) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"tour --ui-scale nan", "--ui-scale"},
      {"tour --kiosk --soak nan", "--soak"},
      {"tour --kiosk-idle nan", "--kiosk-idle"},
      {"tour --kiosk-warning inf", "--kiosk-warning"},
      {"tour --fps -inf", "--fps"},
      {"shot --time 1e9", "--time"},
      {"shot --time nan", "--time"},
      {"sim --engine training_405b --until 1e6", "--until"},
      {"bench --campus-scale 4294967297", "--campus-scale"},
  };
  for (const auto& [args, flag] : cases) {
    auto run = testcli::dcwalk(args);
    EXPECT_EQ(run.status, 2) << args << ": " << run.out;
    EXPECT_NE(run.out.find("dcwalk: error: " + flag + ":"), std::string::npos)
        << args << ": " << run.out;
  }
}
