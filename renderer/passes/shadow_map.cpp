#include "renderer/passes/shadow_map.h"

#include <cmath>

#include "renderer/vk/check.h"
#include "renderer/vk/descriptors.h"
#include "renderer/vk/pipeline.h"

namespace renderer {
namespace {

const uint32_t SHADOW_VERT[] =
#include "shaders_spv/shadow.vert.inc"
    ;

constexpr VkFormat MAP_FORMAT = VK_FORMAT_D32_SFLOAT;
// Receivers are kept up to this many radii away from the sun (casters: SHADOW_CASTER_REACH).
constexpr float RECEIVER_REACH = 2.0f;
// Lookups move this many texels along the normal, and compare this many texels' depth closer:
// enough that a lit face never shadows itself (acne), little enough that contact stays tight.
constexpr float NORMAL_OFFSET_TEXELS = 1.5f;
constexpr float DEPTH_BIAS_TEXELS = 1.0f;

struct Vec3 {
  float x, y, z;
};
Vec3 operator*(Vec3 a, float s) {
  return {a.x * s, a.y * s, a.z * s};
}
Vec3 operator+(Vec3 a, Vec3 b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
float dot(Vec3 a, Vec3 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
Vec3 normalized(Vec3 a) {
  return a * (1.0f / std::sqrt(dot(a, a)));
}

}  // namespace

ShadowFrustum fitShadowFrustum(const world::ViewParams& view, uint32_t mapSize) {
  ShadowFrustum frustum;
  const Vec3 sunRaw{view.sunDirection[0], view.sunDirection[1], view.sunDirection[2]};
  const float distance = view.shadowDistanceMeters;
  if (!(distance > 0.0f) || !std::isfinite(distance) || mapSize == 0 || dot(sunRaw, sunRaw) <= 0) {
    return frustum;  // params.w = 0: lit everywhere
  }
  const Vec3 sun = normalized(sunRaw);
  // The view looks down -Z: the rotation's third row is minus forward (column-major storage).
  const Vec3 forward{-view.viewRotation[2], -view.viewRotation[6], -view.viewRotation[10]};
  float axisX[3], axisY[3];
  world::shadowAxes(view.sunDirection, axisX, axisY);
  const Vec3 ex{axisX[0], axisX[1], axisX[2]}, ey{axisY[0], axisY[1], axisY[2]};
  const float radius = distance;
  const float texel = 2.0f * radius / float(mapSize);
  // Ahead of the camera, then moved back to the nearest corner of a texel grid fixed in the
  // world (the grid offset is the eye's own position on it): as the camera moves, every texel
  // keeps covering the same patch of ground.
  Vec3 centre = forward * (world::SHADOW_CENTRE_AHEAD * distance);
  const float u = dot(centre, ex) + view.shadowGridOffset[0];
  const float v = dot(centre, ey) + view.shadowGridOffset[1];
  centre =
      centre + ex * (std::floor(u / texel) * texel - u) + ey * (std::floor(v / texel) * texel - v);
  const float depthRange = (world::SHADOW_CASTER_REACH + RECEIVER_REACH) * radius;

  // Rows of the affine map camera-relative metres -> (x, y in -1..1, depth 0 at the sun side).
  const float rows[3][4] = {
      {ex.x / radius, ex.y / radius, ex.z / radius, -dot(centre, ex) / radius},
      {ey.x / radius, ey.y / radius, ey.z / radius, -dot(centre, ey) / radius},
      {-sun.x / depthRange, -sun.y / depthRange, -sun.z / depthRange,
       (world::SHADOW_CASTER_REACH * radius + dot(centre, sun)) / depthRange},
  };
  gpu::mat4& m = frustum.constants.lightClip;
  for (int c = 0; c < 4; ++c) {
    float* column = &m.columns[c].x;
    for (int r = 0; r < 3; ++r) column[r] = rows[r][c];
    column[3] = c == 3 ? 1.0f : 0.0f;
  }
  frustum.constants.params = {NORMAL_OFFSET_TEXELS * texel, DEPTH_BIAS_TEXELS * texel / depthRange,
                              1.0f / float(mapSize), 1.0f};
  frustum.radiusMeters = radius;
  return frustum;
}

void ShadowMap::create(const vkutil::Context& ctx, VkCommandPool pool, uint32_t mapSize,
                       VkPipelineCache cache) {
  m_mapSize = mapSize;
  const uint32_t side = mapSize ? mapSize : 1;
  m_map = vkutil::createImage2D(ctx, MAP_FORMAT, {side, side},
                                VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
                                    VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                VK_IMAGE_ASPECT_DEPTH_BIT);
  // Cleared to the far plane, so the stand-in (and a frame that draws no map) reads "lit".
  vkutil::submitNow(ctx, pool, [&](VkCommandBuffer cmd) {
    vkutil::transitionImage(cmd, m_map.image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                            VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_NONE,
                            VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                            VK_ACCESS_2_TRANSFER_WRITE_BIT);
    const VkClearDepthStencilValue far{1.0f, 0};
    const VkImageSubresourceRange all{VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
    vkCmdClearDepthStencilImage(cmd, m_map.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &far, 1,
                                &all);
    vkutil::transitionImage(cmd, m_map.image, VK_IMAGE_ASPECT_DEPTH_BIT,
                            VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                            VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                            VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                            VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
  });
  const gpu::ShadowConstants lit{};
  m_constants =
      vkutil::createDeviceBuffer(ctx, pool, &lit, sizeof(lit), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);

  vkutil::SamplerDesc sampler;
  // Bilinear depth compares soften the edge, where the device filters this depth format (not
  // every one must); otherwise each tap compares one texel.
  VkFormatProperties features{};
  vkGetPhysicalDeviceFormatProperties(ctx.physicalDevice, MAP_FORMAT, &features);
  m_linearCompares =
      (features.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT) != 0;
  sampler.filter = m_linearCompares ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
  sampler.address = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  sampler.border = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
  sampler.compareLessOrEqual = true;
  m_sampler = vkutil::createSampler(ctx.device, sampler);
  m_setLayout = vkutil::createSetLayout(
      ctx.device, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER});
  m_descriptorPool = vkutil::createDescriptorPool(ctx.device, 1, 1, 1);
  m_set = vkutil::allocateSet(ctx.device, m_descriptorPool, m_setLayout);
  vkutil::writeImage(ctx.device, m_set, 0, m_sampler, m_map.view);
  vkutil::writeUniform(ctx.device, m_set, 1, m_constants.buffer, sizeof(gpu::ShadowConstants));
  if (!mapSize) return;

  VkPushConstantRange range{VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(gpu::mat4)};
  VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layoutInfo.pushConstantRangeCount = 1;
  layoutInfo.pPushConstantRanges = &range;
  VK_CHECK(vkCreatePipelineLayout(ctx.device, &layoutInfo, nullptr, &m_pipelineLayout));
  VkShaderModule vert = vkutil::createShaderModule(ctx.device, SHADOW_VERT, sizeof(SHADOW_VERT));
  vkutil::GraphicsPipelineDesc desc;
  desc.vertex = vert;
  desc.bindings = {{0, sizeof(world::MeshVertex), VK_VERTEX_INPUT_RATE_VERTEX},
                   {1, sizeof(gpu::Instance), VK_VERTEX_INPUT_RATE_INSTANCE}};
  desc.attributes = {
      {0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(world::MeshVertex, position)},
      {SCENE_INSTANCE_FIRST_LOCATION + 0, 1, VK_FORMAT_R32G32B32A32_SFLOAT,
       offsetof(gpu::Instance, row0)},
      {SCENE_INSTANCE_FIRST_LOCATION + 1, 1, VK_FORMAT_R32G32B32A32_SFLOAT,
       offsetof(gpu::Instance, row1)},
      {SCENE_INSTANCE_FIRST_LOCATION + 2, 1, VK_FORMAT_R32G32B32A32_SFLOAT,
       offsetof(gpu::Instance, row2)},
      {SCENE_INSTANCE_FIRST_LOCATION + 4, 1, VK_FORMAT_R32G32B32A32_SFLOAT,
       offsetof(gpu::Instance, params)},
  };
  desc.layout = m_pipelineLayout;
  desc.depthFormat = MAP_FORMAT;
  desc.depthCompare = VK_COMPARE_OP_LESS_OR_EQUAL;  // ordinary Z: 0 at the sun side
  desc.cullMode = VK_CULL_MODE_NONE;                // thin and open parts cast from either side
  desc.cache = cache;
  m_pipeline = vkutil::createGraphicsPipeline(ctx.device, desc);
  vkDestroyShaderModule(ctx.device, vert, nullptr);
}

void ShadowMap::destroy(const vkutil::Context& ctx) {
  if (m_pipeline) vkDestroyPipeline(ctx.device, m_pipeline, nullptr);
  if (m_pipelineLayout) vkDestroyPipelineLayout(ctx.device, m_pipelineLayout, nullptr);
  if (m_descriptorPool) vkDestroyDescriptorPool(ctx.device, m_descriptorPool, nullptr);
  if (m_setLayout) vkDestroyDescriptorSetLayout(ctx.device, m_setLayout, nullptr);
  if (m_sampler) vkDestroySampler(ctx.device, m_sampler, nullptr);
  vkutil::destroyBuffer(ctx, m_constants);
  vkutil::destroyImage(ctx, m_map);
  *this = ShadowMap{};
}

bool ShadowMap::begin(VkCommandBuffer cmd, const world::ViewParams& view) const {
  if (!enabled()) return false;
  const ShadowFrustum frustum = fitShadowFrustum(view, m_mapSize);
  // The previous frame's scene pass read the constants; this frame's reads wait for the write.
  vkutil::bufferBarrier(cmd, m_constants.buffer, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                        VK_ACCESS_2_UNIFORM_READ_BIT, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                        VK_ACCESS_2_TRANSFER_WRITE_BIT);
  vkCmdUpdateBuffer(cmd, m_constants.buffer, 0, sizeof(frustum.constants), &frustum.constants);
  vkutil::bufferBarrier(cmd, m_constants.buffer, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                        VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                        VK_ACCESS_2_UNIFORM_READ_BIT);
  if (frustum.constants.params.w == 0.0f) return false;  // no map this frame: lit everywhere

  vkutil::transitionImage(
      cmd, m_map.image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
      VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
      VK_ACCESS_2_NONE,
      VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
      VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
          VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
  VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  depth.imageView = m_map.view;
  depth.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
  depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  depth.clearValue.depthStencil = {1.0f, 0};
  VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
  rendering.renderArea = {{0, 0}, {m_mapSize, m_mapSize}};
  rendering.layerCount = 1;
  rendering.pDepthAttachment = &depth;
  vkCmdBeginRendering(cmd, &rendering);
  const VkViewport viewport{0, 0, float(m_mapSize), float(m_mapSize), 0, 1};
  const VkRect2D scissor{{0, 0}, {m_mapSize, m_mapSize}};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &scissor);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, m_pipeline);
  vkCmdPushConstants(cmd, m_pipelineLayout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(gpu::mat4),
                     &frustum.constants.lightClip);
  return true;
}

void ShadowMap::end(VkCommandBuffer cmd) const {
  vkCmdEndRendering(cmd);
  vkutil::transitionImage(
      cmd, m_map.image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
      VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
      VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
      VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
}

}  // namespace renderer
