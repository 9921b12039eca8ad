#include "renderer/passes/post_pass.h"

#include <algorithm>

#include "renderer/vk/check.h"
#include "renderer/vk/descriptors.h"
#include "renderer/vk/pipeline.h"

namespace renderer {
namespace {

const uint32_t FULLSCREEN_VERT[] =
#include "shaders_spv/fullscreen.vert.inc"
    ;
const uint32_t BLOOM_DOWN_FRAG[] =
#include "shaders_spv/bloom_down.frag.inc"
    ;
const uint32_t BLOOM_UP_FRAG[] =
#include "shaders_spv/bloom_up.frag.inc"
    ;
const uint32_t COMPOSITE_FRAG[] =
#include "shaders_spv/composite.frag.inc"
    ;

constexpr uint32_t PUSH_BYTES = 4 * sizeof(float);

VkPipelineLayout createLayout(VkDevice device, VkDescriptorSetLayout set) {
  VkPushConstantRange range{VK_SHADER_STAGE_FRAGMENT_BIT, 0, PUSH_BYTES};
  VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.setLayoutCount = 1;
  info.pSetLayouts = &set;
  info.pushConstantRangeCount = 1;
  info.pPushConstantRanges = &range;
  VkPipelineLayout layout;
  VK_CHECK(vkCreatePipelineLayout(device, &info, nullptr, &layout));
  return layout;
}

// Sampled by a fragment shader before (or in an earlier frame): now a colour attachment.
void toAttachment(VkCommandBuffer cmd, VkImage image, bool keepContents) {
  vkutil::transitionImage(
      cmd, image, VK_IMAGE_ASPECT_COLOR_BIT,
      keepContents ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL : VK_IMAGE_LAYOUT_UNDEFINED,
      VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
      VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
      VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
}

void toSampled(VkCommandBuffer cmd, VkImage image) {
  vkutil::transitionImage(
      cmd, image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
      VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
      VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
      VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
}

}  // namespace

void PostPass::create(const vkutil::Context& ctx, VkFormat targetFormat, VkPipelineCache cache) {
  m_sampler = vkutil::createSampler(ctx.device, {});
  m_oneImage = vkutil::createSetLayout(ctx.device, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER});
  m_twoImages = vkutil::createSetLayout(ctx.device, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                                     VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER});
  m_pool = vkutil::createDescriptorPool(ctx.device, MAX_BLOOM_LEVELS + 2, MAX_BLOOM_LEVELS + 3);
  m_sceneSet = vkutil::allocateSet(ctx.device, m_pool, m_oneImage);
  for (VkDescriptorSet& set : m_levelSets)
    set = vkutil::allocateSet(ctx.device, m_pool, m_oneImage);
  m_compositeSet = vkutil::allocateSet(ctx.device, m_pool, m_twoImages);
  m_blurLayout = createLayout(ctx.device, m_oneImage);
  m_compositeLayout = createLayout(ctx.device, m_twoImages);

