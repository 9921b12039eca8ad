// The user's settings (app/platform/settings.h): defaults, round trips, unusable files set aside
// with a message, `dcwalk settings` from the command line, and the app killed while it saves.
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/platform/settings.h"
#include "tests/common/cli.h"
#include "tests/common/paths.h"

namespace fs = std::filesystem;

namespace {

fs::path freshDir(const std::string& name) {
  return testpaths::freshDir("settings-" + name);
}

void writeText(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

int setAsideCount(const fs::path& dir) {
  int n = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename().string().find(".corrupt-") != std::string::npos) ++n;
  }
  return n;
}

TEST(Settings, MissingFileGivesDefaultsSilently) {
  const fs::path dir = freshDir("missing");
  const app::LoadedSettings loaded = app::loadSettings(dir / "settings.json");
  EXPECT_EQ(loaded.message, "");
  EXPECT_EQ(loaded.settings.language, "en");
  EXPECT_FALSE(loaded.settings.reducedMotion);
  EXPECT_DOUBLE_EQ(loaded.settings.uiScale, 1.0);
  EXPECT_FALSE(fs::exists(dir / "settings.json"));  // reading creates nothing
  fs::remove_all(dir);
}

TEST(Settings, SaveThenLoadRoundTripsIntoANewFolder) {
  const fs::path dir = freshDir("roundtrip");
  const fs::path file = dir / "nested" / "settings.json";
  app::Settings settings;
  settings.language = "de";
  settings.reducedMotion = true;
  settings.uiScale = 1.75;
  ASSERT_TRUE(app::saveSettings(file, settings).ok());
  const app::LoadedSettings loaded = app::loadSettings(file);
  EXPECT_EQ(loaded.message, "");
  EXPECT_EQ(loaded.settings.language, "de");
  EXPECT_TRUE(loaded.settings.reducedMotion);
  EXPECT_DOUBLE_EQ(loaded.settings.uiScale, 1.75);
  fs::remove_all(dir);
}

TEST(Settings, UnknownKeysAreIgnored) {
  const fs::path dir = freshDir("unknown");
  writeText(dir / "settings.json", R"({"language": "de", "from_a_newer_version": [1, 2]})");
  const app::LoadedSettings loaded = app::loadSettings(dir / "settings.json");
  EXPECT_EQ(loaded.message, "");
  EXPECT_EQ(loaded.settings.language, "de");
  EXPECT_EQ(setAsideCount(dir), 0);
  fs::remove_all(dir);
}

// Issue 19: keys from a newer dcwalk were deleted on save. They stay, values and all.
TEST(Settings, UnknownKeysAreKeptWhenSaving) {
  const fs::path dir = freshDir("keep");
  const fs::path file = dir / "settings.json";
  writeText(file, R"({"language": "de", "from_a_newer_version": {"depth": [1, 2]}, "z": null})");
  app::Settings settings = app::loadSettings(file).settings;
  settings.uiScale = 2.0;
  ASSERT_TRUE(app::saveSettings(file, settings).ok());
  std::ifstream in(file);
  const nlohmann::json saved = nlohmann::json::parse(in);
  EXPECT_EQ(saved["ui_scale"], 2.0);
  EXPECT_EQ(saved["language"], "de");
  EXPECT_EQ(saved["from_a_newer_version"], nlohmann::json::parse(R"({"depth": [1, 2]})"));
  EXPECT_TRUE(saved.contains("z") && saved["z"].is_null());
  auto run = testcli::dcwalk("settings set reduced_motion true", true,
                             "DCWALK_SETTINGS='" + file.string() + "'");
  EXPECT_EQ(run.status, 0) << run.out;
  std::ifstream again(file);
  EXPECT_TRUE(nlohmann::json::parse(again).contains("from_a_newer_version"));
  fs::remove_all(dir);
}

