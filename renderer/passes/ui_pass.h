// The UI pass: Dear ImGui 1.86's Vulkan backend draws ImDrawData over the scene. That backend
// needs a classic VkRenderPass, so this pass owns one that loads the scene image, plus a
// framebuffer per target view. The ImGui context and its platform backend belong to app/.
#pragma once

#include <map>
#include <tuple>

#include <vulkan/vulkan.h>

#include "renderer/vk/context.h"

struct ImDrawData;

namespace renderer {

class UiPass {
 public:
  /// Initialises ImGui's Vulkan backend and uploads the font atlas (the ImGui context must
  /// exist and its fonts be added).
  void create(const vkutil::Context& ctx, VkFormat colorFormat, uint32_t imageCount,
              VkCommandPool pool);
  void destroy(const vkutil::Context& ctx);
  /// Uploads the font atlas again (the app rebuilt it); the GPU must be idle. The backend is set
  /// up afresh, since ImGui 1.86's cannot replace its font texture in place.
  void reloadFonts(const vkutil::Context& ctx, VkCommandPool pool);
  /// Forgets framebuffers of views that no longer exist (after a swapchain recreation).
  void releaseFramebuffers(const vkutil::Context& ctx);
  /// Records the UI over `view` (layout COLOR_ATTACHMENT_OPTIMAL before and after).
  void record(const vkutil::Context& ctx, VkCommandBuffer cmd, ImDrawData* drawData,
              VkImageView view, VkExtent2D extent);
  bool created() const { return m_renderPass != VK_NULL_HANDLE; }

 private:
  VkRenderPass m_renderPass = VK_NULL_HANDLE;
  VkDescriptorPool m_descriptorPool = VK_NULL_HANDLE;
  struct FramebufferKey {
    VkImageView view;
    uint32_t width, height;
    bool operator<(const FramebufferKey& o) const {
      return std::tie(view, width, height) < std::tie(o.view, o.width, o.height);
    }
  };
  std::map<FramebufferKey, VkFramebuffer> m_framebuffers;
  uint32_t m_imageCount = 2;
  void initBackend(const vkutil::Context& ctx, VkCommandPool pool);
};

}  // namespace renderer
