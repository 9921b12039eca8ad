#include <gtest/gtest.h>

#include "tests/common/layering.h"

// world/ depends on sim/ only: no Vulkan, no windowing, no UI, nothing from renderer/ or app/.
TEST(Layering, WorldKnowsNothingOfVulkanRendererOrApp) {
  ASSERT_GT(testlayering::sourceFileCount("world"), 0);
  const std::regex forbidden(R"(^(vulkan/|GLFW/|imgui|backends/|renderer/|app/))");
  EXPECT_EQ(testlayering::forbiddenIncludes("world", forbidden), std::vector<std::string>{});
}
