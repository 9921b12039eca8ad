// The scene pass: a sky gradient behind everything, then every draw batch of the render list as
// one instanced, indexed draw. Meshes live in one vertex and one index buffer, imported models'
// images in one 2D array texture. Batches that cut by alpha, and batches that sample textures,
// use specialised variants of the pipeline: the plain one (the whole built-in world) has no
// discard, which keeps early depth testing, and samples nothing.
#pragma once

#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

#include "renderer/passes/texture_array.h"
#include "renderer/vk/context.h"
#include "renderer/vk/resources.h"
#include "world/render_list.h"

namespace renderer {

struct SceneStats {
  uint32_t drawCalls = 0;
  uint64_t triangles = 0;
  uint32_t instances = 0;
};

class ScenePass {
 public:
  void create(const vkutil::Context& ctx, VkCommandPool pool, VkFormat colorFormat,
              VkFormat depthFormat, VkSampleCountFlagBits samples, VkPipelineCache cache);
  void destroy(const vkutil::Context& ctx);
  /// Uploads every mesh of the library (the device must be idle: buffers are replaced).
  void uploadMeshes(const vkutil::Context& ctx, VkCommandPool pool,
                    const world::MeshLibrary& meshes);
  uint64_t uploadedRevision() const { return m_revision; }
  /// Uploads the texture library as the array texture (the device must be idle).
  void uploadTextures(const vkutil::Context& ctx, VkCommandPool pool,
                      const world::TextureLibrary& textures);
  uint64_t uploadedTextureRevision() const { return m_textures.uploadedRevision(); }
  /// Records the sky and the batches inside an active dynamic-rendering scope.
  SceneStats record(VkCommandBuffer cmd, const world::RenderList& list, VkBuffer instances,
                    VkExtent2D extent) const;

 private:
  struct MeshRange {
    uint32_t firstIndex = 0;
    uint32_t indexCount = 0;
    int32_t vertexOffset = 0;
  };
  VkPipelineLayout m_sceneLayout = VK_NULL_HANDLE;
  VkPipelineLayout m_skyLayout = VK_NULL_HANDLE;
  // Indexed by alphaTest * 2 + textured.
  VkPipeline m_scenePipelines[4] = {VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE};
  VkPipeline m_skyPipeline = VK_NULL_HANDLE;
  vkutil::Buffer m_vertices;
  vkutil::Buffer m_indices;
  std::vector<MeshRange> m_ranges;
  TextureArray m_textures;
  uint64_t m_revision = UINT64_MAX;
};

}  // namespace renderer
