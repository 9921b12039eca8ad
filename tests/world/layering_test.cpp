#include <gtest/gtest.h>

#include "tests/common/layering.h"

// world/ depends on sim/ only: no Vulkan, no windowing, no UI, nothing from renderer/ or app/.
TEST(Layering, WorldKnowsNothingOfVulkanRendererOrApp) {
  ASSERT_GT(testlayering::sourceFileCount("world"), 0);
  const std::regex forbidden(R"(^(vulkan/|GLFW/|imgui|backends/|renderer/|app/))");
  EXPECT_EQ(testlayering::forbiddenIncludes("world", forbidden), std::vector<std::string>{});
}

// Inside world/: the scene knows no simulation and nothing built on it; glTF import knows the
// scene only; and only the live visuals read the engine's snapshot.
TEST(Layering, WorldFoldersPointOneWay) {
  const struct {
    const char* folder;
    const char* forbidden;
  } rules[] = {
      {"world/scene", R"(^sim/|^world/(builders|live|tour|gltf)/|^world/world\.h)"},
      {"world/gltf", R"(^world/(builders|live|tour)/|^world/world\.h|^sim/engine/)"},
      {"world/builders", R"(^world/(live|tour)/|^world/world\.h|^sim/engine/(engine|snapshot)\.h)"},
      // The tour types its steps' overlays with the live metric and layer names, and nothing else
      // of live.
      {"world/tour",
       R"(^world/(builders|gltf)/|^world/live/(?!overlay_metric\.h|layer_id\.h)|^sim/engine/(engine|snapshot)\.h)"},
  };
  for (const auto& rule : rules) {
    ASSERT_GT(testlayering::sourceFileCount(rule.folder), 0) << rule.folder;
    EXPECT_EQ(testlayering::forbiddenIncludes(rule.folder, std::regex(rule.forbidden)),
              std::vector<std::string>{})
        << rule.folder;
  }
  // Nothing in world/ reads the engine itself: the live visuals take its snapshot.
  EXPECT_EQ(testlayering::forbiddenIncludes("world", std::regex(R"(^sim/engine/engine\.h)")),
            std::vector<std::string>{});
}
