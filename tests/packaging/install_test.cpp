// The installed layout (`cmake --install` into a scratch prefix, what the .deb holds): the
// program finds its data beside itself, not in the source tree; it writes settings and the
// pipeline cache into the user's XDG folders and nothing into its own; the desktop entries
// validate and start commands the program knows; --version is the project's version.
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "tests/common/paths.h"
#include "tests/packaging/cli_help.h"

using testcli::shell;

namespace {

std::string quoted(const std::string& text) {
  std::string q = "'";
  for (char c : text) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Every file and folder under `dir`, relative.
std::set<std::string> tree(const std::filesystem::path& dir) {
  std::set<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    out.insert(std::filesystem::relative(e.path(), dir).string());
  return out;
}

// A fresh install for each test (ctest runs them in parallel, each in its own process):
// PREFIX/usr, with a HOME and a working folder beside it.
class Installed : public ::testing::Test {
 protected:
  void SetUp() override {
    m_root = std::filesystem::path(DCWALK_BINARY_DIR) / "packaging-test" /
             (std::string("installed-") +
              ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(m_root);
    std::filesystem::create_directories(m_root / "home");
    std::filesystem::create_directories(m_root / "work");
    const auto install = shell("cmake --install " + quoted(DCWALK_BINARY_DIR) + " --prefix " +
                               quoted((m_root / "usr").string()) + " 2>&1");
    ASSERT_EQ(install.status, 0) << install.out;
  }

  // Runs the installed dcwalk in the working folder with only HOME set (no XDG variables, no
  // DCWALK_ASSETS): as a desktop user starts it.
  testcli::CliRun run(const std::string& args) const {
    return shell("cd " + quoted((m_root / "work").string()) +
                 " && env -i PATH=/usr/bin:/bin HOME=" + quoted((m_root / "home").string()) + " " +
                 quoted((m_root / "usr" / "bin" / "dcwalk").string()) + " " + args + " 2>&1");
  }

  std::filesystem::path m_root;
};

}  // namespace

TEST_F(Installed, HoldsTheProgramItsDataAndItsDesktopFiles) {
  const auto usr = m_root / "usr";
  for (const char* file :
       {"bin/dcwalk", "share/dcwalk/catalog/gpus.json", "share/dcwalk/panels.json",
        "share/dcwalk/tours/default.json", "share/dcwalk/scenarios/llama70b-inference-h100.json",
        "share/applications/dcwalk.desktop", "share/applications/dcwalk-booth.desktop",
        "share/icons/hicolor/scalable/apps/dcwalk.svg", "share/man/man1/dcwalk.1.gz",
        "share/bash-completion/completions/dcwalk", "share/zsh/vendor-completions/_dcwalk",
        "share/doc/dcwalk/copyright", "share/doc/dcwalk/changelog.Debian.gz",
        "share/lintian/overrides/dcwalk"}) {
    EXPECT_TRUE(std::filesystem::is_regular_file(usr / file)) << file;
  }
  // Every shipped data file, and nothing of the source tree's own.
  std::set<std::string> shipped;
  for (const std::string& f : tree(testpaths::sourceDir() / "assets")) shipped.insert(f);
  EXPECT_EQ(tree(usr / "share" / "dcwalk"), shipped);
  // man reads the compressed page.
  auto man = shell("LC_ALL=C.UTF-8 MANWIDTH=200 man -l " +
                   quoted((usr / "share/man/man1/dcwalk.1.gz").string()) + " 2>&1");
  EXPECT_NE(man.out.find("dcwalk shot"), std::string::npos) << man.out;
}

TEST_F(Installed, ReadsTheDataBesideItNotTheSourceTree) {
  // A scenario that exists only in the installed copy: the installed program lists and runs it.
  const auto scenarios = m_root / "usr" / "share" / "dcwalk" / "scenarios";
  std::filesystem::copy_file(scenarios / "llama70b-inference-h100.json",
                             scenarios / "installed-only.json");
  EXPECT_NE(run("sim --list").out.find("installed-only"), std::string::npos);
  auto sim = run("sim --scenario installed-only --json");
  EXPECT_EQ(sim.status, 0) << sim.out;
  EXPECT_EQ(testcli::dcwalk("sim --list").out.find("installed-only"), std::string::npos);
  std::filesystem::remove(scenarios / "installed-only.json");
}

TEST_F(Installed, WritesIntoTheUsersFoldersAndNotBesideItself) {
  const auto before = tree(m_root / "usr");
  auto set = run("settings set language de");
  EXPECT_EQ(set.status, 0) << set.out;
  EXPECT_TRUE(std::filesystem::exists(m_root / "home/.config/dcwalk/settings.json")) << set.out;
  auto shot = run("shot --station rack --size 96x64 --out rack.png");
  EXPECT_EQ(shot.status, 0) << shot.out;
  EXPECT_TRUE(std::filesystem::exists(m_root / "work/rack.png"));
  EXPECT_TRUE(std::filesystem::exists(m_root / "home/.cache/dcwalk/pipeline-cache.bin"));
  EXPECT_EQ(tree(m_root / "usr"), before);
}

TEST_F(Installed, DesktopEntriesValidateAndStartKnownCommands) {
  ASSERT_EQ(shell("command -v desktop-file-validate").status, 0)
      << "desktop-file-validate is missing (scripts/deps installs desktop-file-utils)";
  for (const char* name : {"dcwalk.desktop", "dcwalk-booth.desktop"}) {
    const auto file = m_root / "usr" / "share" / "applications" / name;
    auto valid = shell("desktop-file-validate " + quoted(file.string()) + " 2>&1");
    EXPECT_EQ(valid.status, 0) << name << ": " << valid.out;
    EXPECT_EQ(valid.out, "") << name;  // not even a hint
    std::ifstream in(file);
    std::string exec, icon;
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("Exec=", 0) == 0) exec = line.substr(5);
      if (line.rfind("Icon=", 0) == 0) icon = line.substr(5);
    }
    ASSERT_EQ(exec.rfind("dcwalk ", 0), 0u) << name << ": " << exec;
    // The command and its flags are ones --help lists, and the values pass its checks (CLI11
    // checks values before it prints the help, not unknown names).
    std::istringstream words(exec.substr(7));
    std::string command;
    words >> command;
    EXPECT_TRUE(testhelp::parseHelp(run("--help").out).subcommands.count(command)) << name;
    const auto help = testhelp::parseHelp(run(command + " --help").out);
    for (std::string w; words >> w;) {
      if (w.rfind("--", 0) == 0) {
        EXPECT_TRUE(help.options.count(w)) << name << ": " << w;
      }
    }
    auto parsed = run(exec.substr(7) + " --help");
    EXPECT_EQ(parsed.status, 0) << name << ": " << parsed.out;
    EXPECT_TRUE(
        std::filesystem::exists(m_root / "usr/share/icons/hicolor/scalable/apps" / (icon + ".svg")))
        << name << ": " << icon;
  }
}

TEST_F(Installed, VersionIsTheProjects) {
  EXPECT_EQ(run("--version").out, std::string("dcwalk ") + DCWALK_PROJECT_VERSION + "\n");
}
