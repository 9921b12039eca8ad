// `dcwalk settings`: shows the settings file (where it is, what it holds);
// `dcwalk settings set KEY VALUE` changes one setting; `dcwalk settings reset` writes the
// defaults. Every write is atomic; an unusable file is set aside with a message first.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "app/platform/settings.h"

namespace app {
namespace {

struct SettingsOptions {
  std::vector<std::string> set;  // KEY VALUE
  CLI::App* setSub = nullptr;
  CLI::App* resetSub = nullptr;
};

int runSettings(const SettingsOptions& options) {
  const std::filesystem::path path = settingsPath();
  if (path.empty()) {
    std::fprintf(stderr,
                 "dcwalk: settings: no settings file: XDG_CONFIG_HOME and HOME are not set and "
                 "the user has no home folder (set DCWALK_SETTINGS to choose one)\n");
    return EXIT_FAILURE_RUNTIME;
  }
  const bool change = options.setSub->parsed() || options.resetSub->parsed();
  // Showing changes nothing: an unusable file is only reported (set or reset sets it aside).
  LoadedSettings loaded = loadSettings(path, /*setAside=*/change);
  if (!loaded.message.empty()) std::fprintf(stderr, "dcwalk: %s\n", loaded.message.c_str());
  Settings settings = loaded.settings;
  if (options.setSub->parsed()) {
    std::string error;
    if (!setSetting(settings, options.set[0], options.set[1], error)) {
      std::fprintf(stderr, "dcwalk: settings: %s\n", error.c_str());
      return EXIT_BAD_INPUT;
    }
  } else if (options.resetSub->parsed()) {
    settings = Settings{};
  }
  if (change) {
    if (auto saved = saveSettings(path, settings); !saved) {
      std::fprintf(stderr, "dcwalk: settings: %s\n", saved.error().c_str());
      return EXIT_FAILURE_RUNTIME;
    }
  }
  std::printf("# %s\n%s", path.c_str(), settingsJson(settings).c_str());
  return EXIT_OK;
}

}  // namespace

Command addSettingsCommand(CLI::App& cli) {
  auto options = std::make_shared<SettingsOptions>();
  CLI::App* sub = cli.add_subcommand(
      "settings", "show the settings file (language, reduced_motion, ui_scale) or change it");
  sub->require_subcommand(0, 1);
  options->setSub = sub->add_subcommand("set", "set one setting: KEY VALUE");
  options->setSub
      ->add_option("KEY VALUE", options->set,
                   "language en|de, reduced_motion "
                   "true|false, ui_scale 0.5..4")
      ->expected(2)
      ->required();
  options->resetSub = sub->add_subcommand("reset", "write the default settings");
  return {sub, [options] { return runSettings(*options); }};
}

}  // namespace app
