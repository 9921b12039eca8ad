// The first error tier: VK_CHECK on every call whose failure is a bug (prints the call, file:line
// and the VkResult name, then aborts). Expected results (out-of-date swapchain) are handled where
// they occur, never through VK_CHECK. A lost device (driver reset, GPU removed or hung) is not a
// bug: VK_ERROR_DEVICE_LOST from any checked call, or a fence that does not signal within
// FENCE_TIMEOUT_NS, ends the program with a plain message and exit status 1, never a hang.
#pragma once

#include <vulkan/vulkan.h>

namespace vkutil {

/// The VkResult's enumerant name, e.g. "VK_ERROR_OUT_OF_DEVICE_MEMORY".
const char* resultName(VkResult result);
[[noreturn]] void failCheck(const char* call, VkResult result, const char* file, int line);

/// A fence the GPU does not signal within this long means the device hung (60 s: a frame on
/// software Vulkan under sanitizers takes well under one).
inline constexpr uint64_t FENCE_TIMEOUT_NS = 60'000'000'000ull;

/// Waits for `fence`; a lost or hung device ends the program (see above).
void waitFence(VkDevice device, VkFence fence, const char* file, int line);

/// vkQueueSubmit2 for one submit. With DCWALK_INJECT_DEVICE_LOST=N in the environment, the Nth
/// submission of the process returns VK_ERROR_DEVICE_LOST without submitting: the tests' way to
/// drive the device-lost path on a healthy device.
VkResult queueSubmit(VkQueue queue, const VkSubmitInfo2& submit, VkFence fence);

}  // namespace vkutil

#define VK_CHECK(call)                                                \
  do {                                                                \
    VkResult vkCheckResult_ = (call);                                 \
    if (vkCheckResult_ != VK_SUCCESS) {                               \
      ::vkutil::failCheck(#call, vkCheckResult_, __FILE__, __LINE__); \
    }                                                                 \
  } while (0)

#define VK_WAIT_FENCE(device, fence) ::vkutil::waitFence((device), (fence), __FILE__, __LINE__)
