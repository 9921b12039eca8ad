// The validation gate: every renderer test runs with VK_LAYER_KHRONOS_validation and fails on any
// ERROR message; this file also proves the counter can count.
#include <gtest/gtest.h>

#include <imgui.h>

#include "renderer/vk/check.h"
#include "tests/renderer/fixtures.h"

TEST(Validation, LayerIsActiveInTests) {
  auto r = fixtures::makeHeadless();
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->context().validationEnabled)
      << "VK_LAYER_KHRONOS_validation must be installed (vulkan-validationlayers)";
}

TEST(Validation, DeliberateMistakeIsCounted) {
  auto r = fixtures::makeHeadless();
  ASSERT_TRUE(r);
  const uint32_t before = vkutil::validationErrorCount();
  // A buffer with no usage bits violates VUID-VkBufferCreateInfo-usage-requiredbitmask.
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = 256;
  info.usage = 0;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkResult result = vkCreateBuffer(r->context().device, &info, nullptr, &buffer);
  if (result == VK_SUCCESS) vkDestroyBuffer(r->context().device, buffer, nullptr);
  EXPECT_GE(vkutil::validationErrorCount(), before + 1);
}

TEST(Validation, FramesWithUiAreClean) {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(320, 180);
  io.Fonts->AddFontDefault();
  {
    auto r = fixtures::makeHeadless(/*ui=*/true);
    ASSERT_TRUE(r);
    const uint32_t before = vkutil::validationErrorCount();
    world::MeshLibrary library = fixtures::boxLibrary();
    r->setMeshes(library);
    world::RenderList list;
    fixtures::addBatch(list, {fixtures::box(0, 0, -3, 1, 1, 1, 0.8f, 0.3f, 0.2f)});
    for (int frame = 0; frame < 3; ++frame) {  // more frames than the ring holds
      ImGui::NewFrame();
      ImGui::Begin("panel");
      ImGui::Text("dcwalk %d", frame);
      ImGui::End();
      ImGui::Render();
      renderer::Pixels pixels = r->renderToPixels(list, ImGui::GetDrawData(), {320, 180});
      EXPECT_EQ(pixels.rgba.size(), 320u * 180u * 4u);
    }
    // A size change reallocates the targets.
    ImGui::NewFrame();
    ImGui::Render();
    r->renderToPixels(list, ImGui::GetDrawData(), {200, 100});
    EXPECT_EQ(vkutil::validationErrorCount(), before);
  }
  ImGui::DestroyContext();
}
