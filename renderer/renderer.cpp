#include "renderer/renderer.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include <imgui.h>

#include "renderer/passes/ui_pass.h"
#include "renderer/vk/check.h"
#include "renderer/vk/pipeline_cache.h"
#include "renderer/vk/resources.h"

namespace renderer {

// One slot of the frame ring: what one frame in flight owns.
struct Renderer::Frame {
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkFence done = VK_NULL_HANDLE;
  VkSemaphore imageAcquired = VK_NULL_HANDLE;
  vkutil::Buffer instances;
  VkQueryPool timestamps = VK_NULL_HANDLE;
  bool timestampsWritten = false;
  // The overdraw measurement: one precise occlusion query and one pipeline-statistics query
  // around the scene's draws.
  VkQueryPool occlusion = VK_NULL_HANDLE;
  VkQueryPool fragments = VK_NULL_HANDLE;
  bool overdrawWritten = false;
  uint64_t index = 0;  // the renderer's frame count when this slot was last submitted
};

namespace {
constexpr uint32_t FRAMES_IN_FLIGHT = 2;
constexpr VkDeviceSize MIN_INSTANCE_BUFFER_BYTES = 64 * 1024;
constexpr VkSampleCountFlagBits HIGH_QUALITY_SAMPLES = VK_SAMPLE_COUNT_4_BIT;
constexpr uint32_t HIGH_QUALITY_SHADOW_MAP_TEXELS = 2048;
}  // namespace

const char* qualityName(Quality quality) {
  switch (quality) {
    case Quality::Auto:
      return "auto";
    case Quality::Low:
      return "low";
    case Quality::High:
      return "high";
  }
  return "?";
}

std::unique_ptr<Renderer> Renderer::create(const RendererDesc& desc, std::string& error) {
  std::unique_ptr<Renderer> r(new Renderer());
  if (!r->init(desc, error)) return nullptr;
  return r;
}

bool Renderer::init(const RendererDesc& desc, std::string& error) {
  vkutil::ContextDesc contextDesc;
  contextDesc.validation = desc.validation;
  contextDesc.devicePreference = desc.devicePreference;
  contextDesc.instanceExtensions = desc.instanceExtensions;
  contextDesc.createSurface = desc.createSurface;
  if (!vkutil::createContext(contextDesc, m_ctx, error)) return false;
  m_deviceName = m_ctx.properties.deviceName;
  m_presentMode = desc.presentMode;

  VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  poolInfo.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  poolInfo.queueFamilyIndex = m_ctx.queueFamily;
  VK_CHECK(vkCreateCommandPool(m_ctx.device, &poolInfo, nullptr, &m_uploadPool));

  for (uint32_t i = 0; i < FRAMES_IN_FLIGHT; ++i) {
    auto frame = std::make_unique<Frame>();
    VkCommandPoolCreateInfo framePool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    framePool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    framePool.queueFamilyIndex = m_ctx.queueFamily;
    VK_CHECK(vkCreateCommandPool(m_ctx.device, &framePool, nullptr, &frame->pool));
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = frame->pool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VK_CHECK(vkAllocateCommandBuffers(m_ctx.device, &alloc, &frame->cmd));
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    fenceInfo.flags = VK_FENCE_CREATE_SIGNALED_BIT;
    VK_CHECK(vkCreateFence(m_ctx.device, &fenceInfo, nullptr, &frame->done));
    VkSemaphoreCreateInfo semInfo{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    VK_CHECK(vkCreateSemaphore(m_ctx.device, &semInfo, nullptr, &frame->imageAcquired));
    frame->instances = vkutil::createHostBuffer(m_ctx, MIN_INSTANCE_BUFFER_BYTES,
                                                VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    if (m_ctx.timestampsSupported) {
      VkQueryPoolCreateInfo queryInfo{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
      queryInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
      queryInfo.queryCount = 2;
      VK_CHECK(vkCreateQueryPool(m_ctx.device, &queryInfo, nullptr, &frame->timestamps));
    }
    if (m_ctx.occlusionQueryPrecise) {
      VkQueryPoolCreateInfo queryInfo{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
      queryInfo.queryType = VK_QUERY_TYPE_OCCLUSION;
      queryInfo.queryCount = 1;
      VK_CHECK(vkCreateQueryPool(m_ctx.device, &queryInfo, nullptr, &frame->occlusion));
    }
    if (m_ctx.pipelineStatisticsQuery) {
      VkQueryPoolCreateInfo queryInfo{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
      queryInfo.queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS;
      queryInfo.queryCount = 1;
      queryInfo.pipelineStatistics = VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT;
      VK_CHECK(vkCreateQueryPool(m_ctx.device, &queryInfo, nullptr, &frame->fragments));
    }
    m_frames.push_back(std::move(frame));
  }

  if (m_ctx.surface) {
    m_colorFormat = vkutil::chooseSurfaceFormat(m_ctx);
    recreateSwapchain(desc.extent);  // a 0x0 window gets its swapchain on the first real frame
  }
  m_pipelineCacheFile = desc.pipelineCacheFile;
  m_saveFile = desc.saveFile;
  m_pipelineCache = vkutil::loadPipelineCache(m_ctx, m_pipelineCacheFile);
  m_quality = desc.quality;
  if (m_quality == Quality::Auto) {
    m_quality =
        m_ctx.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? Quality::Low : Quality::High;
  }
  const VkSampleCountFlags supported = m_ctx.properties.limits.framebufferColorSampleCounts &
                                       m_ctx.properties.limits.framebufferDepthSampleCounts;
  m_samples = m_quality == Quality::High && (supported & HIGH_QUALITY_SAMPLES)
                  ? HIGH_QUALITY_SAMPLES
                  : VK_SAMPLE_COUNT_1_BIT;
  ScenePassDesc scene;
  scene.colorFormat = m_colorFormat;
  scene.depthFormat = DEPTH_FORMAT;
  scene.samples = m_samples;
  scene.cache = m_pipelineCache;
  if (m_quality == Quality::High) {
    m_post = std::make_unique<PostPass>();
    m_post->create(m_ctx, m_colorFormat, m_pipelineCache);
    scene.colorFormat = PostPass::HDR_FORMAT;
    scene.linearOutput = true;
    scene.shadowMapSize =
        std::min(HIGH_QUALITY_SHADOW_MAP_TEXELS, m_ctx.properties.limits.maxImageDimension2D);
  }
  m_sceneFormat = scene.colorFormat;
  m_scene.create(m_ctx, m_uploadPool, scene);
  if (desc.ui) {
    m_ui = std::make_unique<UiPass>();
    uint32_t images = std::max<uint32_t>(3, static_cast<uint32_t>(m_swapchain.images.size()));
    m_ui->create(m_ctx, m_colorFormat, images, m_uploadPool);
  }
  return true;
}

Renderer::~Renderer() {
  if (!m_ctx.device) {
    vkutil::destroyContext(m_ctx);
    return;
  }
  vkDeviceWaitIdle(m_ctx.device);
  releaseRetired(true);
  if (m_ui) m_ui->destroy(m_ctx);
  if (m_post) m_post->destroy(m_ctx);
  if (m_downsample) m_downsample->destroy(m_ctx);
  m_scene.destroy(m_ctx);
  vkutil::savePipelineCache(m_ctx, m_pipelineCache, m_pipelineCacheFile, m_saveFile);
  vkDestroyPipelineCache(m_ctx.device, m_pipelineCache, nullptr);
  for (auto& frame : m_frames) {
    vkutil::destroyBuffer(m_ctx, frame->instances);
    if (frame->timestamps) vkDestroyQueryPool(m_ctx.device, frame->timestamps, nullptr);
    if (frame->occlusion) vkDestroyQueryPool(m_ctx.device, frame->occlusion, nullptr);
    if (frame->fragments) vkDestroyQueryPool(m_ctx.device, frame->fragments, nullptr);
    vkDestroySemaphore(m_ctx.device, frame->imageAcquired, nullptr);
    vkDestroyFence(m_ctx.device, frame->done, nullptr);
    vkDestroyCommandPool(m_ctx.device, frame->pool, nullptr);
  }
  vkutil::destroySwapchain(m_ctx, m_swapchain);
  vkutil::destroyImage(m_ctx, m_depth);
  vkutil::destroyImage(m_ctx, m_msaaColor);
  vkutil::destroyImage(m_ctx, m_offscreen);
  vkutil::destroyBuffer(m_ctx, m_readback);
  vkDestroyCommandPool(m_ctx.device, m_uploadPool, nullptr);
  vkutil::destroyContext(m_ctx);
}

void Renderer::reloadUiFonts() {
  if (!m_ui) return;
  waitIdle();
  m_ui->reloadFonts(m_ctx, m_uploadPool);
}

void Renderer::waitIdle() const {
  vkDeviceWaitIdle(m_ctx.device);
}

void Renderer::setMeshes(const world::MeshLibrary& meshes) {
  if (meshes.revision() == m_scene.uploadedRevision()) return;
  // A world swapped in a running window: no wait for the GPU (the frames drawing the old world
  // keep their buffers until beginFrame sees them done).
  std::vector<vkutil::Buffer> old;
  m_scene.uploadMeshes(m_ctx, m_uploadPool, meshes, old);
  for (const vkutil::Buffer& b : old) m_retired.push_back({b, m_frameIndex});
}

void Renderer::releaseRetired(bool all) {
  // beginFrame waited for frame m_frameIndex - FRAMES_IN_FLIGHT (its slot's fence), and a queue
  // finishes its frames in order: a buffer last read by frame `frame - 1` is free from then on.
  std::erase_if(m_retired, [&](Retired& r) {
    if (!all && r.frame + FRAMES_IN_FLIGHT - 1 > m_frameIndex) return false;
    vkutil::destroyBuffer(m_ctx, r.buffer);
    return true;
  });
}

void Renderer::setTextures(const world::TextureLibrary& textures) {
  if (textures.revision() == m_scene.uploadedTextureRevision()) return;
  vkDeviceWaitIdle(m_ctx.device);
  m_scene.uploadTextures(m_ctx, m_uploadPool, textures);
}

Renderer::Frame& Renderer::beginFrame() {
  Frame& frame = *m_frames[m_frameIndex % FRAMES_IN_FLIGHT];
  const auto start = std::chrono::steady_clock::now();
  VK_WAIT_FENCE(m_ctx.device, frame.done);
  releaseRetired(false);
  m_stats.fenceWaitMilliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  readTimestamps(frame);
  return frame;
}

void Renderer::readTimestamps(Frame& frame) {
  m_stats.gpuFrameIndex = frame.index;
  m_stats.samplesPassed = m_stats.fragmentInvocations = -1;
  if (frame.overdrawWritten) {
    uint64_t value = 0;
    if (frame.occlusion &&
        vkGetQueryPoolResults(m_ctx.device, frame.occlusion, 0, 1, sizeof(value), &value,
                              sizeof(value), VK_QUERY_RESULT_64_BIT) == VK_SUCCESS) {
      m_stats.samplesPassed = int64_t(value);
    }
    if (frame.fragments &&
        vkGetQueryPoolResults(m_ctx.device, frame.fragments, 0, 1, sizeof(value), &value,
                              sizeof(value), VK_QUERY_RESULT_64_BIT) == VK_SUCCESS) {
      m_stats.fragmentInvocations = int64_t(value);
    }
    frame.overdrawWritten = false;
  }
  if (!frame.timestamps || !frame.timestampsWritten) return;
  uint64_t ticks[2] = {0, 0};
  if (vkGetQueryPoolResults(m_ctx.device, frame.timestamps, 0, 2, sizeof(ticks), ticks,
                            sizeof(uint64_t), VK_QUERY_RESULT_64_BIT) == VK_SUCCESS) {
    m_stats.gpuMilliseconds =
        double(ticks[1] - ticks[0]) * m_ctx.properties.limits.timestampPeriod * 1e-6;
  }
  frame.timestampsWritten = false;
}

void Renderer::uploadInstances(Frame& frame, const world::RenderList& list) {
  VkDeviceSize bytes = list.instances.size() * sizeof(gpu::Instance);
  if (bytes > frame.instances.size) {
    // Safe to replace: this frame's fence has been waited on.
    VkDeviceSize capacity = frame.instances.size;
    while (capacity < bytes) capacity *= 2;
    vkutil::destroyBuffer(m_ctx, frame.instances);
    frame.instances = vkutil::createHostBuffer(m_ctx, capacity, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  }
  if (bytes) std::memcpy(frame.instances.mapped, list.instances.data(), bytes);
}

void Renderer::ensureAttachments(VkExtent2D sceneExtent, VkExtent2D extent) {
  const auto same = [](VkExtent2D a, VkExtent2D b) {
    return a.width == b.width && a.height == b.height;
  };
  const bool scene = m_depth.image && same(m_depth.extent, sceneExtent);
  const bool post = !m_post || same(m_post->extent(), extent);
  if (scene && post) return;
  vkDeviceWaitIdle(m_ctx.device);
  if (!post) m_post->resize(m_ctx, extent);
  if (scene) return;
  vkutil::destroyImage(m_ctx, m_depth);
  vkutil::destroyImage(m_ctx, m_msaaColor);
  vkutil::ImageShape shape;
  shape.samples = m_samples;
  m_depth = vkutil::createImage2D(m_ctx, DEPTH_FORMAT, sceneExtent,
                                  VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                                  VK_IMAGE_ASPECT_DEPTH_BIT, shape);
  if (m_samples != VK_SAMPLE_COUNT_1_BIT) {
    m_msaaColor = vkutil::createImage2D(
        m_ctx, m_sceneFormat, sceneExtent,
        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT,
        VK_IMAGE_ASPECT_COLOR_BIT, shape);
  }
}

void Renderer::ensureOffscreen(VkExtent2D extent) {
  if (m_offscreen.image && m_offscreen.extent.width == extent.width &&
      m_offscreen.extent.height == extent.height) {
    return;
  }
  vkDeviceWaitIdle(m_ctx.device);
  if (m_ui) m_ui->releaseFramebuffers(m_ctx);
  vkutil::destroyImage(m_ctx, m_offscreen);
  vkutil::destroyBuffer(m_ctx, m_readback);
  m_offscreen =
      vkutil::createImage2D(m_ctx, m_colorFormat, extent,
                            VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                            VK_IMAGE_ASPECT_COLOR_BIT);
  m_readback = vkutil::createHostBuffer(m_ctx, VkDeviceSize(extent.width) * extent.height * 4,
                                        VK_BUFFER_USAGE_TRANSFER_DST_BIT);
}

bool Renderer::recreateSwapchain(VkExtent2D extent) {
  vkDeviceWaitIdle(m_ctx.device);
  if (m_ui) m_ui->releaseFramebuffers(m_ctx);
  bool ok = vkutil::createSwapchain(m_ctx, extent, m_presentMode, m_swapchain);
  m_swapchainStale = !ok;
  return ok;
}

void Renderer::recordFrame(Frame& frame, const world::RenderList& list, ImDrawData* ui,
                           VkImage target, VkImageView targetView, VkExtent2D extent,
                           VkImageLayout finalLayout, VkPipelineStageFlags2 finalStage,
                           VkAccessFlags2 finalAccess, const StillSpec* still) {
  VkCommandBuffer cmd = frame.cmd;
  VK_CHECK(vkResetCommandBuffer(cmd, 0));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
  if (frame.timestamps) {
    vkCmdResetQueryPool(cmd, frame.timestamps, 0, 2);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, frame.timestamps, 0);
  }
  SceneQueries queries;
  if (m_measureOverdraw) {
    queries.occlusion = frame.occlusion;
    queries.fragments = frame.fragments;
    if (frame.occlusion) vkCmdResetQueryPool(cmd, frame.occlusion, 0, 1);
    if (frame.fragments) vkCmdResetQueryPool(cmd, frame.fragments, 0, 1);
    frame.overdrawWritten = frame.occlusion || frame.fragments;
  }

  // The previous contents are never needed: every frame starts from the sky.
  vkutil::transitionImage(
      cmd, target, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
      VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, 0,
      VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);

  // The high preset draws the scene into the post pass's float image, after the shadow map.
  if (m_post) {
    m_scene.recordShadows(cmd, list, frame.instances.buffer);
    m_post->beginScene(cmd);
  }
  const VkImageView sceneView = m_post ? m_post->sceneView() : targetView;
  if (still) {
    recordTiles(cmd, list, frame.instances.buffer, sceneView, extent, *still);
  } else {
    recordScene(cmd, list, frame.instances.buffer, sceneView, extent, queries);
  }
  if (m_post) m_post->record(cmd, targetView, extent);

  if (ui && m_ui && ui->CmdListsCount > 0) m_ui->record(m_ctx, cmd, ui, targetView, extent);

  vkutil::transitionImage(cmd, target, VK_IMAGE_ASPECT_COLOR_BIT,
                          VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, finalLayout,
                          VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                          VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, finalStage, finalAccess);
  if (frame.timestamps) {
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, frame.timestamps, 1);
  }
}

void Renderer::recordScene(VkCommandBuffer cmd, const world::RenderList& list, VkBuffer instances,
                           VkImageView colorView, VkExtent2D extent, const SceneQueries& queries,
                           const SceneTile& tile) {
  // One depth image serves both frames in flight (and every tile); this barrier orders them.
  vkutil::transitionImage(
      cmd, m_depth.image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
      VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
      VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
      VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
      VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
      VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
          VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
  VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  color.imageView = colorView;
  color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  color.loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;  // the sky covers every pixel
  color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  if (m_msaaColor.image) {
    // Drawn multisampled, resolved (averaged) into the target when the scene pass ends; like
    // the depth image, one serves both frames in flight.
    vkutil::transitionImage(
        cmd, m_msaaColor.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
        VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    color.imageView = m_msaaColor.view;
    color.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    color.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
    color.resolveImageView = colorView;
    color.resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  }
  VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  depth.imageView = m_depth.view;
  depth.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
  depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  depth.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  depth.clearValue.depthStencil = {0.0f, 0};  // reverse-Z: 0 is infinitely far
  VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
  rendering.renderArea = {{0, 0}, extent};
  rendering.layerCount = 1;
  rendering.colorAttachmentCount = 1;
  rendering.pColorAttachments = &color;
  rendering.pDepthAttachment = &depth;
  vkCmdBeginRendering(cmd, &rendering);
  m_stats.scene = m_scene.record(cmd, list, instances, extent, queries, tile);
  vkCmdEndRendering(cmd);
}

FrameResult Renderer::drawFrame(const world::RenderList& list, ImDrawData* ui,
                                VkExtent2D windowExtent) {
  if (!m_ctx.surface) return FrameResult::Skipped;
  if (windowExtent.width == 0 || windowExtent.height == 0) return FrameResult::Skipped;
  Frame& frame = beginFrame();
  if (m_swapchainStale || !m_swapchain.swapchain ||
      windowExtent.width != m_swapchain.extent.width ||
      windowExtent.height != m_swapchain.extent.height) {
    if (!recreateSwapchain(windowExtent)) return FrameResult::Skipped;
  }

  uint32_t imageIndex = 0;
  VkResult acquired = vkAcquireNextImageKHR(m_ctx.device, m_swapchain.swapchain, UINT64_MAX,
                                            frame.imageAcquired, VK_NULL_HANDLE, &imageIndex);
  if (acquired == VK_ERROR_OUT_OF_DATE_KHR) {
    recreateSwapchain(windowExtent);
    return FrameResult::Skipped;
  }
  if (acquired == VK_SUBOPTIMAL_KHR)
    m_swapchainStale = true;  // present this one, then recreate
  else
    VK_CHECK(acquired);

  VK_CHECK(vkResetFences(m_ctx.device, 1, &frame.done));
  uploadInstances(frame, list);
  ensureAttachments(m_swapchain.extent, m_swapchain.extent);
  recordFrame(frame, list, ui, m_swapchain.images[imageIndex], m_swapchain.views[imageIndex],
              m_swapchain.extent, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
              VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, 0);
  VK_CHECK(vkEndCommandBuffer(frame.cmd));

  VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
  wait.semaphore = frame.imageAcquired;
  wait.stageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
  VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
  signal.semaphore = m_swapchain.renderFinished[imageIndex];
  signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  VkCommandBufferSubmitInfo cmdInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
  cmdInfo.commandBuffer = frame.cmd;
  VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  submit.waitSemaphoreInfoCount = 1;
  submit.pWaitSemaphoreInfos = &wait;
  submit.commandBufferInfoCount = 1;
  submit.pCommandBufferInfos = &cmdInfo;
  submit.signalSemaphoreInfoCount = 1;
  submit.pSignalSemaphoreInfos = &signal;
  VK_CHECK(vkutil::queueSubmit(m_ctx.queue, submit, frame.done));
  frame.timestampsWritten = frame.timestamps != VK_NULL_HANDLE;
  frame.index = m_frameIndex++;

  VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  present.waitSemaphoreCount = 1;
  present.pWaitSemaphores = &m_swapchain.renderFinished[imageIndex];
  present.swapchainCount = 1;
  present.pSwapchains = &m_swapchain.swapchain;
  present.pImageIndices = &imageIndex;
  VkResult presented = vkQueuePresentKHR(m_ctx.queue, &present);
  if (presented == VK_ERROR_OUT_OF_DATE_KHR || presented == VK_SUBOPTIMAL_KHR) {
    m_swapchainStale = true;
  } else {
    VK_CHECK(presented);
  }
  return FrameResult::Presented;
}

Renderer::Frame& Renderer::submitOffscreen(const world::RenderList& list, ImDrawData* ui,
                                           VkExtent2D extent, bool readback,
                                           const StillSpec* still) {
  Frame& frame = beginFrame();
  ensureOffscreen(extent);
  if (still) {
    prepareTiles(extent, *still);
  } else {
    ensureAttachments(extent, extent);
  }
  VK_CHECK(vkResetFences(m_ctx.device, 1, &frame.done));
  uploadInstances(frame, list);
  if (readback) {
    recordFrame(frame, list, ui, m_offscreen.image, m_offscreen.view, extent,
                VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                VK_ACCESS_2_TRANSFER_READ_BIT, still);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {extent.width, extent.height, 1};
    vkCmdCopyImageToBuffer(frame.cmd, m_offscreen.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                           m_readback.buffer, 1, &region);
    vkutil::bufferBarrier(frame.cmd, m_readback.buffer, VK_PIPELINE_STAGE_2_COPY_BIT,
                          VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                          VK_ACCESS_2_HOST_READ_BIT);
  } else {
    // The next frame's UNDEFINED -> COLOR_ATTACHMENT barrier orders it after this one.
    recordFrame(frame, list, ui, m_offscreen.image, m_offscreen.view, extent,
                VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
  }
  VK_CHECK(vkEndCommandBuffer(frame.cmd));

  VkCommandBufferSubmitInfo cmdInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
  cmdInfo.commandBuffer = frame.cmd;
  VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  submit.commandBufferInfoCount = 1;
  submit.pCommandBufferInfos = &cmdInfo;
  VK_CHECK(vkutil::queueSubmit(m_ctx.queue, submit, frame.done));
  frame.timestampsWritten = frame.timestamps != VK_NULL_HANDLE;
  frame.index = m_frameIndex++;
  return frame;
}

void Renderer::drawOffscreen(const world::RenderList& list, ImDrawData* ui, VkExtent2D extent) {
  const auto start = std::chrono::steady_clock::now();
  submitOffscreen(list, ui, extent, /*readback=*/false);
  const double total =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  m_stats.recordSubmitMilliseconds = total - m_stats.fenceWaitMilliseconds;
}

Pixels Renderer::renderToPixels(const world::RenderList& list, ImDrawData* ui, VkExtent2D extent,
                                const StillSpec& still) {
  Frame& frame =
      submitOffscreen(list, ui, extent, /*readback=*/true, still.tiled() ? &still : nullptr);
  VK_WAIT_FENCE(m_ctx.device, frame.done);
  releaseRetired(false);
  readTimestamps(frame);

  Pixels pixels;
  pixels.width = extent.width;
  pixels.height = extent.height;
  pixels.rgba.resize(size_t(extent.width) * extent.height * 4);
  std::memcpy(pixels.rgba.data(), m_readback.mapped, pixels.rgba.size());
  if (m_colorFormat == VK_FORMAT_B8G8R8A8_UNORM) {
    for (size_t i = 0; i < pixels.rgba.size(); i += 4)
      std::swap(pixels.rgba[i], pixels.rgba[i + 2]);
  }
  return pixels;
}

}  // namespace renderer
