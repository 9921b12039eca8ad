#include "app/cli/commands.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace app {

std::vector<Command> addCommands(CLI::App& cli) {
  std::vector<Command> commands;
  commands.push_back(addTourCommand(cli));
  commands.push_back(addShotCommand(cli));
  commands.push_back(addSimCommand(cli));
  commands.push_back(addTraceCommand(cli));
  commands.push_back(addBenchCommand(cli));
  commands.push_back(addStationsCommand(cli));
  commands.push_back(addAssetCommand(cli));
  commands.push_back(addSettingsCommand(cli));
  return commands;
}

std::vector<std::string> parseOrder(std::vector<std::string> args) {
  const bool asksTopLevel = !args.empty() && (args[0] == "-h" || args[0] == "--help" ||
                                              args[0] == "--help-all" || args[0] == "--version");
  if (args.empty() || (args[0].rfind("-", 0) == 0 && !asksTopLevel)) {
    args.insert(args.begin(), "tour");
  }
  std::reverse(args.begin(), args.end());
  return args;
}

int finishStandardOutput(int status) {
  errno = 0;
  std::cout.flush();
  const bool flushed = std::fflush(stdout) == 0;
  const int error = errno;
  if (flushed && !std::ferror(stdout) && std::cout.good()) return status;
  // A failed write earlier may have left nothing to flush now: its errno is gone.
  std::fprintf(stderr, "dcwalk: cannot write standard output: %s\n",
               error != 0 ? std::strerror(error) : "an earlier write failed");
  return status != EXIT_OK ? status : EXIT_FAILURE_RUNTIME;
}

}  // namespace app
