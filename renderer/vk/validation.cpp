#include "renderer/vk/validation.h"

#include <atomic>
#include <cstdio>

namespace vkutil {
namespace {

std::atomic<uint32_t> g_validationErrors{0};

VKAPI_ATTR VkBool32 VKAPI_CALL onValidationMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                   void*) {
  if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
    g_validationErrors.fetch_add(1, std::memory_order_relaxed);
    std::fprintf(stderr, "dcwalk: Vulkan validation error: %s\n",
                 data && data->pMessage ? data->pMessage : "(no message)");
  }
  return VK_FALSE;
}

}  // namespace

uint32_t validationErrorCount() {
  return g_validationErrors.load(std::memory_order_relaxed);
}

VkDebugUtilsMessengerCreateInfoEXT validationMessengerInfo() {
  VkDebugUtilsMessengerCreateInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
                         VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
  info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  info.pfnUserCallback = onValidationMessage;
  return info;
}

}  // namespace vkutil
