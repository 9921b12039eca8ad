// The fuzzed command line (see entry_points.h): the real command tree of `dcwalk`
// (app::addCommands), parsed as main() parses it, never run. Apart because it links the whole
// app; tests/app/fuzz_entry_test.cpp replays its seeds and regressions.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "app/cli/flag_domains.h"
#include "app/cli/options.h"

namespace fuzzentry {

/// The input split at newlines into arguments (after the program name).
inline std::vector<std::string> cliArguments(const uint8_t* data, size_t size) {
  std::vector<std::string> args;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    args.emplace_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return args;
}

/// "" when an accepted parse holds only values inside their declared domains.
inline std::string checkAcceptedCommand(const app::Command& command) {
  const std::string name = command.sub->get_name();
  for (const app::FlagDomain& entry : app::flagDomains()) {
    if (name != entry.command) continue;
    const CLI::Option* option = command.sub->get_option_no_throw(entry.flag);
    if (!option) return std::string("no option ") + entry.flag + " on " + name;
    if (option->count() == 0) continue;
    const double value = option->as<double>();
    const app::NumberDomain& d = entry.domain;
    if (!std::isfinite(value) || value < d.min || value > d.max ||
        (d.integer && value != std::floor(value)))
      return name + " " + entry.flag + " accepted " + option->as<std::string>() +
             ", outside its domain";
  }
  if (const CLI::Option* size = command.sub->get_option_no_throw("--size");
      size && size->count() > 0) {
    uint32_t width = 0, height = 0;
    if (!app::parseSize(size->as<std::string>(), width, height))
      return name + " --size accepted '" + size->as<std::string>() + "'";
  }
  return "";
}

/// Parses the input as `dcwalk ARGS...`. CLI11 may refuse anything, with a message; it may not
/// throw anything else, and what it accepts must lie inside the declared domains.
inline std::string cli(const uint8_t* data, size_t size) {
  CLI::App tree{"dcwalk"};
  tree.name("dcwalk");
  tree.require_subcommand(0, 1);
  const std::vector<app::Command> commands = app::addCommands(tree);
  try {
    tree.parse(app::parseOrder(cliArguments(data, size)));
  } catch (const CLI::ParseError& e) {  // refusals, and --help (CLI::Success)
    if (std::string(e.what()).empty()) return "refused with an empty message";
    return "";
  } catch (const std::exception& e) {
    return std::string("parsing threw ") + e.what();
  }
  for (const app::Command& c : commands) {
    if (!c.sub->parsed()) continue;
    if (std::string problem = checkAcceptedCommand(c); !problem.empty()) return problem;
  }
  return "";
}

}  // namespace fuzzentry
