// The command line as data: every subcommand, option and positional that `--help` shows, with
// its value placeholder, default and, where the program knows them, the values it accepts
// (stations, scenarios, overlays, tours, choices). `dcwalk --cli-reference` prints it as JSON;
// packaging/cli_docs.cmake turns that into the man page and the bash and zsh completions, so they
// list whatever the program has without anyone editing them.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "sim/result.h"

namespace app {

/// The reference of `cli` (its subcommands added): {name, description, options, positionals,
/// commands}, recursively. Fails, naming it, when a known value list belongs to an option the
/// command line no longer has (a renamed flag must not lose its completions silently) or comes
/// back empty.
sim::Result<nlohmann::ordered_json> cliReference(const CLI::App& cli);

/// Prints cliReference(cli) to stdout; the exit status (1, with the message, when it failed).
int printCliReference(const CLI::App& cli);

}  // namespace app
