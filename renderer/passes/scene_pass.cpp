#include "renderer/passes/scene_pass.h"

#include <cmath>
#include <cstring>
#include <initializer_list>

#include "renderer/vk/check.h"
#include "renderer/vk/pipeline.h"
#include "shaders/shared/scene.h"
#include "shaders/shared/sky.h"

namespace renderer {
namespace {

const uint32_t SCENE_VERT[] =
#include "shaders_spv/scene.vert.inc"
    ;
const uint32_t SCENE_FRAG[] =
#include "shaders_spv/scene.frag.inc"
    ;
const uint32_t SKY_VERT[] =
#include "shaders_spv/sky.vert.inc"
    ;
const uint32_t SKY_FRAG[] =
#include "shaders_spv/sky.frag.inc"
    ;

VkPipelineLayout createLayout(VkDevice device, uint32_t pushBytes, VkShaderStageFlags stages,
                              std::initializer_list<VkDescriptorSetLayout> sets = {}) {
  VkPushConstantRange range{stages, 0, pushBytes};
  VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.setLayoutCount = static_cast<uint32_t>(sets.size());
  info.pSetLayouts = sets.begin();
  info.pushConstantRangeCount = 1;
  info.pPushConstantRanges = &range;
  VkPipelineLayout layout;
  VK_CHECK(vkCreatePipelineLayout(device, &info, nullptr, &layout));
  return layout;
}

gpu::vec4 vec4Of(const float* xyz, float w) {
  return {xyz[0], xyz[1], xyz[2], w};
}

}  // namespace

void ScenePass::create(const vkutil::Context& ctx, VkCommandPool pool, const ScenePassDesc& desc) {
  m_desc = desc;
  m_textures.create(ctx, pool);
  m_shadows.create(ctx, pool, desc.shadowMapSize, desc.cache);
  m_sceneLayout = createLayout(ctx.device, sizeof(gpu::FrameConstants),
                               VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
                               {m_textures.layout(), m_shadows.layout()});
  m_skyLayout = createLayout(ctx.device, sizeof(gpu::SkyConstants), VK_SHADER_STAGE_FRAGMENT_BIT);
  createScenePipelines(ctx.device, 1);

  VkShaderModule skyVert = vkutil::createShaderModule(ctx.device, SKY_VERT, sizeof(SKY_VERT));
  VkShaderModule skyFrag = vkutil::createShaderModule(ctx.device, SKY_FRAG, sizeof(SKY_FRAG));
  vkutil::GraphicsPipelineDesc sky;
  sky.vertex = skyVert;
  sky.fragment = skyFrag;
  sky.layout = m_skyLayout;
  sky.colorFormat = desc.colorFormat;
  sky.depthFormat = desc.depthFormat;
  // Drawn after the scene, only where nothing else is (depth still at the cleared 0, which the
  // sky's full-screen triangle also has): early depth test spares the covered pixels.
  sky.depthTest = true;
  sky.depthWrite = false;
  sky.depthCompare = VK_COMPARE_OP_EQUAL;
  sky.cullMode = VK_CULL_MODE_NONE;
  sky.cache = desc.cache;
  sky.samples = desc.samples;
  const VkBool32 linear = desc.linearOutput ? VK_TRUE : VK_FALSE;
  const VkSpecializationMapEntry linearEntry{0, 0, sizeof(VkBool32)};
  const VkSpecializationInfo skySpecialization{1, &linearEntry, sizeof(linear), &linear};
  sky.fragmentSpecialization = &skySpecialization;
  m_skyPipeline = vkutil::createGraphicsPipeline(ctx.device, sky);
  for (VkShaderModule m : {skyVert, skyFrag}) vkDestroyShaderModule(ctx.device, m, nullptr);
}

void ScenePass::createScenePipelines(VkDevice device, uint32_t factor) {
  VkShaderModule sceneVert = vkutil::createShaderModule(device, SCENE_VERT, sizeof(SCENE_VERT));
  VkShaderModule sceneFrag = vkutil::createShaderModule(device, SCENE_FRAG, sizeof(SCENE_FRAG));
  vkutil::GraphicsPipelineDesc scene;
  scene.vertex = sceneVert;
  scene.fragment = sceneFrag;
  scene.bindings = {{0, sizeof(world::MeshVertex), VK_VERTEX_INPUT_RATE_VERTEX},
                    {1, sizeof(gpu::Instance), VK_VERTEX_INPUT_RATE_INSTANCE}};
  scene.attributes = {
      {0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(world::MeshVertex, position)},
      {1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(world::MeshVertex, normal)},
      {2, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(world::MeshVertex, uv)},
      {SCENE_VERTEX_COLOR_LOCATION, 0, VK_FORMAT_R8G8B8A8_UNORM,
       offsetof(world::MeshVertex, color)},
  };
  for (uint32_t i = 0; i < SCENE_INSTANCE_VEC4_COUNT; ++i) {
    scene.attributes.push_back(
        {SCENE_INSTANCE_FIRST_LOCATION + i, 1, VK_FORMAT_R32G32B32A32_SFLOAT, i * 16u});
  }
  scene.layout = m_sceneLayout;
  scene.colorFormat = m_desc.colorFormat;
  scene.depthFormat = m_desc.depthFormat;
  scene.cache = m_desc.cache;
  scene.samples = m_desc.samples;
  // ALPHA_TEST, TEXTURED, SHADOWS, LINEAR_OUTPUT, SHADOW_MANUAL_BILINEAR, BOX_DETAIL (scene.frag's
  // constant ids 0..5, booleans), SUPERSAMPLE (id 6, a float). Variant bits: 4 box detail, 2
  // alpha test, 1 textured.
  constexpr uint32_t FLAGS = 6;
  struct Constants {
    VkBool32 flags[FLAGS];
    float supersample;
  };
  VkSpecializationMapEntry entries[FLAGS + 1];
  for (uint32_t id = 0; id < FLAGS; ++id) {
    entries[id] = {id, id * uint32_t(sizeof(VkBool32)), sizeof(VkBool32)};
  }
  entries[FLAGS] = {FLAGS, offsetof(Constants, supersample), sizeof(float)};
  for (uint32_t variant = 0; variant < SCENE_VARIANTS; ++variant) {
    const bool flags[FLAGS] = {(variant & 2u) != 0,         (variant & 1u) != 0,
                               m_shadows.enabled(),         m_desc.linearOutput,
                               !m_shadows.linearCompares(), (variant & 4u) != 0};
    Constants constants{};
    for (uint32_t id = 0; id < FLAGS; ++id) constants.flags[id] = flags[id] ? VK_TRUE : VK_FALSE;
    constants.supersample = float(factor);
    const VkSpecializationInfo specialization{FLAGS + 1, entries, sizeof(constants), &constants};
    scene.fragmentSpecialization = &specialization;
    m_scenePipelines[factor - 1][variant] = vkutil::createGraphicsPipeline(device, scene);
  }
  for (VkShaderModule m : {sceneVert, sceneFrag}) vkDestroyShaderModule(device, m, nullptr);
}

void ScenePass::prepareSupersample(const vkutil::Context& ctx, uint32_t factor) {
  if (factor < 1 || factor > MAX_SUPERSAMPLE || m_scenePipelines[factor - 1][0]) return;
  createScenePipelines(ctx.device, factor);
}

void ScenePass::destroy(const vkutil::Context& ctx) {
  vkutil::destroyBuffer(ctx, m_vertices);
  vkutil::destroyBuffer(ctx, m_indices);
  m_textures.destroy(ctx);
  m_shadows.destroy(ctx);
  for (auto& pipelines : m_scenePipelines) {
    for (VkPipeline& pipeline : pipelines) {
      if (pipeline) vkDestroyPipeline(ctx.device, pipeline, nullptr);
      pipeline = VK_NULL_HANDLE;
    }
  }
  vkDestroyPipeline(ctx.device, m_skyPipeline, nullptr);
  vkDestroyPipelineLayout(ctx.device, m_sceneLayout, nullptr);
  vkDestroyPipelineLayout(ctx.device, m_skyLayout, nullptr);
  m_ranges.clear();
  m_revision = UINT64_MAX;
}

void ScenePass::uploadMeshes(const vkutil::Context& ctx, VkCommandPool pool,
                             const world::MeshLibrary& meshes,
                             std::vector<vkutil::Buffer>& retired) {
  std::vector<world::MeshVertex> vertices;
  std::vector<uint32_t> indices;
  m_ranges.clear();
  for (const world::MeshData& mesh : meshes.meshes()) {
    MeshRange range;
    range.firstIndex = static_cast<uint32_t>(indices.size());
    range.indexCount = static_cast<uint32_t>(mesh.indices.size());
    range.vertexOffset = static_cast<int32_t>(vertices.size());
    vertices.insert(vertices.end(), mesh.vertices.begin(), mesh.vertices.end());
    indices.insert(indices.end(), mesh.indices.begin(), mesh.indices.end());
    m_ranges.push_back(range);
  }
  // Never create zero-sized buffers: an empty library still gets one degenerate vertex/index.
  if (vertices.empty()) vertices.push_back({});
  if (indices.empty()) indices.push_back(0);
  if (m_vertices.buffer) retired.push_back(m_vertices);
  if (m_indices.buffer) retired.push_back(m_indices);
  m_vertices = vkutil::createDeviceBuffer(ctx, pool, vertices.data(),
                                          vertices.size() * sizeof(world::MeshVertex),
                                          VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  m_indices =
      vkutil::createDeviceBuffer(ctx, pool, indices.data(), indices.size() * sizeof(uint32_t),
                                 VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  m_revision = meshes.revision();
}

void ScenePass::uploadTextures(const vkutil::Context& ctx, VkCommandPool pool,
                               const world::TextureLibrary& textures) {
  m_textures.upload(ctx, pool, textures);
}

template <class BeforeDraw>
SceneStats ScenePass::drawBatches(VkCommandBuffer cmd, const world::RenderList& list,
                                  VkBuffer instances, BeforeDraw&& beforeDraw) const {
  SceneStats stats;
  VkBuffer vertexBuffers[2] = {m_vertices.buffer, instances};
  VkDeviceSize offsets[2] = {0, 0};
  vkCmdBindVertexBuffers(cmd, 0, 2, vertexBuffers, offsets);
  vkCmdBindIndexBuffer(cmd, m_indices.buffer, 0, VK_INDEX_TYPE_UINT32);
  for (const world::DrawBatch& batch : list.batches) {
    if (batch.instanceCount == 0 || batch.mesh.index >= m_ranges.size()) continue;
    if (uint64_t(batch.firstInstance) + batch.instanceCount > list.instances.size()) continue;
    const MeshRange& range = m_ranges[batch.mesh.index];
    if (range.indexCount == 0) continue;
    beforeDraw(batch);
    vkCmdDrawIndexed(cmd, range.indexCount, batch.instanceCount, range.firstIndex,
                     range.vertexOffset, batch.firstInstance);
    ++stats.drawCalls;
    stats.triangles += uint64_t(range.indexCount / 3) * batch.instanceCount;
    stats.instances += batch.instanceCount;
  }
  return stats;
}

void ScenePass::recordShadows(VkCommandBuffer cmd, const world::RenderList& list,
                              VkBuffer instances) const {
  if (!m_shadows.begin(cmd, list.view)) return;
  drawBatches(cmd, list, instances, [](const world::DrawBatch&) {});
  m_shadows.end(cmd);
}

SceneStats ScenePass::record(VkCommandBuffer cmd, const world::RenderList& list, VkBuffer instances,
                             VkExtent2D extent, const SceneQueries& queries,
                             const SceneTile& tile) const {
  VkViewport viewport{0, 0, float(extent.width), float(extent.height), 0, 1};
  VkRect2D scissor{{0, 0}, extent};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &scissor);
  const world::ViewParams& view = list.view;
  const float aspect = tile.aspect > 0 ? tile.aspect : float(extent.width) / float(extent.height);
  const VkPipeline* pipelines = m_scenePipelines[tile.supersample - 1];

  gpu::FrameConstants frame{};
  world::viewProjection(view, aspect, &frame.viewProj.columns[0].x, tile.part);
  float sunLength = std::sqrt(view.sunDirection[0] * view.sunDirection[0] +
                              view.sunDirection[1] * view.sunDirection[1] +
                              view.sunDirection[2] * view.sunDirection[2]);
  frame.sunDirection = {view.sunDirection[0] / sunLength, view.sunDirection[1] / sunLength,
                        view.sunDirection[2] / sunLength, view.ambient};
  frame.backdropTop = vec4Of(view.skyTop, view.fogStartMeters);
  frame.backdropHorizon = vec4Of(view.skyHorizon, view.fogEndMeters);
  frame.lights = {view.rimStrength, view.keyStrength, view.edgeStrength, view.xrayStrength};

  uint32_t bound = 0;
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[bound]);
  vkCmdPushConstants(cmd, m_sceneLayout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
                     0, sizeof(frame), &frame);
  const VkDescriptorSet sets[2] = {m_textures.set(), m_shadows.set()};
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, m_sceneLayout, 0, 2, sets, 0,
                          nullptr);
  if (queries.occlusion) {
    vkCmdBeginQuery(cmd, queries.occlusion, 0, VK_QUERY_CONTROL_PRECISE_BIT);
  }
  if (queries.fragments) vkCmdBeginQuery(cmd, queries.fragments, 0, 0);
  const SceneStats stats = drawBatches(cmd, list, instances, [&](const world::DrawBatch& batch) {
    const uint32_t variant =
        (batch.boxDetail ? 4u : 0u) + (batch.alphaTest ? 2u : 0u) + (batch.textured ? 1u : 0u);
    if (variant != bound) {
      bound = variant;
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[bound]);
    }
  });
  if (queries.occlusion) vkCmdEndQuery(cmd, queries.occlusion, 0);
  if (queries.fragments) vkCmdEndQuery(cmd, queries.fragments, 0);
  gpu::SkyConstants sky{};
  // The inverse of a rotation is its transpose: its columns are the view matrix's rows.
  for (int col = 0; col < 3; ++col) {
    sky.inverseViewRotation[col] = {view.viewRotation[col], view.viewRotation[4 + col],
                                    view.viewRotation[8 + col], 0.0f};
  }
  // The tile's NDC n maps to the whole view's at n / scale + centre (the inverse of its part).
  const world::ViewRect& part = tile.part;
  const float tanHalf = std::tan(view.verticalFovRadians * 0.5f);
  const float rayX = tanHalf * aspect, rayY = tanHalf;
  sky.ray = {rayX * 0.5f * (part.x1 - part.x0), rayY * 0.5f * (part.y1 - part.y0),
             rayX * 0.5f * (part.x0 + part.x1), rayY * 0.5f * (part.y0 + part.y1)};
  sky.top = vec4Of(view.skyTop, view.fogStartMeters);
  sky.horizon = vec4Of(view.skyHorizon, view.fogEndMeters);
  sky.hero = {view.heroCenter[0], view.heroCenter[1], view.heroHalfExtent[0],
              view.heroHalfExtent[1]};
  sky.floor = {view.floorHeightMeters, view.poolRadiusMeters, view.studioFloor ? 1.0f : 0.0f, 0.0f};
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, m_skyPipeline);
  vkCmdPushConstants(cmd, m_skyLayout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(sky), &sky);
  vkCmdDraw(cmd, 3, 1, 0, 0);

  return stats;
}

}  // namespace renderer
