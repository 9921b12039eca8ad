// Where captures go by default: the pictures folder of xdg-user-dirs (user-dirs.dirs, then the
// environment, then ~/Pictures) for an installed program, captures/ for one in a build tree.
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "app/platform/capture.h"

namespace {

// Sets HOME and XDG_CONFIG_HOME to a scratch folder for one test, and puts them back after.
class ScratchHome : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"HOME", "XDG_CONFIG_HOME", "XDG_PICTURES_DIR"}) {
      const char* value = std::getenv(name);
      m_saved.emplace_back(name, value ? std::optional<std::string>(value) : std::nullopt);
      ::unsetenv(name);
    }
    m_home = std::filesystem::path(DCWALK_BINARY_DIR) / "capture-dir-test" /
             ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(m_home);
    std::filesystem::create_directories(m_home / ".config");
    ::setenv("HOME", m_home.c_str(), 1);
  }
  void TearDown() override {
    for (const auto& [name, value] : m_saved) {
      if (value) {
        ::setenv(name.c_str(), value->c_str(), 1);
      } else {
        ::unsetenv(name.c_str());
      }
    }
  }
  void writeUserDirs(const std::filesystem::path& configHome, const std::string& text) {
    std::filesystem::create_directories(configHome);
    std::ofstream(configHome / "user-dirs.dirs") << text;
  }

  std::filesystem::path m_home;
  std::vector<std::pair<std::string, std::optional<std::string>>> m_saved;
};

}  // namespace

TEST_F(ScratchHome, PicturesFallBackToHomePictures) {
  EXPECT_EQ(app::picturesDir(), m_home / "Pictures");
}

TEST_F(ScratchHome, PicturesFromUserDirsWithHomeExpanded) {
  // As xdg-user-dirs-update writes it for a German desktop.
  writeUserDirs(m_home / ".config",
                "# comment\nXDG_DESKTOP_DIR=\"$HOME/Schreibtisch\"\n"
                "XDG_PICTURES_DIR=\"$HOME/Bilder\"\n");
  EXPECT_EQ(app::picturesDir(), m_home / "Bilder");
}

TEST_F(ScratchHome, PicturesFromUserDirsInXdgConfigHome) {
  const auto config = m_home / "elsewhere";
  ::setenv("XDG_CONFIG_HOME", config.c_str(), 1);
  writeUserDirs(config, "XDG_PICTURES_DIR=\"/srv/booth/shots\"\n");
  EXPECT_EQ(app::picturesDir(), "/srv/booth/shots");
}

TEST_F(ScratchHome, PicturesFromTheEnvironmentWhenTheFileHasNone) {
  ::setenv("XDG_PICTURES_DIR", "/tmp/pics", 1);
  EXPECT_EQ(app::picturesDir(), "/tmp/pics");
  writeUserDirs(m_home / ".config", "XDG_PICTURES_DIR=\"$HOME/Fotos\"\n");
  EXPECT_EQ(app::picturesDir(), m_home / "Fotos");  // the file wins, as in xdg-user-dir
}

TEST_F(ScratchHome, NoHomeNoPictures) {
  ::unsetenv("HOME");
  EXPECT_EQ(app::picturesDir(), std::filesystem::path());
}

TEST(CaptureDir, BuildTreeRunsKeepCapturesInTheCurrentFolder) {
  // This test binary runs from the build tree: no installed data beside it.
  EXPECT_EQ(app::defaultCaptureDir(), "captures");
}
