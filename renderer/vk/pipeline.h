// Shader modules from embedded SPIR-V and graphics pipelines for dynamic rendering.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

namespace vkutil {

VkShaderModule createShaderModule(VkDevice device, const uint32_t* code, size_t sizeBytes);

struct GraphicsPipelineDesc {
  VkShaderModule vertex = VK_NULL_HANDLE;
  VkShaderModule fragment = VK_NULL_HANDLE;  // none: depth only

  std::vector<VkVertexInputBindingDescription> bindings;
  std::vector<VkVertexInputAttributeDescription> attributes;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkFormat colorFormat = VK_FORMAT_UNDEFINED;  // UNDEFINED: no colour attachment
  bool additiveBlend = false;                  // colour = source + destination
  VkFormat depthFormat = VK_FORMAT_UNDEFINED;  // UNDEFINED: no depth attachment
  bool depthTest = true;
  bool depthWrite = true;
  VkCompareOp depthCompare = VK_COMPARE_OP_GREATER_OR_EQUAL;  // reverse-Z
  VkCullModeFlags cullMode = VK_CULL_MODE_BACK_BIT;
  VkPipelineCache cache = VK_NULL_HANDLE;
  const VkSpecializationInfo* fragmentSpecialization = nullptr;  // the fragment shader's constants
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;         // of the attachments (MSAA)
};

/// A pipeline with dynamic viewport and scissor, at most one colour attachment, optional depth.
VkPipeline createGraphicsPipeline(VkDevice device, const GraphicsPipelineDesc& desc);

}  // namespace vkutil