// Issue 19: a valid file the user cannot read was called corrupt and moved aside. It is left
// where it is, the defaults are used, and saving refuses to replace it. Run as an unprivileged
// user (root reads every file): a child drops to nobody when the test runs as root.
TEST(Settings, AnUnreadableFileIsLeftAloneAndNeverReplaced) {
  const fs::path dir = freshDir("unreadable");
  const fs::path file = dir / "settings.json";
  writeText(file, R"({"language": "de"})");
  fs::permissions(dir, fs::perms::all);  // the folder lets anyone rename or replace the file
  fs::permissions(file, fs::perms::none);
  const pid_t child = ::fork();
  if (child == 0) {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(10);
    const app::LoadedSettings loaded = app::loadSettings(file);
    if (loaded.message.find("cannot be read (Permission denied)") == std::string::npos) ::_exit(11);
    if (loaded.message.find("left where it is") == std::string::npos) ::_exit(12);
    if (!loaded.unreadable || loaded.settings.language != "en") ::_exit(13);
    if (app::saveSettings(file, loaded.settings).ok()) ::_exit(14);
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "10 setuid, 11-13 the load, 14 the save";
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(setAsideCount(dir), 0);
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(text, R"({"language": "de"})");  // untouched
  fs::remove_all(dir);
}

TEST(Settings, UnusableFilesAreSetAsideAndDefaultsUsed) {
  const char* cases[] = {
      "{\"language\": \"de\"",          // truncated JSON
      "[1, 2, 3]",                      // not an object
      "{\"language\": 7}",              // wrong type
      "{\"language\": \"fr\"}",         // not a shipped language
      "{\"ui_scale\": 40}",             // out of range
      "{\"reduced_motion\": \"yes\"}",  // wrong type
      "\xff\xfe garbage",               // not text
  };
  for (const char* text : cases) {
    SCOPED_TRACE(text);
    const fs::path dir = freshDir("corrupt");
    const fs::path file = dir / "settings.json";
    writeText(file, text);
    const app::LoadedSettings loaded = app::loadSettings(file);
    EXPECT_NE(loaded.message.find(file.string()), std::string::npos) << loaded.message;
    EXPECT_EQ(loaded.settings.language, "en");
    EXPECT_DOUBLE_EQ(loaded.settings.uiScale, 1.0);
    EXPECT_FALSE(fs::exists(file));
    EXPECT_EQ(setAsideCount(dir), 1);  // kept for the user, never overwritten
    fs::remove_all(dir);
  }
}

TEST(Settings, SetValidatesKeysAndValues) {
  app::Settings settings;
  std::string error;
  EXPECT_TRUE(app::setSetting(settings, "ui_scale", "2.5", error));
  EXPECT_DOUBLE_EQ(settings.uiScale, 2.5);
  for (const char* bad : {"0.49", "4.01", "nan", "inf", "2x", ""}) {
    EXPECT_FALSE(app::setSetting(settings, "ui_scale", bad, error)) << bad;
    EXPECT_NE(error.find("ui_scale"), std::string::npos);
  }
  EXPECT_DOUBLE_EQ(settings.uiScale, 2.5);  // a refused value changes nothing
  EXPECT_FALSE(app::setSetting(settings, "colour", "red", error));
  EXPECT_NE(error.find("unknown setting 'colour'"), std::string::npos);
}

TEST(Settings, CommandLineShowsSetsAndRefuses) {
  const fs::path dir = freshDir("cli");
  const std::string env = "DCWALK_SETTINGS='" + (dir / "settings.json").string() + "'";
  testcli::CliRun run = testcli::dcwalk("settings set language de", true, env);
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(app::loadSettings(dir / "settings.json").settings.language, "de");

  run = testcli::dcwalk("settings set ui_scale 9", true, env);
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_NE(run.out.find("ui_scale must be"), std::string::npos) << run.out;
  run = testcli::dcwalk("settings set language", true, env);
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_EQ(app::loadSettings(dir / "settings.json").settings.language, "de");  // untouched

  run = testcli::dcwalk("settings", true, env);
  EXPECT_EQ(run.status, 0);
  EXPECT_NE(run.out.find("\"language\": \"de\""), std::string::npos) << run.out;
  run = testcli::dcwalk("settings reset", true, env);
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(app::loadSettings(dir / "settings.json").settings.language, "en");
  fs::remove_all(dir);
}

// The real program, killed at random instants while it saves: the file is always the old
// settings or the new ones, whole, and never set aside on the next start.
TEST(Settings, KillingDcwalkWhileItSavesNeverCorruptsTheFile) {
  const fs::path dir = freshDir("kill");
  const fs::path file = dir / "settings.json";
  app::Settings initial;
  initial.uiScale = 1.25;
  ASSERT_TRUE(app::saveSettings(file, initial).ok());
  const std::string exe = DCWALK_EXE;
  // `dcwalk settings set` as a child: started, then killed after `delay` (none: let it finish).
  auto run = [&](const std::string& value, std::optional<std::chrono::microseconds> delay) {
    pid_t child = ::fork();
    if (child == 0) {
      ::setenv("DCWALK_SETTINGS", file.c_str(), 1);
      const int devnull = ::open("/dev/null", O_WRONLY);
      ::dup2(devnull, 1);
      ::dup2(devnull, 2);
      ::execl(exe.c_str(), exe.c_str(), "settings", "set", "ui_scale", value.c_str(),
              static_cast<char*>(nullptr));
      ::_exit(127);
    }
    if (delay) {
      std::this_thread::sleep_for(*delay);
      ::kill(child, SIGKILL);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    return status;
  };
  // How long one save takes here (process start included): the first kills are spread over it.
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(run("1.25", std::nullopt), 0);
  double window_us = double(std::chrono::duration_cast<std::chrono::microseconds>(
                                std::chrono::steady_clock::now() - start)
                                .count());
  // The window then follows this machine's pace as it goes (a busy machine's changes from one run
  // to the next): a run that finished before its kill narrows it, a killed run widens it, so the
  // kills keep landing across the whole save, however fast or loaded the machine is, and the
  // rounds go on until enough of both kinds were seen (bounded).
  std::minstd_rand delays(2026);
  int killed = 0, finished = 0;
  for (int round = 0; round < 600 && (killed < 20 || finished < 5); ++round) {
    const auto delay = std::chrono::microseconds(
        int64_t(double(delays()) / double(std::minstd_rand::max()) * window_us));
    const int status = run(round % 2 ? "1.5" : "2.5", delay);
    if (WIFSIGNALED(status)) {
      ++killed;
      window_us *= 1.15;
    } else {
      ++finished;
      window_us *= 0.7;
    }
    const app::LoadedSettings loaded = app::loadSettings(file);
    ASSERT_EQ(loaded.message, "") << "round " << round;
    const double scale = loaded.settings.uiScale;
    EXPECT_TRUE(scale == 1.25 || scale == 1.5 || scale == 2.5) << scale;
  }
  EXPECT_GE(killed, 20);   // the kills did land while dcwalk ran
  EXPECT_GE(finished, 5);  // and some saves completed between them
  EXPECT_EQ(setAsideCount(dir), 0);
  fs::remove_all(dir);
}

}  // namespace

TEST(Settings, ShowingAnUnusableOrLinkedFileChangesNothing) {
  // Before: `dcwalk settings`, which only shows, renamed a file that is not JSON (or the link to
  // one) to settings.json.corrupt-<time>.
  const fs::path dir = freshDir("show");
  writeText(dir / "target.json", "not json");
  fs::create_symlink(dir / "target.json", dir / "linked.json");
  writeText(dir / "plain.json", "not json {");
  for (const char* name : {"plain.json", "linked.json"}) {
    const std::string env = "DCWALK_SETTINGS='" + (dir / name).string() + "'";
    const testcli::CliRun run = testcli::dcwalk("settings", true, env);
    EXPECT_EQ(run.status, 0) << run.out;
    EXPECT_NE(run.out.find((dir / name).string() + ": "), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("left where it is"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("\"language\": \"en\""), std::string::npos) << run.out;
  }
  EXPECT_EQ(setAsideCount(dir), 0);
  EXPECT_TRUE(fs::is_symlink(dir / "linked.json"));
  EXPECT_EQ(readText(dir / "target.json"), "not json");
  EXPECT_EQ(readText(dir / "plain.json"), "not json {");
  // Changing the settings sets the unusable file aside first, as before.
  const testcli::CliRun set = testcli::dcwalk(
      "settings set language de", true, "DCWALK_SETTINGS='" + (dir / "plain.json").string() + "'");
  EXPECT_EQ(set.status, 0) << set.out;
  EXPECT_EQ(setAsideCount(dir), 1);
  EXPECT_EQ(app::loadSettings(dir / "plain.json").settings.language, "de");
  fs::remove_all(dir);
}

TEST(Settings, WithoutHomeTheConfigFolderIsNeverRelative) {
  // Before: with HOME unset, settings were read from and written to ./.config, in whatever
  // folder dcwalk was started from.
  std::vector<std::pair<std::string, std::optional<std::string>>> saved;
  for (const char* name : {"HOME", "XDG_CONFIG_HOME"}) {
    const char* value = std::getenv(name);
    saved.emplace_back(name, value ? std::optional<std::string>(value) : std::nullopt);
    ::unsetenv(name);
  }
  const passwd* user = ::getpwuid(::getuid());
  ASSERT_NE(user, nullptr);
  const fs::path expected = fs::path(user->pw_dir) / ".config";
  EXPECT_EQ(app::configHome(), expected);
  ::setenv("XDG_CONFIG_HOME", "relative/config", 1);  // ignored (XDG Base Directory)
  ::setenv("HOME", "relative-home", 1);               // not a home folder
  EXPECT_EQ(app::configHome(), expected);
  EXPECT_TRUE(app::settingsPath().is_absolute() || std::getenv("DCWALK_SETTINGS"));
  for (const auto& [name, value] : saved) {
    if (value) {
      ::setenv(name.c_str(), value->c_str(), 1);
    } else {
      ::unsetenv(name.c_str());
    }
  }
}
