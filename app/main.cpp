// dcwalk: one executable, git-style subcommands (tour is the default).
#include <cstdio>
#include <iostream>
#include <vector>

#include "app/commands.h"

int main(int argc, char** argv) {
  CLI::App cli{
      "dcwalk: fly through an AI datacenter at true scale, from a tensor core to a "
      "cooling tower, with one simulation behind every scale."};
  cli.name("dcwalk");
  cli.set_version_flag("--version", "dcwalk 0.1.0");
  cli.require_subcommand(0, 1);

  std::vector<app::Command> commands = {};

  try {
    cli.parse(argc, argv);
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
