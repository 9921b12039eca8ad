#include "app/platform/settings.h"

#include <pwd.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

#include <nlohmann/json.hpp>

#include "app/platform/atomic_file.h"
#include "sim/json_file.h"

namespace app {
namespace {

constexpr uint64_t MAX_SETTINGS_BYTES = 64u << 10;  // a settings file is a few lines (64 KiB)

// Why `root` is not a usable settings object, or "". Unknown keys are allowed (a newer dcwalk
// may have written them): ignored here, kept by saveSettings.
std::string validate(const nlohmann::json& root, Settings& out) {
  if (!root.is_object()) return "not a JSON object";
  std::string error;
  for (const auto& [key, value] : root.items()) {
    std::string text;
    if (key == "language" && value.is_string()) {
      text = value.get<std::string>();
    } else if (key == "reduced_motion" && value.is_boolean()) {
      text = value.get<bool>() ? "true" : "false";
    } else if (key == "ui_scale" && value.is_number()) {
      text = value.dump();
    } else if (key == "language" || key == "reduced_motion" || key == "ui_scale") {
      return "\"/" + key + "\" has the wrong type (" + std::string(value.type_name()) + ")";
    } else {
      continue;
    }
    if (!setSetting(out, key, text, error)) return "\"/" + key + "\": " + error;
  }
  return "";
}

}  // namespace

std::filesystem::path configHome() {
  // XDG Base Directory: a relative XDG_CONFIG_HOME is ignored. A HOME that is unset or relative
  // gives way to the user's home in the password database (as glib's g_get_home_dir does).
  if (const char* config = std::getenv("XDG_CONFIG_HOME"); config && *config == '/') return config;
  if (const char* home = std::getenv("HOME"); home && *home == '/')
    return std::filesystem::path(home) / ".config";
  if (const passwd* user = ::getpwuid(::getuid()); user && user->pw_dir && *user->pw_dir == '/')
    return std::filesystem::path(user->pw_dir) / ".config";
  return {};
}

std::filesystem::path settingsPath() {
  if (const char* path = std::getenv("DCWALK_SETTINGS"); path && *path) return path;
  const std::filesystem::path config = configHome();
  return config.empty() ? config : config / "dcwalk" / "settings.json";
}

LoadedSettings loadSettings(const std::filesystem::path& path, bool setAside) {
  LoadedSettings loaded;
  ReadDesc desc;
  desc.setAside = setAside;
  desc.defaults = settingsJson(Settings{});
  desc.maxBytes = MAX_SETTINGS_BYTES;
  desc.check = [&path](const std::string& text) {
    auto parsed = sim::parseJsonText(text, path.string());
    if (!parsed) return parsed.error();
    Settings scratch;
    return validate(parsed->root, scratch);
  };
  const LoadedFile file = readFileOrDefaults(path, desc);
  loaded.message = file.message;
  loaded.unreadable = file.unreadable;
  auto parsed = sim::parseJsonText(file.contents, path.string());
  if (parsed) validate(parsed->root, loaded.settings);  // checked above; defaults parse too
  return loaded;
}

sim::Result<bool> saveSettings(const std::filesystem::path& path, const Settings& settings) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) {
    return sim::Result<bool>::failure(path.parent_path().string() +
                                      ": cannot create the settings folder: " + ec.message());
  }
  nlohmann::ordered_json out = nlohmann::ordered_json::parse(settingsJson(settings));
  // Keys this dcwalk does not know (a newer one wrote them) stay in the file; a file that exists
  // but cannot be read is not replaced (it may be fine: its permissions, a disk error).
  if (const auto status = std::filesystem::status(path, ec); std::filesystem::exists(status)) {
    const uint64_t size = std::filesystem::file_size(path, ec);
    std::string text;
    const int error = ec ? ec.value() : readWhole(path, size, text);
    if (error != 0)
      return sim::Result<bool>::failure(path.string() + ": exists but cannot be read (" +
                                        std::strerror(error) + "); not replacing it");
    auto current = size <= MAX_SETTINGS_BYTES ? sim::parseJsonText(text, path.string())
                                              : sim::Result<sim::JsonFile>::failure("too large");
    if (current && current->root.is_object()) {
      for (const auto& [key, value] : current->root.items())
        if (!out.contains(key)) out[key] = value;
    }
  }
  return writeFileAtomic(path, out.dump(2) + "\n");
}

bool setSetting(Settings& settings, const std::string& key, const std::string& value,
                std::string& error) {
  if (key == "language") {
    if (value != "en" && value != "de") {
      error = "language must be en or de, not '" + value + "'";
      return false;
    }
    settings.language = value;
    return true;
  }
  if (key == "reduced_motion") {
    if (value != "true" && value != "false") {
      error = "reduced_motion must be true or false, not '" + value + "'";
      return false;
    }
    settings.reducedMotion = value == "true";
    return true;
  }
  if (key == "ui_scale") {
    char* end = nullptr;
    const double scale = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || !std::isfinite(scale) || scale < MIN_UI_SCALE ||
        scale > MAX_UI_SCALE) {
      error = "ui_scale must be a number from 0.5 to 4, not '" + value + "'";
      return false;
    }
    settings.uiScale = scale;
    return true;
  }
  error = "unknown setting '" + key + "' (language, reduced_motion, ui_scale)";
  return false;
}

std::string settingsJson(const Settings& settings) {
  nlohmann::ordered_json json;
  json["language"] = settings.language;
  json["reduced_motion"] = settings.reducedMotion;
  json["ui_scale"] = settings.uiScale;
  return json.dump(2) + "\n";
}

}  // namespace app
