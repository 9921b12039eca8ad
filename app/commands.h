// The subcommands of the one executable. Each lives in its own file (cmd_<name>.cpp), adds its
// CLI11 subcommand to the app, and returns what runs it once the command line has been parsed.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace app {

/// Exit statuses: 0 success, 1 a runtime failure, 2 bad input (flags, files, scenarios).
inline constexpr int EXIT_OK = 0;
inline constexpr int EXIT_FAILURE_RUNTIME = 1;
inline constexpr int EXIT_BAD_INPUT = 2;

using CommandRunner = std::function<int()>;

struct Command {
  CLI::App* sub = nullptr;
  CommandRunner run;
};

}  // namespace app
