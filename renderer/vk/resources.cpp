#include "renderer/vk/resources.h"

#include <cstring>

#include "renderer/vk/check.h"

namespace vkutil {

int findMemoryType(const Context& ctx, uint32_t typeBits, VkMemoryPropertyFlags required,
                   VkMemoryPropertyFlags preferred) {
  int fallback = -1;
  for (uint32_t i = 0; i < ctx.memoryProperties.memoryTypeCount; ++i) {
    if (!(typeBits & (1u << i))) continue;
    VkMemoryPropertyFlags flags = ctx.memoryProperties.memoryTypes[i].propertyFlags;
    if ((flags & required) != required) continue;
    if ((flags & preferred) == preferred) return static_cast<int>(i);
    if (fallback < 0) fallback = static_cast<int>(i);
  }
  return fallback;
}

namespace {

Buffer allocateBuffer(const Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage,
                      VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) {
  Buffer b;
  b.size = size;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VK_CHECK(vkCreateBuffer(ctx.device, &info, nullptr, &b.buffer));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(ctx.device, b.buffer, &req);
  int type = findMemoryType(ctx, req.memoryTypeBits, required, preferred);
  if (type < 0) VK_CHECK(VK_ERROR_OUT_OF_DEVICE_MEMORY);
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = static_cast<uint32_t>(type);
  VK_CHECK(vkAllocateMemory(ctx.device, &alloc, nullptr, &b.memory));
  VK_CHECK(vkBindBufferMemory(ctx.device, b.buffer, b.memory, 0));
  if (ctx.memoryProperties.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
    VK_CHECK(vkMapMemory(ctx.device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped));
  }
  return b;
}

}  // namespace

Buffer createHostBuffer(const Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage) {
  return allocateBuffer(ctx, size, usage,
                        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                        0);
}

Buffer createDeviceBuffer(const Context& ctx, VkCommandPool pool, const void* data,
                          VkDeviceSize size, VkBufferUsageFlags usage) {
  Buffer b = allocateBuffer(ctx, size, usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                            VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
  if (b.mapped) {
    // Device-local and host-visible (software and integrated devices): write in place. Memory
    // may be non-coherent, so flush the whole range.
    std::memcpy(b.mapped, data, size);
    VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
    range.memory = b.memory;
    range.size = VK_WHOLE_SIZE;
    VK_CHECK(vkFlushMappedMemoryRanges(ctx.device, 1, &range));
    return b;
  }
  Buffer staging = createHostBuffer(ctx, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  std::memcpy(staging.mapped, data, size);
  submitNow(ctx, pool, [&](VkCommandBuffer cmd) {
    VkBufferCopy copy{0, 0, size};
    vkCmdCopyBuffer(cmd, staging.buffer, b.buffer, 1, &copy);
  });
  destroyBuffer(ctx, staging);
  return b;
}

void destroyBuffer(const Context& ctx, Buffer& b) {
  if (b.buffer) vkDestroyBuffer(ctx.device, b.buffer, nullptr);
  if (b.memory) vkFreeMemory(ctx.device, b.memory, nullptr);
  b = Buffer{};
}

Image createImage2D(const Context& ctx, VkFormat format, VkExtent2D extent, VkImageUsageFlags usage,
                    VkImageAspectFlags aspect, const ImageShape& shape) {
  Image img;
  img.format = format;
  img.extent = extent;
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {extent.width, extent.height, 1};
  info.mipLevels = shape.mipLevels;
  info.arrayLayers = shape.layers;
  info.samples = shape.samples;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  VK_CHECK(vkCreateImage(ctx.device, &info, nullptr, &img.image));
  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(ctx.device, img.image, &req);
  int type = findMemoryType(ctx, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (type < 0) type = findMemoryType(ctx, req.memoryTypeBits, 0);
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = static_cast<uint32_t>(type);
  VK_CHECK(vkAllocateMemory(ctx.device, &alloc, nullptr, &img.memory));
  VK_CHECK(vkBindImageMemory(ctx.device, img.image, img.memory, 0));
  VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view.image = img.image;
  view.viewType = shape.arrayView ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
  view.format = format;
  view.subresourceRange = {aspect, 0, shape.mipLevels, 0, shape.layers};
  VK_CHECK(vkCreateImageView(ctx.device, &view, nullptr, &img.view));
  return img;
}

void destroyImage(const Context& ctx, Image& img) {
  if (img.view) vkDestroyImageView(ctx.device, img.view, nullptr);
  if (img.image) vkDestroyImage(ctx.device, img.image, nullptr);
  if (img.memory) vkFreeMemory(ctx.device, img.memory, nullptr);
  img = Image{};
}

VkCommandBuffer beginOneTimeCommands(const Context& ctx, VkCommandPool pool) {
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = pool;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cmd;
  VK_CHECK(vkAllocateCommandBuffers(ctx.device, &alloc, &cmd));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
  return cmd;
}

void endOneTimeCommands(const Context& ctx, VkCommandPool pool, VkCommandBuffer cmd) {
  VK_CHECK(vkEndCommandBuffer(cmd));
  VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  VK_CHECK(vkCreateFence(ctx.device, &fenceInfo, nullptr, &fence));
  VkCommandBufferSubmitInfo cmdInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
  cmdInfo.commandBuffer = cmd;
  VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  submit.commandBufferInfoCount = 1;
  submit.pCommandBufferInfos = &cmdInfo;
  VK_CHECK(queueSubmit(ctx.queue, submit, fence));
  VK_WAIT_FENCE(ctx.device, fence);
  vkDestroyFence(ctx.device, fence, nullptr);
  vkFreeCommandBuffers(ctx.device, pool, 1, &cmd);
}

void bufferBarrier(VkCommandBuffer cmd, VkBuffer buffer, VkPipelineStageFlags2 srcStage,
                   VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStage,
                   VkAccessFlags2 dstAccess) {
  VkBufferMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2};
  barrier.srcStageMask = srcStage;
  barrier.srcAccessMask = srcAccess;
  barrier.dstStageMask = dstStage;
  barrier.dstAccessMask = dstAccess;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.buffer = buffer;
  barrier.size = VK_WHOLE_SIZE;
  VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dependency.bufferMemoryBarrierCount = 1;
  dependency.pBufferMemoryBarriers = &barrier;
  vkCmdPipelineBarrier2(cmd, &dependency);
}

void transitionImage(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect,
                     VkImageLayout from, VkImageLayout to, VkPipelineStageFlags2 srcStage,
                     VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStage,
                     VkAccessFlags2 dstAccess) {
  VkImageMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
  barrier.srcStageMask = srcStage;
  barrier.srcAccessMask = srcAccess;
  barrier.dstStageMask = dstStage;
  barrier.dstAccessMask = dstAccess;
  barrier.oldLayout = from;
  barrier.newLayout = to;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = image;
  barrier.subresourceRange = {aspect, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS};
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.imageMemoryBarrierCount = 1;
  dep.pImageMemoryBarriers = &barrier;
  vkCmdPipelineBarrier2(cmd, &dep);
}

}  // namespace vkutil
