// The arrows inside app/: platform <- ui <- session <- modes <- cli, each folder its own target.
// UI panels read values and return commands; they never see the session or the engine, and the
// world's render list is built in exactly one place, the one frame.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "tests/common/layering.h"
#include "tests/common/paths.h"

// GLFW lives only in app/: no other folder may include it, and in app/ only the platform layer
// and the window mode do.
TEST(Layering, GlfwOnlyInApp) {
  ASSERT_GT(testlayering::sourceFileCount("app"), 0);
  const std::regex forbidden(R"(^GLFW/|^backends/imgui_impl_glfw)");
  for (const char* folder :
       {"sim", "world", "renderer", "shaders", "app/ui", "app/session", "app/cli"}) {
    EXPECT_EQ(testlayering::forbiddenIncludes(folder, forbidden), std::vector<std::string>{})
        << folder;
  }
}

TEST(Layering, AppFoldersPointOneWay) {
  const struct {
    const char* folder;
    const char* forbidden;
  } rules[] = {
      {"app/platform", R"(^app/(ui|session|modes|cli)/)"},
      // Panels take values and return SimCommands: no session, no engine, no window.
      {"app/ui", R"(^app/(session|modes|cli|platform)/|^sim/engine/engine\.h)"},
      {"app/session", R"(^app/(modes|cli)/)"},
      {"app/modes", R"(^app/cli/)"},
  };
  for (const auto& rule : rules) {
    ASSERT_GT(testlayering::sourceFileCount(rule.folder), 0) << rule.folder;
    EXPECT_EQ(testlayering::forbiddenIncludes(rule.folder, std::regex(rule.forbidden)),
              std::vector<std::string>{})
        << rule.folder;
  }
}

// The one frame builds the render list; no mode, panel or command makes its own.
TEST(Layering, TheRenderListIsBuiltInOnePlace) {
  std::vector<std::string> callers;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(testpaths::sourceDir() / "app")) {
    if (entry.path().extension() != ".cpp" && entry.path().extension() != ".h") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    for (size_t at = s.find("buildRenderList("); at != std::string::npos;
         at = s.find("buildRenderList(", at + 1)) {
      callers.push_back(entry.path().lexically_relative(testpaths::sourceDir()).string());
    }
  }
  EXPECT_EQ(callers, std::vector<std::string>{"app/session/frame.cpp"});
}
