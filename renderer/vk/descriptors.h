// Descriptor set layouts, pools, sets and samplers in the few shapes the passes use: every
// binding is seen by the fragment stage, one descriptor per binding.
#pragma once

#include <cstdint>
#include <initializer_list>

#include <vulkan/vulkan.h>

namespace vkutil {

/// A set layout whose binding i has type types[i] (one descriptor, fragment stage).
VkDescriptorSetLayout createSetLayout(VkDevice device,
                                      std::initializer_list<VkDescriptorType> types);
/// A pool for `maxSets` sets holding at most `images` combined image samplers and `uniforms`
/// uniform buffers in all.
VkDescriptorPool createDescriptorPool(VkDevice device, uint32_t maxSets, uint32_t images,
                                      uint32_t uniforms = 0);
VkDescriptorSet allocateSet(VkDevice device, VkDescriptorPool pool, VkDescriptorSetLayout layout);
/// Points `binding` of `set` at a sampled image in SHADER_READ_ONLY_OPTIMAL layout.
void writeImage(VkDevice device, VkDescriptorSet set, uint32_t binding, VkSampler sampler,
                VkImageView view);
/// Points `binding` of `set` at the first `bytes` of a uniform buffer.
void writeUniform(VkDevice device, VkDescriptorSet set, uint32_t binding, VkBuffer buffer,
                  VkDeviceSize bytes);

struct SamplerDesc {
  VkFilter filter = VK_FILTER_LINEAR;
  VkSamplerAddressMode address = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;  // u and v; w clamps
  bool mipmaps = false;             // linear between mip levels, no LOD clamp
  bool compareLessOrEqual = false;  // a depth-compare sampler (sampler2DShadow)
  VkBorderColor border = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;  // for CLAMP_TO_BORDER
};
VkSampler createSampler(VkDevice device, const SamplerDesc& desc);

}  // namespace vkutil
