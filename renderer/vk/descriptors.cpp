#include "renderer/vk/descriptors.h"

#include <vector>

#include "renderer/vk/check.h"

namespace vkutil {

VkDescriptorSetLayout createSetLayout(VkDevice device,
                                      std::initializer_list<VkDescriptorType> types) {
  std::vector<VkDescriptorSetLayoutBinding> bindings;
  for (VkDescriptorType type : types) {
    bindings.push_back(
        {static_cast<uint32_t>(bindings.size()), type, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr});
  }
  VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  info.bindingCount = static_cast<uint32_t>(bindings.size());
  info.pBindings = bindings.data();
  VkDescriptorSetLayout layout;
  VK_CHECK(vkCreateDescriptorSetLayout(device, &info, nullptr, &layout));
  return layout;
}

VkDescriptorPool createDescriptorPool(VkDevice device, uint32_t maxSets, uint32_t images,
                                      uint32_t uniforms) {
  std::vector<VkDescriptorPoolSize> sizes;
  if (images) sizes.push_back({VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, images});
  if (uniforms) sizes.push_back({VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, uniforms});
  VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  info.maxSets = maxSets;
  info.poolSizeCount = static_cast<uint32_t>(sizes.size());
  info.pPoolSizes = sizes.data();
  VkDescriptorPool pool;
  VK_CHECK(vkCreateDescriptorPool(device, &info, nullptr, &pool));
  return pool;
}

VkDescriptorSet allocateSet(VkDevice device, VkDescriptorPool pool, VkDescriptorSetLayout layout) {
  VkDescriptorSetAllocateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  info.descriptorPool = pool;
  info.descriptorSetCount = 1;
  info.pSetLayouts = &layout;
  VkDescriptorSet set;
  VK_CHECK(vkAllocateDescriptorSets(device, &info, &set));
  return set;
}

void writeImage(VkDevice device, VkDescriptorSet set, uint32_t binding, VkSampler sampler,
                VkImageView view) {
  VkDescriptorImageInfo image{sampler, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.dstBinding = binding;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  write.pImageInfo = &image;
  vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
}

void writeUniform(VkDevice device, VkDescriptorSet set, uint32_t binding, VkBuffer buffer,
                  VkDeviceSize bytes) {
  VkDescriptorBufferInfo info{buffer, 0, bytes};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.dstBinding = binding;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  write.pBufferInfo = &info;
  vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
}

VkSampler createSampler(VkDevice device, const SamplerDesc& desc) {
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.magFilter = desc.filter;
  info.minFilter = desc.filter;
  info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  info.addressModeU = desc.address;
  info.addressModeV = desc.address;
  info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  info.maxLod = desc.mipmaps ? VK_LOD_CLAMP_NONE : 0.0f;
  info.compareEnable = desc.compareLessOrEqual ? VK_TRUE : VK_FALSE;
  info.compareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
  info.borderColor = desc.border;
  VkSampler sampler;
  VK_CHECK(vkCreateSampler(device, &info, nullptr, &sampler));
  return sampler;
}

}  // namespace vkutil
