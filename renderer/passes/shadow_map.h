// The sun's shadow map (the high preset): one orthographic depth map fitted around what the
// camera sees up to ViewParams::shadowDistanceMeters, drawn each frame from the render list
// before the scene pass, and sampled by the scene shader with hardware depth compares. Set 1 of
// the scene pipeline (the map and its ShadowConstants) exists in the low preset too, holding a
// 1x1 map and constants that say "lit everywhere".
#pragma once

#include <cstdint>

#include <vulkan/vulkan.h>

#include "renderer/vk/context.h"
#include "renderer/vk/resources.h"
#include "shaders/shared/scene.h"
#include "world/scene/render_list.h"

namespace renderer {

/// The light's view of one frame: where the map covers and how its lookups are biased.
/// `constants.params.w` is 0 (lit everywhere) when the view asks for no shadows.
struct ShadowFrustum {
  gpu::ShadowConstants constants{};
  float radiusMeters = 0;  // half the side of the square the map covers
};

/// Fits the map of `mapSize` texels around the view as world::ViewParams::shadowDistanceMeters
/// describes it.
ShadowFrustum fitShadowFrustum(const world::ViewParams& view, uint32_t mapSize);

class ShadowMap {
 public:
  /// `mapSize` 0: no map is drawn (the 1x1 stand-in only).
  void create(const vkutil::Context& ctx, VkCommandPool pool, uint32_t mapSize,
              VkPipelineCache cache);
  void destroy(const vkutil::Context& ctx);
  bool enabled() const { return m_mapSize > 0; }
  /// The device filters depth compares bilinearly (else the shader blends nearest ones itself).
  bool linearCompares() const { return m_linearCompares; }
  VkDescriptorSetLayout layout() const { return m_setLayout; }
  VkDescriptorSet set() const { return m_set; }
  /// Outside any rendering scope: writes this frame's constants, clears the map and opens a
  /// depth-only rendering scope on it with the shadow pipeline bound; the caller binds vertex
  /// and index buffers and draws, then calls end().
  /// Returns false (and opens nothing) when this frame draws no map.
  bool begin(VkCommandBuffer cmd, const world::ViewParams& view) const;
  /// Closes the scope and makes the map readable by the scene pass.
  void end(VkCommandBuffer cmd) const;

 private:
  uint32_t m_mapSize = 0;
  bool m_linearCompares = false;
  vkutil::Image m_map;
  vkutil::Buffer m_constants;  // device-local; written by vkCmdUpdateBuffer in each frame
  VkSampler m_sampler = VK_NULL_HANDLE;
  VkDescriptorSetLayout m_setLayout = VK_NULL_HANDLE;
  VkDescriptorPool m_descriptorPool = VK_NULL_HANDLE;
  VkDescriptorSet m_set = VK_NULL_HANDLE;
  VkPipelineLayout m_pipelineLayout = VK_NULL_HANDLE;
  VkPipeline m_pipeline = VK_NULL_HANDLE;
};

}  // namespace renderer
