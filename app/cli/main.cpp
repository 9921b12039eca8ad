// dcwalk: one executable, git-style subcommands (tour is the default).
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "app/cli/cli_reference.h"
#include "app/cli/commands.h"

namespace {

int runCommandLine(int argc, char** argv) {
  CLI::App cli{
      "dcwalk: fly through an AI datacenter at true scale, from a tensor core to a "
      "cooling tower, with one simulation behind every scale."};
  cli.name("dcwalk");
  cli.set_version_flag("--version", "dcwalk " DCWALK_VERSION);
  cli.require_subcommand(0, 1);

  const std::vector<app::Command> commands = app::addCommands(cli);

  std::vector<std::string> args(argv + 1, argv + argc);
  // Hidden: `dcwalk --cli-reference` prints the whole command line as JSON, which the man page
  // and the shell completions are generated from (packaging/).
  if (args.size() == 1 && args[0] == "--cli-reference") return app::printCliReference(cli);

  try {
    cli.parse(app::parseOrder(std::move(args)));  // `tour` is the default command
  } catch (const CLI::CallForHelp&) {
    std::cout << cli.help();
    return app::EXIT_OK;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << cli.help("", CLI::AppFormatMode::All);
    return app::EXIT_OK;
  } catch (const CLI::CallForVersion& e) {
    std::cout << e.what() << "\n";
    return app::EXIT_OK;
  } catch (const CLI::ParseError& e) {
    // One line of error, then the usage of the (sub)command that failed.
    std::cerr << "dcwalk: error: " << e.what() << "\n";
    const CLI::App* failed = &cli;
    for (const app::Command& c : commands) {
      if (c.sub->parsed()) failed = c.sub;
    }
    std::cerr << "usage: " << (failed == &cli ? "dcwalk" : "dcwalk " + failed->get_name())
              << " [OPTIONS]; see --help\n";
    return app::EXIT_BAD_INPUT;
  }

  for (const app::Command& c : commands) {
    if (c.sub->parsed()) return c.run();
  }
  std::cout << cli.help();
  return app::EXIT_OK;
}

}  // namespace

int main(int argc, char** argv) {
  // What a command printed counts only once it got out: `dcwalk sim --json > file` on a full
  // disk is a failure (exit 1), never exit 0 over a cut-off file.
  return app::finishStandardOutput(runCommandLine(argc, argv));
}
