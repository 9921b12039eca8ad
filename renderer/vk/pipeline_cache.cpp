#include "renderer/vk/pipeline_cache.h"

#include <cstdlib>
#include <cstring>
#include <fstream>

#include "renderer/vk/check.h"

namespace vkutil {

std::filesystem::path defaultCacheDir() {
  if (const char* dir = std::getenv("DCWALK_CACHE_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    return std::filesystem::path(xdg) / "dcwalk";
  }
  if (const char* home = std::getenv("HOME"); home && *home) {
    return std::filesystem::path(home) / ".cache" / "dcwalk";
  }
  return {};
}

bool pipelineCacheMatchesDevice(const Context& ctx, const std::vector<char>& data) {
  // VkPipelineCacheHeaderVersionOne: length, version, vendorID, deviceID, pipelineCacheUUID.
  VkPipelineCacheHeaderVersionOne header{};
  if (data.size() < sizeof(header)) return false;
  std::memcpy(&header, data.data(), sizeof(header));
  return header.headerSize >= sizeof(header) && header.headerSize <= data.size() &&
         header.headerVersion == VK_PIPELINE_CACHE_HEADER_VERSION_ONE &&
         header.vendorID == ctx.properties.vendorID && header.deviceID == ctx.properties.deviceID &&
         std::memcmp(header.pipelineCacheUUID, ctx.properties.pipelineCacheUUID, VK_UUID_SIZE) == 0;
}

VkPipelineCache loadPipelineCache(const Context& ctx, const std::filesystem::path& file) {
  std::vector<char> data;
  std::error_code ec;
  const auto size = file.empty() ? 0 : std::filesystem::file_size(file, ec);
  constexpr uintmax_t MAX_CACHE_BYTES = 256u << 20;  // a larger file is not ours
  if (!ec && size > 0 && size <= MAX_CACHE_BYTES) {
    std::ifstream in(file, std::ios::binary);
    data.resize(size);
    if (!in.read(data.data(), std::streamsize(size))) data.clear();
  }
  if (!pipelineCacheMatchesDevice(ctx, data)) data.clear();
  VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  info.initialDataSize = data.size();
  info.pInitialData = data.empty() ? nullptr : data.data();
  VkPipelineCache cache = VK_NULL_HANDLE;
  if (vkCreatePipelineCache(ctx.device, &info, nullptr, &cache) != VK_SUCCESS) {
    // A driver may still reject data whose header matched: start empty instead.
    info.initialDataSize = 0;
    info.pInitialData = nullptr;
    VK_CHECK(vkCreatePipelineCache(ctx.device, &info, nullptr, &cache));
  }
  return cache;
}

bool savePipelineCache(
    const Context& ctx, VkPipelineCache cache, const std::filesystem::path& file,
    const std::function<bool(const std::filesystem::path&, std::string_view)>& save) {
  if (file.empty() || !cache || !save) return false;
  size_t size = 0;
  if (vkGetPipelineCacheData(ctx.device, cache, &size, nullptr) != VK_SUCCESS || size == 0)
    return false;
  std::vector<char> data(size);
  if (vkGetPipelineCacheData(ctx.device, cache, &size, data.data()) != VK_SUCCESS) return false;
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  return save(file, std::string_view(data.data(), size));
}

}  // namespace vkutil
