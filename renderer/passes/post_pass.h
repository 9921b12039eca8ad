// The high preset's post-processing: the scene is drawn linear into a float image whose alpha
// says how much of each pixel glows; bloom blurs the glowing part through a chain of half-size
// levels (downsample, then upsample-and-add), and the composite adds it to the scene and encodes
// sRGB into the target.
#pragma once

#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

#include "renderer/vk/context.h"
#include "renderer/vk/resources.h"

namespace renderer {

class PostPass {
 public:
  static constexpr VkFormat HDR_FORMAT = VK_FORMAT_R16G16B16A16_SFLOAT;
  static constexpr uint32_t MAX_BLOOM_LEVELS = 6;
  /// Bloom added on top of the scene: the summed levels times this.
  static constexpr float BLOOM_STRENGTH = 0.25f;

  void create(const vkutil::Context& ctx, VkFormat targetFormat, VkPipelineCache cache);
  void destroy(const vkutil::Context& ctx);
  /// (Re)creates the images for `extent` (the device must be idle).
  void resize(const vkutil::Context& ctx, VkExtent2D extent);
  /// The size the images were made for ({0, 0} before the first resize).
  VkExtent2D extent() const { return m_scene.extent; }
  /// The image the scene pass draws into (or resolves into, with MSAA).
  VkImageView sceneView() const { return m_scene.view; }
  /// Makes the scene image a colour attachment for this frame (its old contents dropped).
  void beginScene(VkCommandBuffer cmd) const;
  /// After the scene pass: bloom, then the composite into `target` (a colour attachment).
  void record(VkCommandBuffer cmd, VkImageView target, VkExtent2D extent) const;

 private:
  void drawFullScreen(VkCommandBuffer cmd, VkImageView target, VkExtent2D extent, bool load,
                      VkPipeline pipeline, VkPipelineLayout layout, VkDescriptorSet set,
                      const float push[4]) const;

  vkutil::Image m_scene;
  std::vector<vkutil::Image> m_levels;  // half, quarter, ... of the target
  VkSampler m_sampler = VK_NULL_HANDLE;
  VkDescriptorSetLayout m_oneImage = VK_NULL_HANDLE;
  VkDescriptorSetLayout m_twoImages = VK_NULL_HANDLE;
  VkDescriptorPool m_pool = VK_NULL_HANDLE;
  VkDescriptorSet m_sceneSet = VK_NULL_HANDLE;         // samples the scene
  VkDescriptorSet m_levelSets[MAX_BLOOM_LEVELS] = {};  // set i samples level i
  VkDescriptorSet m_compositeSet = VK_NULL_HANDLE;     // the scene and level 0
  VkPipelineLayout m_blurLayout = VK_NULL_HANDLE;
  VkPipelineLayout m_compositeLayout = VK_NULL_HANDLE;
  VkPipeline m_prefilter = VK_NULL_HANDLE;  // scene -> level 0, weighted by alpha
  VkPipeline m_down = VK_NULL_HANDLE;
  VkPipeline m_up = VK_NULL_HANDLE;  // additive
  VkPipeline m_composite = VK_NULL_HANDLE;
};

}  // namespace renderer
