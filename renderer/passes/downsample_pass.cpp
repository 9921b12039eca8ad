#include "renderer/passes/downsample_pass.h"

#include "renderer/vk/check.h"
#include "renderer/vk/descriptors.h"
#include "renderer/vk/pipeline.h"

namespace renderer {
namespace {

const uint32_t FULLSCREEN_VERT[] =
#include "shaders_spv/fullscreen.vert.inc"
    ;
const uint32_t DOWNSAMPLE_FRAG[] =
#include "shaders_spv/downsample.frag.inc"
    ;

struct Push {
  int32_t originX, originY;  // the tile's corner in the picture (pixels)
  int32_t factor;
  int32_t srgb;
};

}  // namespace

void DownsamplePass::create(const vkutil::Context& ctx, VkFormat format, bool srgb,
                            VkPipelineCache cache) {
  m_format = format;
  m_srgb = srgb;
  vkutil::SamplerDesc nearest;
  nearest.filter = VK_FILTER_NEAREST;  // texelFetch only
  m_sampler = vkutil::createSampler(ctx.device, nearest);
  m_setLayout = vkutil::createSetLayout(ctx.device, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER});
  m_pool = vkutil::createDescriptorPool(ctx.device, 1, 1);
  m_set = vkutil::allocateSet(ctx.device, m_pool, m_setLayout);
  VkPushConstantRange range{VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(Push)};
  VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.setLayoutCount = 1;
  info.pSetLayouts = &m_setLayout;
  info.pushConstantRangeCount = 1;
  info.pPushConstantRanges = &range;
  VK_CHECK(vkCreatePipelineLayout(ctx.device, &info, nullptr, &m_layout));
  VkShaderModule vert =
      vkutil::createShaderModule(ctx.device, FULLSCREEN_VERT, sizeof(FULLSCREEN_VERT));
  VkShaderModule frag =
      vkutil::createShaderModule(ctx.device, DOWNSAMPLE_FRAG, sizeof(DOWNSAMPLE_FRAG));
  vkutil::GraphicsPipelineDesc desc;
  desc.vertex = vert;
  desc.fragment = frag;
  desc.layout = m_layout;
  desc.colorFormat = format;
  desc.cullMode = VK_CULL_MODE_NONE;
  desc.cache = cache;
  m_pipeline = vkutil::createGraphicsPipeline(ctx.device, desc);
  for (VkShaderModule m : {vert, frag}) vkDestroyShaderModule(ctx.device, m, nullptr);
}

void DownsamplePass::destroy(const vkutil::Context& ctx) {
  if (m_pipeline) vkDestroyPipeline(ctx.device, m_pipeline, nullptr);
  if (m_layout) vkDestroyPipelineLayout(ctx.device, m_layout, nullptr);
  if (m_pool) vkDestroyDescriptorPool(ctx.device, m_pool, nullptr);
  if (m_setLayout) vkDestroyDescriptorSetLayout(ctx.device, m_setLayout, nullptr);
  if (m_sampler) vkDestroySampler(ctx.device, m_sampler, nullptr);
  vkutil::destroyImage(ctx, m_tile);
  *this = DownsamplePass{};
}

void DownsamplePass::resize(const vkutil::Context& ctx, VkExtent2D extent) {
  if (m_tile.image && m_tile.extent.width == extent.width &&
      m_tile.extent.height == extent.height) {
    return;
  }
  vkutil::destroyImage(ctx, m_tile);
  m_tile = vkutil::createImage2D(ctx, m_format, extent,
                                 VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                                 VK_IMAGE_ASPECT_COLOR_BIT);
  vkutil::writeImage(ctx.device, m_set, 0, m_sampler, m_tile.view);
}

void DownsamplePass::beginTile(VkCommandBuffer cmd) const {
  // The previous tile's contents were read by the downsample's fragment shader: wait for it.
  vkutil::transitionImage(cmd, m_tile.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                          VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                          VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_NONE,
                          VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                          VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
}

void DownsamplePass::record(VkCommandBuffer cmd, VkImageView picture, VkRect2D area,
                            uint32_t factor) const {
  vkutil::transitionImage(
      cmd, m_tile.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
      VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
      VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
      VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
  VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  color.imageView = picture;
  color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  color.loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;  // every pixel of the area is written
  color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
  rendering.renderArea = area;
  rendering.layerCount = 1;
  rendering.colorAttachmentCount = 1;
  rendering.pColorAttachments = &color;
  vkCmdBeginRendering(cmd, &rendering);
  const VkViewport viewport{float(area.offset.x),
                            float(area.offset.y),
                            float(area.extent.width),
                            float(area.extent.height),
                            0,
                            1};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &area);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, m_pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, m_layout, 0, 1, &m_set, 0, nullptr);
  const Push push{area.offset.x, area.offset.y, int32_t(factor), m_srgb ? 1 : 0};
  vkCmdPushConstants(cmd, m_layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(push), &push);
  vkCmdDraw(cmd, 3, 1, 0, 0);
  vkCmdEndRendering(cmd);
}

}  // namespace renderer
