// A pipeline cache kept in the user's cache directory between runs, so start-up does not
// recompile shaders. A missing, truncated, corrupt or foreign (other device/driver) file is
// ignored and replaced; the file is written atomically (temporary file, fsync, rename).
#pragma once

#include <filesystem>
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
/// Writes the cache's data to `file` atomically; false when it could not (never fatal).
bool savePipelineCache(const Context& ctx, VkPipelineCache cache,
                       const std::filesystem::path& file);

}  // namespace vkutil
