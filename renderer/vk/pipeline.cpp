#include "renderer/vk/pipeline.h"

#include "renderer/vk/check.h"

namespace vkutil {

VkShaderModule createShaderModule(VkDevice device, const uint32_t* code, size_t sizeBytes) {
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = sizeBytes;
  info.pCode = code;
  VkShaderModule module;
  VK_CHECK(vkCreateShaderModule(device, &info, nullptr, &module));
  return module;
}

VkPipeline createGraphicsPipeline(VkDevice device, const GraphicsPipelineDesc& desc) {
  VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = desc.vertex;
  stages[0].pName = "main";
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = desc.fragment;
  stages[1].pName = "main";
  stages[1].pSpecializationInfo = desc.fragmentSpecialization;

  VkPipelineVertexInputStateCreateInfo vertexInput{
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  vertexInput.vertexBindingDescriptionCount = static_cast<uint32_t>(desc.bindings.size());
  vertexInput.pVertexBindingDescriptions = desc.bindings.data();
  vertexInput.vertexAttributeDescriptionCount = static_cast<uint32_t>(desc.attributes.size());
  vertexInput.pVertexAttributeDescriptions = desc.attributes.data();

  VkPipelineInputAssemblyStateCreateInfo inputAssembly{
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  inputAssembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;

  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;

  VkPipelineRasterizationStateCreateInfo raster{
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = desc.cullMode;
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.0f;

  VkPipelineMultisampleStateCreateInfo multisample{
      VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = desc.samples;

  VkPipelineDepthStencilStateCreateInfo depth{
      VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  depth.depthTestEnable = desc.depthTest;
  depth.depthWriteEnable = desc.depthWrite;
  depth.depthCompareOp = desc.depthCompare;

  VkPipelineColorBlendAttachmentState blendAttachment{};
  if (desc.additiveBlend) {
    blendAttachment.blendEnable = VK_TRUE;
    blendAttachment.srcColorBlendFactor = VK_BLEND_FACTOR_ONE;
    blendAttachment.dstColorBlendFactor = VK_BLEND_FACTOR_ONE;
    blendAttachment.colorBlendOp = VK_BLEND_OP_ADD;
    blendAttachment.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    blendAttachment.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    blendAttachment.alphaBlendOp = VK_BLEND_OP_ADD;
  }
  blendAttachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                   VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  VkPipelineColorBlendStateCreateInfo blend{
      VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  const bool hasColor = desc.colorFormat != VK_FORMAT_UNDEFINED;
  blend.attachmentCount = hasColor ? 1 : 0;
  blend.pAttachments = hasColor ? &blendAttachment : nullptr;

  VkDynamicState dynamicStates[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dynamic.dynamicStateCount = 2;
  dynamic.pDynamicStates = dynamicStates;

  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  rendering.colorAttachmentCount = hasColor ? 1 : 0;
  rendering.pColorAttachmentFormats = hasColor ? &desc.colorFormat : nullptr;
  rendering.depthAttachmentFormat = desc.depthFormat;

  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
  info.stageCount = desc.fragment ? 2 : 1;
  info.pStages = stages;
  info.pVertexInputState = &vertexInput;
  info.pInputAssemblyState = &inputAssembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = desc.depthFormat != VK_FORMAT_UNDEFINED ? &depth : nullptr;
  info.pColorBlendState = &blend;
  info.pDynamicState = &dynamic;
  info.layout = desc.layout;
  VkPipeline pipeline;
  VK_CHECK(vkCreateGraphicsPipelines(device, desc.cache, 1, &info, nullptr, &pipeline));
  return pipeline;
}

}  // namespace vkutil
