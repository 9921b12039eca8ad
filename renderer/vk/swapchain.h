// The window's swapchain: creation, recreation on resize, and the one place where acquire and
// present results (out of date, suboptimal, minimised 0x0 window) are handled.
#pragma once

#include <vector>

#include <vulkan/vulkan.h>

#include "renderer/vk/context.h"

namespace vkutil {

struct Swapchain {
  VkSwapchainKHR swapchain = VK_NULL_HANDLE;
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkExtent2D extent{};
  std::vector<VkImage> images;
  std::vector<VkImageView> views;
  std::vector<VkSemaphore> renderFinished;  // one per image: present waits on the image's own
};

enum class PresentModePreference { Fifo, Mailbox, Immediate };

/// (Re)creates the swapchain for `extent` (clamped to the surface limits); the device must be
/// idle. Returns false when the surface is 0x0 (minimised): nothing to render until it has a
/// size again (the old swapchain is kept).
bool createSwapchain(const Context& ctx, VkExtent2D extent, PresentModePreference mode,
                     Swapchain& swapchain);
void destroySwapchain(const Context& ctx, Swapchain& swapchain);

/// The UNORM surface format the swapchain will use (the renderer's pipelines are built for it).
VkFormat chooseSurfaceFormat(const Context& ctx);

}  // namespace vkutil
