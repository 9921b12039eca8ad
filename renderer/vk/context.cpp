#include "renderer/vk/context.h"

#include <cstdio>
#include <cstring>

#include "renderer/vk/check.h"
#include "renderer/vk/validation.h"

namespace vkutil {
namespace {

constexpr const char* VALIDATION_LAYER = "VK_LAYER_KHRONOS_validation";

bool hasLayer(const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  for (const auto& layer : layers) {
    if (std::strcmp(layer.layerName, name) == 0) return true;
  }
  return false;
}

int deviceTypeRank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return 1;
    default:
      return 0;
  }
}

const char* deviceTypeName(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return "CPU (software)";
    default:
      return "other";
  }
}

// A graphics queue family (that can also present, when there is a surface), or -1.
int findQueueFamily(VkPhysicalDevice device, VkSurfaceKHR surface) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
  for (uint32_t i = 0; i < count; ++i) {
    if (!(families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)) continue;
    if (surface) {
      VkBool32 present = VK_FALSE;
      vkGetPhysicalDeviceSurfaceSupportKHR(device, i, surface, &present);
      if (!present) continue;
    }
    return static_cast<int>(i);
  }
  return -1;
}

bool supportsRequirements(VkPhysicalDevice device, VkSurfaceKHR surface) {
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(device, &props);
  if (props.apiVersion < VK_API_VERSION_1_3) return false;
  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f13};
  vkGetPhysicalDeviceFeatures2(device, &f2);
  if (!f13.dynamicRendering || !f13.synchronization2) return false;
  return findQueueFamily(device, surface) >= 0;
}

std::vector<VkPhysicalDevice> enumerateDevices(VkInstance instance) {
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(instance, &count, devices.data());
  return devices;
}

bool createInstance(const ContextDesc& desc, Context& ctx, std::string& error) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "dcwalk";
  app.applicationVersion = VK_MAKE_VERSION(0, 1, 0);
  app.pEngineName = "dcwalk";
  app.apiVersion = VK_API_VERSION_1_3;

  std::vector<const char*> extensions;
  for (const auto& e : desc.instanceExtensions) extensions.push_back(e.c_str());
  std::vector<const char*> layers;
  ctx.validationEnabled = desc.validation && hasLayer(VALIDATION_LAYER);
  if (desc.validation && !ctx.validationEnabled) {
    std::fprintf(stderr, "dcwalk: warning: %s is not installed; running without validation\n",
                 VALIDATION_LAYER);
  }
  VkDebugUtilsMessengerCreateInfoEXT messengerInfo = validationMessengerInfo();
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  if (ctx.validationEnabled) {
    layers.push_back(VALIDATION_LAYER);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    info.pNext = &messengerInfo;  // also catches errors in vkCreateInstance itself
  }
  info.pApplicationInfo = &app;
  info.enabledLayerCount = static_cast<uint32_t>(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  VkResult result = vkCreateInstance(&info, nullptr, &ctx.instance);
  if (result != VK_SUCCESS) {
    error = std::string("cannot create a Vulkan 1.3 instance (") + resultName(result) +
            "); is a Vulkan driver installed (mesa-vulkan-drivers)?";
    return false;
  }
  if (ctx.validationEnabled) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(ctx.instance, "vkCreateDebugUtilsMessengerEXT"));
    if (create) VK_CHECK(create(ctx.instance, &messengerInfo, nullptr, &ctx.messenger));
  }
  return true;
}

}  // namespace

bool createContext(const ContextDesc& desc, Context& ctx, std::string& error) {
  if (!createInstance(desc, ctx, error)) return false;
  if (desc.createSurface) {
    ctx.surface = desc.createSurface(ctx.instance);
    if (!ctx.surface) {
      error = "cannot create a window surface";
      return false;
    }
  }

  std::vector<VkPhysicalDevice> devices = enumerateDevices(ctx.instance);
  std::vector<std::string> names;
  VkPhysicalDevice chosen = VK_NULL_HANDLE;
  int bestRank = -1;
  for (size_t i = 0; i < devices.size(); ++i) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(devices[i], &props);
    names.push_back(std::string(props.deviceName) + " (" + deviceTypeName(props.deviceType) + ")");
    if (!supportsRequirements(devices[i], ctx.surface)) continue;
    const std::string& pref = desc.devicePreference;
    if (!pref.empty()) {
      bool isIndex = pref.find_first_not_of("0123456789") == std::string::npos;
      bool match = isIndex ? std::to_string(i) == pref
                           : std::string(props.deviceName).find(pref) != std::string::npos;
      if (match) {
        chosen = devices[i];
        break;
      }
      continue;
    }
    if (deviceTypeRank(props.deviceType) > bestRank) {
      bestRank = deviceTypeRank(props.deviceType);
      chosen = devices[i];
    }
  }
  if (!chosen) {
    std::string list;
    for (size_t i = 0; i < names.size(); ++i) list += "\n  " + std::to_string(i) + ": " + names[i];
    error = desc.devicePreference.empty()
                ? "no Vulkan 1.3 device with dynamic rendering and synchronization2" +
                      (list.empty() ? std::string(" (no device at all)") : ":" + list)
                : "no usable device matches --device '" + desc.devicePreference +
                      "'; devices:" + (list.empty() ? std::string(" none") : list);
    return false;
  }
  ctx.physicalDevice = chosen;
  vkGetPhysicalDeviceProperties(chosen, &ctx.properties);
  vkGetPhysicalDeviceMemoryProperties(chosen, &ctx.memoryProperties);
  ctx.queueFamily = static_cast<uint32_t>(findQueueFamily(chosen, ctx.surface));
  {
    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(chosen, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(chosen, &count, families.data());
    ctx.timestampsSupported = families[ctx.queueFamily].timestampValidBits > 0 &&
                              ctx.properties.limits.timestampPeriod > 0;
  }

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queueInfo.queueFamilyIndex = ctx.queueFamily;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;

  VkPhysicalDeviceFeatures available{};
  vkGetPhysicalDeviceFeatures(chosen, &available);
  ctx.occlusionQueryPrecise = available.occlusionQueryPrecise == VK_TRUE;
  ctx.pipelineStatisticsQuery = available.pipelineStatisticsQuery == VK_TRUE;
  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  f13.dynamicRendering = VK_TRUE;
  f13.synchronization2 = VK_TRUE;
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f13};
  features.features.occlusionQueryPrecise = available.occlusionQueryPrecise;
  features.features.pipelineStatisticsQuery = available.pipelineStatisticsQuery;

  std::vector<const char*> extensions;
  if (ctx.surface) extensions.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features};
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queueInfo;
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  VkResult result = vkCreateDevice(chosen, &info, nullptr, &ctx.device);
  if (result != VK_SUCCESS) {
    error = std::string("cannot create the Vulkan device (") + resultName(result) + ")";
    return false;
  }
  vkGetDeviceQueue(ctx.device, ctx.queueFamily, 0, &ctx.queue);
  return true;
}

void destroyContext(Context& ctx) {
  if (ctx.device) vkDestroyDevice(ctx.device, nullptr);
  if (ctx.surface) vkDestroySurfaceKHR(ctx.instance, ctx.surface, nullptr);
  if (ctx.messenger) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(ctx.instance, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy) destroy(ctx.instance, ctx.messenger, nullptr);
  }
  if (ctx.instance) vkDestroyInstance(ctx.instance, nullptr);
  ctx = Context{};
}

}  // namespace vkutil
