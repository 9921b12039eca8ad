// A pipeline cache kept in the user's cache directory between runs, so start-up does not
// recompile shaders. A missing, truncated, corrupt or foreign (other device/driver) file is
// ignored and replaced; the file is written by the caller's writer (the app's atomic one).
#pragma once

#include <filesystem>
#include <functional>
#include <string_view>
#include <vector>

#include <vulkan/vulkan.h>

#include "renderer/vk/context.h"

namespace vkutil {

/// $DCWALK_CACHE_DIR, else $XDG_CACHE_HOME/dcwalk, else ~/.cache/dcwalk; empty if none.
std::filesystem::path defaultCacheDir();

/// True when `data` is a cache this device and driver can use (header checked field by field).
bool pipelineCacheMatchesDevice(const Context& ctx, const std::vector<char>& data);

/// Creates a pipeline cache seeded from `file` when it is valid for this device.
VkPipelineCache loadPipelineCache(const Context& ctx, const std::filesystem::path& file);
/// Hands the cache's data for `file` to `save` (which writes it, atomically), creating the
/// folder; false when there is nothing to save or it could not (never fatal).
bool savePipelineCache(
    const Context& ctx, VkPipelineCache cache, const std::filesystem::path& file,
    const std::function<bool(const std::filesystem::path&, std::string_view)>& save);

}  // namespace vkutil
