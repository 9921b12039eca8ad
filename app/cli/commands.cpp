#include "app/cli/commands.h"

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

}  // namespace app
