#include <gtest/gtest.h>

#include "tests/common/layering.h"

// renderer/ reads world's render list only: it never includes sim/, app/ or GLFW.
TEST(Layering, RendererReadsOnlyTheRenderList) {
  ASSERT_GT(testlayering::sourceFileCount("renderer"), 0);
  const std::regex forbidden(R"(^(sim/|app/|GLFW/|backends/imgui_impl_glfw))");
  EXPECT_EQ(testlayering::forbiddenIncludes("renderer", forbidden), std::vector<std::string>{});
}
