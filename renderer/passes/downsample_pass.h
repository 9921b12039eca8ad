// A supersampled still's tiles (Renderer::renderToPixels with a StillSpec): the image one tile of
// the N-times-larger frame is drawn into, and the pass that box-filters it down by N into its
// rectangle of the picture (shaders/downsample.frag), in linear light.
#pragma once

#include <cstdint>

#include <vulkan/vulkan.h>

#include "renderer/vk/context.h"
#include "renderer/vk/resources.h"

namespace renderer {

class DownsamplePass {
 public:
  /// `format`: the tile's and the picture's (the scene pass's colour format); `srgb`: it holds
  /// sRGB-encoded values (the low preset's UNORM target), decoded before averaging.
  void create(const vkutil::Context& ctx, VkFormat format, bool srgb, VkPipelineCache cache);
  void destroy(const vkutil::Context& ctx);
  /// (Re)creates the tile image at `extent` (the device must be idle); nothing when it has it.
  void resize(const vkutil::Context& ctx, VkExtent2D extent);
  VkExtent2D extent() const { return m_tile.extent; }
  /// Makes the tile image a colour attachment for the next tile (after the last one's reads).
  void beginTile(VkCommandBuffer cmd) const;
  VkImageView tileView() const { return m_tile.view; }
  /// After the tile's scene pass: box-filters the tile's top-left `factor` * `area` pixels into
  /// `area` of `picture` (a colour attachment of the same format).
  void record(VkCommandBuffer cmd, VkImageView picture, VkRect2D area, uint32_t factor) const;

 private:
  VkFormat m_format = VK_FORMAT_UNDEFINED;
  bool m_srgb = false;
  vkutil::Image m_tile;
  VkSampler m_sampler = VK_NULL_HANDLE;
  VkDescriptorSetLayout m_setLayout = VK_NULL_HANDLE;
  VkDescriptorPool m_pool = VK_NULL_HANDLE;
  VkDescriptorSet m_set = VK_NULL_HANDLE;
  VkPipelineLayout m_layout = VK_NULL_HANDLE;
  VkPipeline m_pipeline = VK_NULL_HANDLE;
};

}  // namespace renderer
