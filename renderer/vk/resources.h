// Buffers and images with their memory: one allocation per resource (the renderer holds few,
// large ones). Host-visible memory is mapped for its whole life.
#pragma once

#include <cstddef>

#include <vulkan/vulkan.h>

#include "renderer/vk/context.h"

namespace vkutil {

struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize size = 0;
  void* mapped = nullptr;  // non-null when host-visible
};

struct Image {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkExtent2D extent{};
};

/// A memory type index with all of `required` (and `preferred` when possible); -1 when none.
int findMemoryType(const Context& ctx, uint32_t typeBits, VkMemoryPropertyFlags required,
                   VkMemoryPropertyFlags preferred = 0);

/// A buffer in host-visible, coherent memory, mapped.
Buffer createHostBuffer(const Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage);
/// A buffer in device-local memory filled with `data`: mapped directly when that memory is also
/// host-visible (integrated / software devices), otherwise through a staging buffer and a copy.
Buffer createDeviceBuffer(const Context& ctx, VkCommandPool pool, const void* data,
                          VkDeviceSize size, VkBufferUsageFlags usage);
void destroyBuffer(const Context& ctx, Buffer& buffer);

/// Mip levels, array layers and samples of an image; `arrayView` makes its view a 2D array
/// (also with one layer, for shaders that declare sampler2DArray).
struct ImageShape {
  uint32_t mipLevels = 1;
  uint32_t layers = 1;
  bool arrayView = false;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
};

/// A 2D image (one mip level and layer unless `shape` says otherwise) and a view of all of it.
Image createImage2D(const Context& ctx, VkFormat format, VkExtent2D extent, VkImageUsageFlags usage,
                    VkImageAspectFlags aspect, const ImageShape& shape = {});
void destroyImage(const Context& ctx, Image& image);

/// Records into a fresh command buffer from `pool`, submits, and waits for it.
template <class Record>
void submitNow(const Context& ctx, VkCommandPool pool, Record&& record);
VkCommandBuffer beginOneTimeCommands(const Context& ctx, VkCommandPool pool);
void endOneTimeCommands(const Context& ctx, VkCommandPool pool, VkCommandBuffer cmd);

template <class Record>
void submitNow(const Context& ctx, VkCommandPool pool, Record&& record) {
  VkCommandBuffer cmd = beginOneTimeCommands(ctx, pool);
  record(cmd);
  endOneTimeCommands(ctx, pool, cmd);
}

/// A synchronization2 memory barrier on the whole of `buffer`.
void bufferBarrier(VkCommandBuffer cmd, VkBuffer buffer, VkPipelineStageFlags2 srcStage,
                   VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStage,
                   VkAccessFlags2 dstAccess);

/// A synchronization2 image layout transition on the whole image (every mip level and layer).
void transitionImage(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect,
                     VkImageLayout from, VkImageLayout to, VkPipelineStageFlags2 srcStage,
                     VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStage,
                     VkAccessFlags2 dstAccess);

}  // namespace vkutil