  VkShaderModule vert =
      vkutil::createShaderModule(ctx.device, FULLSCREEN_VERT, sizeof(FULLSCREEN_VERT));
  VkShaderModule down =
      vkutil::createShaderModule(ctx.device, BLOOM_DOWN_FRAG, sizeof(BLOOM_DOWN_FRAG));
  VkShaderModule up = vkutil::createShaderModule(ctx.device, BLOOM_UP_FRAG, sizeof(BLOOM_UP_FRAG));
  VkShaderModule composite =
      vkutil::createShaderModule(ctx.device, COMPOSITE_FRAG, sizeof(COMPOSITE_FRAG));
  vkutil::GraphicsPipelineDesc desc;
  desc.vertex = vert;
  desc.layout = m_blurLayout;
  desc.colorFormat = HDR_FORMAT;
  desc.cullMode = VK_CULL_MODE_NONE;
  desc.cache = cache;
  desc.fragment = down;
  const VkSpecializationMapEntry entry{0, 0, sizeof(VkBool32)};
  const VkBool32 prefilter = VK_TRUE;
  const VkSpecializationInfo specialization{1, &entry, sizeof(prefilter), &prefilter};
  desc.fragmentSpecialization = &specialization;
  m_prefilter = vkutil::createGraphicsPipeline(ctx.device, desc);
  desc.fragmentSpecialization = nullptr;
  m_down = vkutil::createGraphicsPipeline(ctx.device, desc);
  desc.fragment = up;
  desc.additiveBlend = true;
  m_up = vkutil::createGraphicsPipeline(ctx.device, desc);
  desc.fragment = composite;
  desc.additiveBlend = false;
  desc.layout = m_compositeLayout;
  desc.colorFormat = targetFormat;
  m_composite = vkutil::createGraphicsPipeline(ctx.device, desc);
  for (VkShaderModule m : {vert, down, up, composite})
    vkDestroyShaderModule(ctx.device, m, nullptr);
}

void PostPass::destroy(const vkutil::Context& ctx) {
  for (VkPipeline p : {m_prefilter, m_down, m_up, m_composite}) {
    if (p) vkDestroyPipeline(ctx.device, p, nullptr);
  }
  for (VkPipelineLayout l : {m_blurLayout, m_compositeLayout}) {
    if (l) vkDestroyPipelineLayout(ctx.device, l, nullptr);
  }
  if (m_pool) vkDestroyDescriptorPool(ctx.device, m_pool, nullptr);
  for (VkDescriptorSetLayout l : {m_oneImage, m_twoImages}) {
    if (l) vkDestroyDescriptorSetLayout(ctx.device, l, nullptr);
  }
  if (m_sampler) vkDestroySampler(ctx.device, m_sampler, nullptr);
  vkutil::destroyImage(ctx, m_scene);
  for (vkutil::Image& level : m_levels) vkutil::destroyImage(ctx, level);
  *this = PostPass{};
}

void PostPass::resize(const vkutil::Context& ctx, VkExtent2D extent) {
  vkutil::destroyImage(ctx, m_scene);
  for (vkutil::Image& level : m_levels) vkutil::destroyImage(ctx, level);
  m_levels.clear();
  constexpr VkImageUsageFlags usage =
      VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
  m_scene = vkutil::createImage2D(ctx, HDR_FORMAT, extent, usage, VK_IMAGE_ASPECT_COLOR_BIT);
  vkutil::writeImage(ctx.device, m_sceneSet, 0, m_sampler, m_scene.view);
  vkutil::writeImage(ctx.device, m_compositeSet, 0, m_sampler, m_scene.view);
  VkExtent2D size = extent;
  while (m_levels.size() < MAX_BLOOM_LEVELS && size.width >= 4 && size.height >= 4) {
    size = {size.width / 2, size.height / 2};
    m_levels.push_back(
        vkutil::createImage2D(ctx, HDR_FORMAT, size, usage, VK_IMAGE_ASPECT_COLOR_BIT));
    vkutil::writeImage(ctx.device, m_levelSets[m_levels.size() - 1], 0, m_sampler,
                       m_levels.back().view);
  }
  // A target too small for one level still composites: level 0's stand-in is the scene itself.
  vkutil::writeImage(ctx.device, m_compositeSet, 1, m_sampler,
                     m_levels.empty() ? m_scene.view : m_levels[0].view);
}

void PostPass::beginScene(VkCommandBuffer cmd) const {
  toAttachment(cmd, m_scene.image, /*keepContents=*/false);
}

void PostPass::drawFullScreen(VkCommandBuffer cmd, VkImageView target, VkExtent2D extent, bool load,
                              VkPipeline pipeline, VkPipelineLayout layout, VkDescriptorSet set,
                              const float push[4]) const {
  VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  color.imageView = target;
  color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  color.loadOp = load ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
  rendering.renderArea = {{0, 0}, extent};
  rendering.layerCount = 1;
  rendering.colorAttachmentCount = 1;
  rendering.pColorAttachments = &color;
  vkCmdBeginRendering(cmd, &rendering);
  const VkViewport viewport{0, 0, float(extent.width), float(extent.height), 0, 1};
  const VkRect2D scissor{{0, 0}, extent};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &scissor);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, nullptr);
  vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, PUSH_BYTES, push);
  vkCmdDraw(cmd, 3, 1, 0, 0);
  vkCmdEndRendering(cmd);
}

void PostPass::record(VkCommandBuffer cmd, VkImageView target, VkExtent2D extent) const {
  toSampled(cmd, m_scene.image);
  // Down: each level a 4x4 box of the one above (the first weighted by the scene's alpha).
  for (size_t i = 0; i < m_levels.size(); ++i) {
    const VkExtent2D source = i == 0 ? m_scene.extent : m_levels[i - 1].extent;
    const float texel[4] = {1.0f / float(source.width), 1.0f / float(source.height), 0, 0};
    toAttachment(cmd, m_levels[i].image, /*keepContents=*/false);
    drawFullScreen(cmd, m_levels[i].view, m_levels[i].extent, false, i == 0 ? m_prefilter : m_down,
                   m_blurLayout, i == 0 ? m_sceneSet : m_levelSets[i - 1], texel);
    toSampled(cmd, m_levels[i].image);
  }
  // Up: each level gains a tent-filtered copy of the (already summed) level below it.
  for (size_t i = m_levels.size(); i-- > 1;) {
    const VkExtent2D source = m_levels[i].extent;
    const float texel[4] = {1.0f / float(source.width), 1.0f / float(source.height), 0, 0};
    toAttachment(cmd, m_levels[i - 1].image, /*keepContents=*/true);
    drawFullScreen(cmd, m_levels[i - 1].view, m_levels[i - 1].extent, true, m_up, m_blurLayout,
                   m_levelSets[i], texel);
    toSampled(cmd, m_levels[i - 1].image);
  }
  const float params[4] = {m_levels.empty() ? 0.0f : BLOOM_STRENGTH, 0, 0, 0};
  drawFullScreen(cmd, target, extent, false, m_composite, m_compositeLayout, m_compositeSet,
                 params);
}

}  // namespace renderer
