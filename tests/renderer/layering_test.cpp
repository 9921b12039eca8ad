#include <gtest/gtest.h>

#include "tests/common/layering.h"

// renderer/ reads world's render list only: it never includes sim/, app/, GLFW, or any of
// world/ but the scene (its target links dcwalk_world_scene alone).
TEST(Layering, RendererReadsOnlyTheRenderList) {
  ASSERT_GT(testlayering::sourceFileCount("renderer"), 0);
  const std::regex forbidden(R"(^(sim/|app/|GLFW/|backends/imgui_impl_glfw|world/(?!scene/)))");
  EXPECT_EQ(testlayering::forbiddenIncludes("renderer", forbidden), std::vector<std::string>{});
}
