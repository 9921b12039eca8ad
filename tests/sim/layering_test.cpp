#include <gtest/gtest.h>

#include "tests/common/layering.h"

// sim/ depends on nothing but the C++ library and a JSON parser.
TEST(Layering, SimIncludesNothingGraphicalNorHigherLayers) {
  ASSERT_GT(testlayering::sourceFileCount("sim"), 0);
  const std::regex forbidden(
      R"(^(vulkan/|GLFW/|imgui|backends/|tiny_gltf|glm/|world/|renderer/|app/|shaders/))");
  EXPECT_EQ(testlayering::forbiddenIncludes("sim", forbidden), std::vector<std::string>{});
}

TEST(Layering, CheckerFindsAForbiddenInclude) {
  // The checker itself must be able to fail: this file's own folder includes gtest.
  EXPECT_FALSE(testlayering::forbiddenIncludes("tests/sim", std::regex("^gtest/")).empty());
}
