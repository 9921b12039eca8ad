// Instance, physical device choice and logical device: the Vulkan objects that live as long as
// the program. Vulkan 1.3 with dynamic rendering and synchronization2 is required.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

namespace vkutil {

struct ContextDesc {
  bool validation = false;
  /// "" picks the best device (discrete > integrated > virtual > CPU); a number picks by index;
  /// anything else picks the first device whose name contains it.
  std::string devicePreference;
  std::vector<std::string> instanceExtensions;  // e.g. what the window system needs for a surface
  /// Creates the window surface once the instance exists; empty for headless.
  std::function<VkSurfaceKHR(VkInstance)> createSurface;
};

struct Context {
  VkInstance instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceMemoryProperties memoryProperties{};
  VkDevice device = VK_NULL_HANDLE;
  uint32_t queueFamily = 0;
  VkQueue queue = VK_NULL_HANDLE;
  bool timestampsSupported = false;
  // Enabled when the device has them (lavapipe does): the bench's overdraw measurement.
  bool occlusionQueryPrecise = false;    // exact samples passing the depth test
  bool pipelineStatisticsQuery = false;  // fragment shader invocations
  bool validationEnabled = false;
};

/// Creates the context; on failure returns false with a message (no device, no Vulkan 1.3, ...).
bool createContext(const ContextDesc& desc, Context& out, std::string& error);
void destroyContext(Context& context);

}  // namespace vkutil
