// The subcommands of the one executable. Each lives in its own file (cmd_<name>.cpp), adds its
// CLI11 subcommand to the app, and returns what runs it once the command line has been parsed.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/session/exit_status.h"

namespace app {

using CommandRunner = std::function<int()>;

struct Command {
  CLI::App* sub = nullptr;
  CommandRunner run;
};

/// `dcwalk sim`: evaluate a scenario with the analytic calculators (app/cli/cmd_sim.cpp).
Command addSimCommand(CLI::App& cli);
/// `dcwalk trace FILE...`: where the GPU time of Kineto traces went (app/cli/cmd_trace.cpp).
Command addTraceCommand(CLI::App& cli);
/// `dcwalk asset check FILE`: whether a glTF file loads, or why not (app/cli/cmd_asset.cpp).
Command addAssetCommand(CLI::App& cli);

/// `dcwalk shot`: one station rendered headless to a PNG (app/cli/cmd_shot.cpp).
Command addShotCommand(CLI::App& cli);
/// `dcwalk stations`: every station with its scale and description (app/cli/cmd_stations.cpp).
Command addStationsCommand(CLI::App& cli);
/// `dcwalk bench`: fixed paths, frame-time percentiles and budgets (app/cli/cmd_bench.cpp).
Command addBenchCommand(CLI::App& cli);
/// `dcwalk settings [set KEY VALUE | reset]`: the user's settings file (app/cli/cmd_settings.cpp).
Command addSettingsCommand(CLI::App& cli);
/// `dcwalk tour` (the default): the window, or the tour rendered headless (app/cli/cmd_tour.cpp).
Command addTourCommand(CLI::App& cli);

/// Every subcommand above, added to `cli` in the order `dcwalk --help` lists them.
std::vector<Command> addCommands(CLI::App& cli);

/// Flushes standard output (std::cout and stdout): `status` when every byte got out; otherwise a
/// message naming standard output and the reason (errno) on stderr, and EXIT_FAILURE_RUNTIME
/// (or `status` when that is already a failure).
int finishStandardOutput(int status);

/// The arguments (without the program name) as CLI11 parses them: `tour`, the default command,
/// put first when they start with an option that is not top-level help or --version
/// (`dcwalk --size 800x600` means `dcwalk tour --size 800x600`), then reversed (CLI11 takes them
/// last-first).
std::vector<std::string> parseOrder(std::vector<std::string> args);

}  // namespace app
