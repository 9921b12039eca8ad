#include <gtest/gtest.h>

#include "tests/common/layering.h"

// GLFW lives only in app/: no other folder may include it.
TEST(Layering, GlfwOnlyInApp) {
  ASSERT_GT(testlayering::sourceFileCount("app"), 0);
  const std::regex forbidden(R"(^GLFW/)");
  for (const char* folder : {"sim", "world", "renderer", "shaders"}) {
    EXPECT_EQ(testlayering::forbiddenIncludes(folder, forbidden), std::vector<std::string>{})
        << folder;
  }
}
