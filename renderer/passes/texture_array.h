// The base colour images of imported models as one sampled 2D array texture (lavapipe has no
// descriptor indexing, so one binding must hold them all): every image resampled to one square
// layer size, with a full mip chain; layer 0 is plain white for everything untextured.
#pragma once

#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

#include "renderer/vk/context.h"
#include "renderer/vk/resources.h"
#include "world/scene/render_list.h"

namespace renderer {

/// Limits of the packed array.
struct TextureArrayLimits {
  uint32_t maxLayerSize = 1024;           // pixels, square, power of two
  uint64_t maxTotalBytes = 256ull << 20;  // every layer and mip together: the layer size halves
  uint32_t maxLayers = 256;               // (the device's own limit applies too)
};

/// The array's pixels on the CPU: for each mip level (largest first), every layer in order,
/// RGBA8 sRGB rows top to bottom.
struct PackedTextures {
  uint32_t layerSize = 1;  // width = height of mip 0
  uint32_t layers = 1;     // white + one per image kept
  uint32_t mipLevels = 1;
  std::vector<uint8_t> bytes;
  std::vector<uint64_t> mipOffsets;  // byte offset of each mip level in `bytes`
};

/// Packs `library` (layer i + 1 = image i; images beyond the limits are left out, so they
/// sample as the array's last layer): the layer size is the largest image side rounded up to a
/// power of two, within the limits; images are resampled bilinearly, mips are 2x2 averages in
/// linear light.
PackedTextures packTextures(const world::TextureLibrary& library, const TextureArrayLimits& limits);

/// The GPU side: image, view, sampler and the descriptor set the scene pipeline binds at set 0.
class TextureArray {
 public:
  /// Creates the descriptor set layout, pool, sampler and set, and uploads a white layer.
  void create(const vkutil::Context& ctx, VkCommandPool pool);
  void destroy(const vkutil::Context& ctx);
  /// Replaces the image with `library` packed (the device must be idle).
  void upload(const vkutil::Context& ctx, VkCommandPool pool, const world::TextureLibrary& library);
  uint64_t uploadedRevision() const { return m_revision; }
  VkDescriptorSetLayout layout() const { return m_layout; }
  VkDescriptorSet set() const { return m_set; }

 private:
  void uploadPacked(const vkutil::Context& ctx, VkCommandPool pool, const PackedTextures& packed);

  VkDescriptorSetLayout m_layout = VK_NULL_HANDLE;
  VkDescriptorPool m_pool = VK_NULL_HANDLE;
  VkDescriptorSet m_set = VK_NULL_HANDLE;
  VkSampler m_sampler = VK_NULL_HANDLE;
  vkutil::Image m_image;
  uint64_t m_revision = 0;
};

}  // namespace renderer
