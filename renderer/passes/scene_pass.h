// The scene pass: a sky gradient behind everything, then every draw batch of the render list as
// one instanced, indexed draw. Meshes live in one vertex and one index buffer, imported models'
// images in one 2D array texture. Batches that cut by alpha, and batches that sample textures,
// use specialised variants of the pipeline: the plain one (the whole built-in world) has no
// discard, which keeps early depth testing, and samples nothing. In the high preset the pass
// also draws the sun's shadow map first (ShadowMap) and writes linear colour with a bloom weight
// for the post pass instead of sRGB.
#pragma once

#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

#include "renderer/passes/shadow_map.h"
#include "renderer/passes/texture_array.h"
#include "renderer/vk/context.h"
#include "renderer/vk/resources.h"
#include "world/scene/render_list.h"

namespace renderer {

struct SceneStats {
  uint32_t drawCalls = 0;
  uint64_t triangles = 0;
  uint32_t instances = 0;
};

/// Queries recorded around the scene's draws (the sky excluded); VK_NULL_HANDLE: none. Each pool's
/// query 0 must have been reset.
struct SceneQueries {
  VkQueryPool occlusion = VK_NULL_HANDLE;  // precise: samples that pass the depth test
  VkQueryPool fragments = VK_NULL_HANDLE;  // pipeline statistics: fragment-shader invocations
};

/// The most target pixels per picture pixel (along each axis) a supersampled still draws at.
inline constexpr uint32_t MAX_SUPERSAMPLE = 4;

/// What part of the picture the pass draws into its target: by default the whole view at the
/// target's own size; for one tile of a supersampled still, its part of the view (the same camera
/// through an off-axis projection), the whole picture's aspect, and how many target pixels make
/// one picture pixel along each axis.
struct SceneTile {
  world::ViewRect part;
  float aspect = 0;          // the whole picture's width / height; 0: the target's
  uint32_t supersample = 1;  // 1..MAX_SUPERSAMPLE (prepareSupersample first)
};

struct ScenePassDesc {
  VkFormat colorFormat = VK_FORMAT_UNDEFINED;
  VkFormat depthFormat = VK_FORMAT_UNDEFINED;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineCache cache = VK_NULL_HANDLE;
  uint32_t shadowMapSize = 0;  // texels per side of the sun's shadow map; 0: no shadows
  bool linearOutput = false;   // linear colour and a bloom weight (PostPass) instead of sRGB
};

class ScenePass {
 public:
  void create(const vkutil::Context& ctx, VkCommandPool pool, const ScenePassDesc& desc);
  void destroy(const vkutil::Context& ctx);
  /// Uploads every mesh of the library into new buffers; the old ones go to `retired` (frames
  /// in flight may still read them) for the caller to destroy once those frames are done.
  void uploadMeshes(const vkutil::Context& ctx, VkCommandPool pool,
                    const world::MeshLibrary& meshes, std::vector<vkutil::Buffer>& retired);
  uint64_t uploadedRevision() const { return m_revision; }
  /// Uploads the texture library as the array texture (the device must be idle).
  void uploadTextures(const vkutil::Context& ctx, VkCommandPool pool,
                      const world::TextureLibrary& textures);
  uint64_t uploadedTextureRevision() const { return m_textures.uploadedRevision(); }
  /// Outside any rendering scope, before record(): draws the sun's shadow map of `list` (when
  /// the pass has one and the view asks for shadows).
  void recordShadows(VkCommandBuffer cmd, const world::RenderList& list, VkBuffer instances) const;
  /// Makes the pipelines of a still supersampled `factor` times (1..MAX_SUPERSAMPLE), once:
  /// their lines of constant width are measured in picture pixels.
  void prepareSupersample(const vkutil::Context& ctx, uint32_t factor);
  /// Records the sky and the batches inside an active dynamic-rendering scope.
  SceneStats record(VkCommandBuffer cmd, const world::RenderList& list, VkBuffer instances,
                    VkExtent2D extent, const SceneQueries& queries = {},
                    const SceneTile& tile = {}) const;

 private:
  /// Binds the meshes and the instances and draws every well-formed batch of `list`;
  /// `beforeDraw(batch)` runs before each draw (pipeline switches).
  template <class BeforeDraw>
  SceneStats drawBatches(VkCommandBuffer cmd, const world::RenderList& list, VkBuffer instances,
                         BeforeDraw&& beforeDraw) const;

  /// The scene pipelines' variants for `factor` target pixels per picture pixel.
  void createScenePipelines(VkDevice device, uint32_t factor);

  struct MeshRange {
    uint32_t firstIndex = 0;
    uint32_t indexCount = 0;
    int32_t vertexOffset = 0;
  };
  VkPipelineLayout m_sceneLayout = VK_NULL_HANDLE;
  VkPipelineLayout m_skyLayout = VK_NULL_HANDLE;
  // Indexed by the supersampling factor - 1, then boxDetail * 4 + alphaTest * 2 + textured.
  static constexpr uint32_t SCENE_VARIANTS = 8;  // box detail x alpha test x textured
  VkPipeline m_scenePipelines[MAX_SUPERSAMPLE][SCENE_VARIANTS] = {};
  ScenePassDesc m_desc;  // what the pipelines were made for (more are made for stills)
  VkPipeline m_skyPipeline = VK_NULL_HANDLE;
  vkutil::Buffer m_vertices;
  vkutil::Buffer m_indices;
  std::vector<MeshRange> m_ranges;
  TextureArray m_textures;
  ShadowMap m_shadows;
  uint64_t m_revision = UINT64_MAX;
};

}  // namespace renderer
