#include "renderer/vk/check.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace vkutil {

const char* resultName(VkResult result) {
  switch (result) {
#define DCWALK_RESULT_CASE(name) \
  case name:                     \
    return #name;
    DCWALK_RESULT_CASE(VK_SUCCESS)
    DCWALK_RESULT_CASE(VK_NOT_READY)
    DCWALK_RESULT_CASE(VK_TIMEOUT)
    DCWALK_RESULT_CASE(VK_EVENT_SET)
    DCWALK_RESULT_CASE(VK_EVENT_RESET)
    DCWALK_RESULT_CASE(VK_INCOMPLETE)
    DCWALK_RESULT_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    DCWALK_RESULT_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    DCWALK_RESULT_CASE(VK_ERROR_INITIALIZATION_FAILED)
    DCWALK_RESULT_CASE(VK_ERROR_DEVICE_LOST)
    DCWALK_RESULT_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    DCWALK_RESULT_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    DCWALK_RESULT_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    DCWALK_RESULT_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    DCWALK_RESULT_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    DCWALK_RESULT_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    DCWALK_RESULT_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    DCWALK_RESULT_CASE(VK_ERROR_FRAGMENTED_POOL)
    DCWALK_RESULT_CASE(VK_ERROR_UNKNOWN)
    DCWALK_RESULT_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    DCWALK_RESULT_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    DCWALK_RESULT_CASE(VK_ERROR_FRAGMENTATION)
    DCWALK_RESULT_CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    DCWALK_RESULT_CASE(VK_PIPELINE_COMPILE_REQUIRED)
    DCWALK_RESULT_CASE(VK_ERROR_SURFACE_LOST_KHR)
    DCWALK_RESULT_CASE(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
    DCWALK_RESULT_CASE(VK_SUBOPTIMAL_KHR)
    DCWALK_RESULT_CASE(VK_ERROR_OUT_OF_DATE_KHR)
    DCWALK_RESULT_CASE(VK_ERROR_INCOMPATIBLE_DISPLAY_KHR)
    DCWALK_RESULT_CASE(VK_ERROR_VALIDATION_FAILED_EXT)
#undef DCWALK_RESULT_CASE
    default:
      return "VK_RESULT_UNKNOWN";
  }
}

namespace {

[[noreturn]] void deviceLost(const char* what, const char* file, int line) {
  // No teardown: waiting for a lost device can block forever. Files are written atomically, so
  // leaving now loses nothing that was saved.
  std::fprintf(stderr,
               "dcwalk: the graphics device was lost (%s at %s:%d): the driver was reset, or the "
               "GPU was removed or stopped responding. dcwalk stops; start it again.\n",
               what, std::strrchr(file, '/') ? std::strrchr(file, '/') + 1 : file, line);
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(1);
}

}  // namespace

void failCheck(const char* call, VkResult result, const char* file, int line) {
  if (result == VK_ERROR_DEVICE_LOST) {
    const std::string what = std::string(call) + " returned VK_ERROR_DEVICE_LOST";
    deviceLost(what.c_str(), file, line);
  }
  std::fprintf(stderr, "dcwalk: Vulkan call failed: %s returned %s at %s:%d\n", call,
               resultName(result), file, line);
  std::abort();
}

void waitFence(VkDevice device, VkFence fence, const char* file, int line) {
  const VkResult result = vkWaitForFences(device, 1, &fence, VK_TRUE, FENCE_TIMEOUT_NS);
  if (result == VK_TIMEOUT) deviceLost("a frame did not finish within 60 s", file, line);
  if (result != VK_SUCCESS) failCheck("vkWaitForFences", result, file, line);
}

VkResult queueSubmit(VkQueue queue, const VkSubmitInfo2& submit, VkFence fence) {
  static const long injectAt = [] {
    const char* text = std::getenv("DCWALK_INJECT_DEVICE_LOST");
    return text ? std::strtol(text, nullptr, 10) : 0L;
  }();
  static std::atomic<long> submissions{0};
  if (injectAt > 0 && ++submissions == injectAt) return VK_ERROR_DEVICE_LOST;
  return vkQueueSubmit2(queue, 1, &submit, fence);
}

}  // namespace vkutil
