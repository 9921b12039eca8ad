// The first error tier: VK_CHECK on every call whose failure is a bug (prints the call, file:line
// and the VkResult name, then aborts). Expected results (out-of-date swapchain, timeouts) are
// handled where they occur, never through VK_CHECK.
#pragma once

#include <vulkan/vulkan.h>

namespace vkutil {

/// The VkResult's enumerant name, e.g. "VK_ERROR_OUT_OF_DEVICE_MEMORY".
const char* resultName(VkResult result);
[[noreturn]] void failCheck(const char* call, VkResult result, const char* file, int line);

}  // namespace vkutil

#define VK_CHECK(call)                                                \
  do {                                                                \
    VkResult vkCheckResult_ = (call);                                 \
    if (vkCheckResult_ != VK_SUCCESS) {                               \
      ::vkutil::failCheck(#call, vkCheckResult_, __FILE__, __LINE__); \
    }                                                                 \
  } while (0)
