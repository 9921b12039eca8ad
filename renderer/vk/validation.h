// Validation gate: VK_LAYER_KHRONOS_validation's ERROR messages are counted (and printed), so a
// test can fail on any of them. Warnings are ignored (best-practice noise).
#pragma once

#include <cstdint>

#include <vulkan/vulkan.h>

namespace vkutil {

/// ERROR-severity validation messages seen since start (all instances together).
uint32_t validationErrorCount();
/// Create info for the debug messenger that counts errors; chain it into VkInstanceCreateInfo.
VkDebugUtilsMessengerCreateInfoEXT validationMessengerInfo();

}  // namespace vkutil
