// The user's settings (caption language, reduced motion, UI scale): one small JSON file kept
// between runs, written atomically (app/platform/atomic_file.h), so a kill mid-save leaves the old
// file or the new one. A file that cannot be used (not JSON, wrong types, values out of range) is
// set aside as FILE.corrupt-<timestamp> with a message, and the defaults are used; one that
// cannot be read (permissions, I/O) is left alone and never replaced. Keys from a newer dcwalk
// are kept when the file is saved.
#pragma once

#include <filesystem>
#include <string>

#include "sim/result.h"

namespace app {

struct Settings {
  std::string language = "en";  // caption language: "en" or "de"
  bool reducedMotion = false;   // cut between views instead of flying
  double uiScale = 1.0;         // text and panels, on top of the monitor's HiDPI scale
};

/// Allowed UI scales (booth distance wants big; 0.5 fits small windows).
inline constexpr double MIN_UI_SCALE = 0.5;
inline constexpr double MAX_UI_SCALE = 4.0;

/// The user's configuration folder: $XDG_CONFIG_HOME (absolute), else $HOME/.config, else the
/// home folder of the password database's entry /.config; empty when there is none (never a
/// folder relative to wherever the program was started).
std::filesystem::path configHome();

/// $DCWALK_SETTINGS, else CONFIG_HOME/dcwalk/settings.json; empty when there is no configHome().
std::filesystem::path settingsPath();

struct LoadedSettings {
  Settings settings;
  std::string message;      // set when the file was set aside or unreadable (shown to the user)
  bool unreadable = false;  // it exists but could not be read: saving would be refused
};

/// Reads `path`; missing gives the defaults silently, unusable is set aside with a message (or,
/// with `setAside` false, for showing the settings, left where it is: reading changes nothing).
LoadedSettings loadSettings(const std::filesystem::path& path, bool setAside = true);

/// Writes `settings` to `path` atomically (creating its folder), keeping the keys of the file
/// there that this dcwalk does not know; refused when that file exists but cannot be read.
/// Errors name the file.
sim::Result<bool> saveSettings(const std::filesystem::path& path, const Settings& settings);

/// Sets one setting from text ("language" "de", "reduced_motion" "true", "ui_scale" "1.5");
/// false with `error` naming the key and what is allowed.
bool setSetting(Settings& settings, const std::string& key, const std::string& value,
                std::string& error);

/// The settings as the file holds them (pretty JSON, keys in a fixed order).
std::string settingsJson(const Settings& settings);

}  // namespace app
