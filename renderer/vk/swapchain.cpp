#include "renderer/vk/swapchain.h"

#include <algorithm>

#include "renderer/vk/check.h"

namespace vkutil {

VkFormat chooseSurfaceFormat(const Context& ctx) {
  uint32_t count = 0;
  VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physicalDevice, ctx.surface, &count, nullptr));
  std::vector<VkSurfaceFormatKHR> formats(count);
  VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physicalDevice, ctx.surface, &count,
                                                formats.data()));
  // The scene shader writes sRGB-encoded values itself, so the target must be UNORM.
  for (VkFormat wanted : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM}) {
    for (const auto& f : formats) {
      if (f.format == wanted && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) return wanted;
    }
  }
  return formats.empty() ? VK_FORMAT_B8G8R8A8_UNORM : formats[0].format;
}

bool createSwapchain(const Context& ctx, VkExtent2D extent, PresentModePreference mode,
                     Swapchain& sc) {
  VkSurfaceCapabilitiesKHR caps;
  VK_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(ctx.physicalDevice, ctx.surface, &caps));
  if (caps.currentExtent.width != UINT32_MAX) extent = caps.currentExtent;
  extent.width = std::clamp(extent.width, caps.minImageExtent.width, caps.maxImageExtent.width);
  extent.height = std::clamp(extent.height, caps.minImageExtent.height, caps.maxImageExtent.height);
  if (extent.width == 0 || extent.height == 0) return false;

  uint32_t modeCount = 0;
  vkGetPhysicalDeviceSurfacePresentModesKHR(ctx.physicalDevice, ctx.surface, &modeCount, nullptr);
  std::vector<VkPresentModeKHR> modes(modeCount);
  vkGetPhysicalDeviceSurfacePresentModesKHR(ctx.physicalDevice, ctx.surface, &modeCount,
                                            modes.data());
  VkPresentModeKHR wanted = mode == PresentModePreference::Mailbox ? VK_PRESENT_MODE_MAILBOX_KHR
                            : mode == PresentModePreference::Immediate
                                ? VK_PRESENT_MODE_IMMEDIATE_KHR
                                : VK_PRESENT_MODE_FIFO_KHR;
  VkPresentModeKHR presentMode = VK_PRESENT_MODE_FIFO_KHR;  // always supported
  if (std::find(modes.begin(), modes.end(), wanted) != modes.end()) presentMode = wanted;

  uint32_t imageCount = std::max(caps.minImageCount + 1, 2u);
  if (caps.maxImageCount > 0) imageCount = std::min(imageCount, caps.maxImageCount);

  VkSwapchainKHR old = sc.swapchain;
  VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
  info.surface = ctx.surface;
  info.minImageCount = imageCount;
  info.imageFormat = chooseSurfaceFormat(ctx);
  info.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
  info.imageExtent = extent;
  info.imageArrayLayers = 1;
  info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.preTransform = (caps.supportedTransforms & VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR)
                          ? VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR
                          : caps.currentTransform;
  info.compositeAlpha = (caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR)
                            ? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
                            : VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR;
  info.presentMode = presentMode;
  info.clipped = VK_TRUE;
  info.oldSwapchain = old;
  VkSwapchainKHR created;
  VK_CHECK(vkCreateSwapchainKHR(ctx.device, &info, nullptr, &created));
  destroySwapchain(ctx, sc);  // the old one (retired through oldSwapchain), its views, semaphores
  sc.swapchain = created;
  sc.format = info.imageFormat;
  sc.extent = extent;

  uint32_t count = 0;
  VK_CHECK(vkGetSwapchainImagesKHR(ctx.device, sc.swapchain, &count, nullptr));
  sc.images.resize(count);
  VK_CHECK(vkGetSwapchainImagesKHR(ctx.device, sc.swapchain, &count, sc.images.data()));
  for (VkImage image : sc.images) {
    VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view.image = image;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = sc.format;
    view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView v;
    VK_CHECK(vkCreateImageView(ctx.device, &view, nullptr, &v));
    sc.views.push_back(v);
    VkSemaphoreCreateInfo semInfo{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    VkSemaphore s;
    VK_CHECK(vkCreateSemaphore(ctx.device, &semInfo, nullptr, &s));
    sc.renderFinished.push_back(s);
  }
  return true;
}

void destroySwapchain(const Context& ctx, Swapchain& sc) {
  for (VkImageView v : sc.views) vkDestroyImageView(ctx.device, v, nullptr);
  for (VkSemaphore s : sc.renderFinished) vkDestroySemaphore(ctx.device, s, nullptr);
  sc.views.clear();
  sc.renderFinished.clear();
  sc.images.clear();
  if (sc.swapchain) vkDestroySwapchainKHR(ctx.device, sc.swapchain, nullptr);
  sc.swapchain = VK_NULL_HANDLE;
}

}  // namespace vkutil
