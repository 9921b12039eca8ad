// The renderer: draws a world::RenderList (plus optional ImGui draw data) into a window's
// swapchain or into an offscreen image read back as pixels. Knows nothing of sim/ or windowing.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <vulkan/vulkan.h>

#include "renderer/passes/downsample_pass.h"
#include "renderer/passes/post_pass.h"
#include "renderer/passes/scene_pass.h"
#include "renderer/vk/context.h"
#include "renderer/vk/swapchain.h"
#include "world/scene/render_list.h"

struct ImDrawData;

namespace renderer {

/// Quality presets. Low: what software Vulkan affords within the frame budgets (no MSAA, no
/// shadows, no bloom). High: 4x MSAA, sun shadows from a shadow map, bloom on glowing parts.
/// Auto: High on a GPU, Low on a CPU device (lavapipe).
enum class Quality { Auto, Low, High };

/// "auto", "low", "high".
const char* qualityName(Quality quality);

struct RendererDesc {
  bool validation = false;
  std::string devicePreference;                           // see vkutil::ContextDesc
  std::vector<std::string> instanceExtensions;            // the window system's, when there is one
  std::function<VkSurfaceKHR(VkInstance)> createSurface;  // empty: headless only
  VkExtent2D extent{1280, 720};
  vkutil::PresentModePreference presentMode = vkutil::PresentModePreference::Fifo;
  bool ui = true;  // set up ImGui's Vulkan backend (an ImGui context must exist)
  /// Pipeline cache file kept between runs; empty: no cache on disk.
  std::filesystem::path pipelineCacheFile;
  /// Saves the cache's bytes to pipelineCacheFile when the renderer goes: the app's atomic writer
  /// (app::writeFileAtomic), so the renderer has no file writer of its own; empty: not saved.
  std::function<bool(const std::filesystem::path&, std::string_view)> saveFile;
  Quality quality = Quality::Auto;
};

struct FrameStats {
  SceneStats scene;
  double gpuMilliseconds = -1;  // from timestamp queries; -1 until known
  // The scene's overdraw (setMeasureOverdraw): samples that passed the depth test over all of
  // the scene's draws (the sky excluded), and fragment-shader invocations (llvmpipe counts those
  // per 4x4 block before the early depth test, so they overstate); -1 when not measured.
  int64_t samplesPassed = -1;
  int64_t fragmentInvocations = -1;
  // Which frame (count of frames submitted before it) the GPU figures above belong to: frames
  // in flight read their queries when their slot comes round again.
  uint64_t gpuFrameIndex = 0;
  double fenceWaitMilliseconds = 0;     // CPU time spent waiting for the frame slot to be free
  double recordSubmitMilliseconds = 0;  // CPU time recording and submitting, waits excluded
};

enum class FrameResult {
  Presented,
  Skipped,  // minimised, or the swapchain was out of date and has been recreated
};

/// How a still is drawn (renderToPixels). By default in one pass at its own size. Supersampled,
/// it is drawn at `supersample` times its size along each axis, but never as one image that
/// large: in tiles of at most `maxTilePixels` a side, each an off-axis part of the same view
/// (SceneTile), box-filtered down into the picture in linear light; the post pass (bloom) and
/// the UI then run once over the picture, as for an untiled still. So it is the same picture,
/// anti-aliased, in memory bounded by the tile and the picture.
struct StillSpec {
  static constexpr uint32_t DEFAULT_MAX_TILE_PIXELS = 2048;
  uint32_t supersample = 1;    // 1..MAX_SUPERSAMPLE
  uint32_t maxTilePixels = 0;  // 0: one untiled pass at 1x, DEFAULT_MAX_TILE_PIXELS supersampled
  bool tiled() const { return supersample > 1 || maxTilePixels > 0; }
};

/// One tile of a supersampled frame: its rectangle in target pixels.
struct StillTile {
  uint32_t x = 0, y = 0, width = 0, height = 0;
};

/// The tiles of a `frame`-sized frame supersampled `factor` times, row by row from the top left:
/// at most `maxTilePixels` a side (at least one step), each a whole number of picture pixels
/// (multiples of `factor`), and starting at multiples of 4, so that scene.frag's 4x4 ordered
/// dither runs on across tiles as in one image.
std::vector<StillTile> stillTiles(VkExtent2D frame, uint32_t factor, uint32_t maxTilePixels);

/// An RGBA8 image, rows top to bottom.
struct Pixels {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgba;
};

class Renderer {
 public:
  /// Creates the renderer, or returns null with a message in `error`.
  static std::unique_ptr<Renderer> create(const RendererDesc& desc, std::string& error);
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  const std::string& deviceName() const { return m_deviceName; }
  const vkutil::Context& context() const { return m_ctx; }
  /// Uploads the mesh library when its revision differs from what the GPU holds, without waiting
  /// for the GPU: the frames in flight finish with the old buffers, destroyed after them.
  void setMeshes(const world::MeshLibrary& meshes);
  /// Uploads the texture library when its revision differs from what the GPU holds.
  void setTextures(const world::TextureLibrary& textures);
  /// Window mode: acquire, record, submit and present one frame at `windowExtent`.
  FrameResult drawFrame(const world::RenderList& list, ImDrawData* ui, VkExtent2D windowExtent);
  /// Headless mode (also usable with a window): renders one frame offscreen and reads it back;
  /// with a tiled `still`, supersampled in tiles (StillSpec).
  Pixels renderToPixels(const world::RenderList& list, ImDrawData* ui, VkExtent2D extent,
                        const StillSpec& still = {});
  /// Headless without readback (the benchmark): submits one frame offscreen and returns at once;
  /// up to two frames are in flight, as in a window.
  void drawOffscreen(const world::RenderList& list, ImDrawData* ui, VkExtent2D extent);
  const FrameStats& lastFrameStats() const { return m_stats; }
  /// Records the overdraw queries in every frame from now on (when the device has them: precise
  /// occlusion queries, pipeline statistics). The bench's measurement.
  void setMeasureOverdraw(bool on) { m_measureOverdraw = on; }
  /// Frames submitted so far.
  uint64_t framesSubmitted() const { return m_frameIndex; }
  /// The preset in use (Auto resolved to Low or High) and its samples per pixel.
  Quality quality() const { return m_quality; }
  uint32_t samplesPerPixel() const { return uint32_t(m_samples); }
  /// Waits until the GPU is idle (before tearing down things the frames use).
  void waitIdle() const;
  /// Uploads ImGui's font atlas again after the app rebuilt it (the UI scale followed a resized
  /// window); waits for the GPU first. Nothing without a UI.
  void reloadUiFonts();

 private:
  struct Frame;
  Renderer() = default;
  bool init(const RendererDesc& desc, std::string& error);
  Frame& beginFrame();
  void uploadInstances(Frame& frame, const world::RenderList& list);
  /// Destroys the retired buffers no frame in flight can read any more.
  void releaseRetired(bool all);
  /// `still`: a tiled still (recordTiles), else the scene in one pass.
  void recordFrame(Frame& frame, const world::RenderList& list, ImDrawData* ui, VkImage target,
                   VkImageView targetView, VkExtent2D extent, VkImageLayout finalLayout,
                   VkPipelineStageFlags2 finalStage, VkAccessFlags2 finalAccess,
                   const StillSpec* still = nullptr);
  /// The scene's rendering scope: the sky and the batches into `colorView` at `extent` (through
  /// the multisampled image and resolved, with MSAA).
  void recordScene(VkCommandBuffer cmd, const world::RenderList& list, VkBuffer instances,
                   VkImageView colorView, VkExtent2D extent, const SceneQueries& queries,
                   const SceneTile& tile = {});
  /// A supersampled still's scene (renderer/tiled_still.cpp): tile by tile into the downsample
  /// pass's tile image, each box-filtered into `pictureView` (a colour attachment at `extent`).
  void recordTiles(VkCommandBuffer cmd, const world::RenderList& list, VkBuffer instances,
                   VkImageView pictureView, VkExtent2D extent, const StillSpec& still);
  /// Everything a tiled still needs before it is recorded (its pipelines, the tile image).
  void prepareTiles(VkExtent2D extent, const StillSpec& still);
  /// The depth image and, with MSAA, the multisampled colour image at `sceneExtent` (a tile's,
  /// or the picture's), and the post pass's images at the picture's `extent`.
  void ensureAttachments(VkExtent2D sceneExtent, VkExtent2D extent);
  void ensureOffscreen(VkExtent2D extent);
  bool recreateSwapchain(VkExtent2D extent);
  void readTimestamps(Frame& frame);
  /// Records and submits one offscreen frame; with `readback`, also copies it to m_readback.
  Frame& submitOffscreen(const world::RenderList& list, ImDrawData* ui, VkExtent2D extent,
                         bool readback, const StillSpec* still = nullptr);

  vkutil::Context m_ctx;
  std::string m_deviceName;
  VkFormat m_colorFormat = VK_FORMAT_B8G8R8A8_UNORM;  // the target's (swapchain or offscreen)
  VkFormat m_sceneFormat = VK_FORMAT_B8G8R8A8_UNORM;  // what the scene pass draws: the target's,
                                                      // or the post pass's float image
  static constexpr VkFormat DEPTH_FORMAT = VK_FORMAT_D32_SFLOAT;
  VkCommandPool m_uploadPool = VK_NULL_HANDLE;
  std::vector<std::unique_ptr<Frame>> m_frames;  // the frame ring (2)
  uint64_t m_frameIndex = 0;
  // Buffers replaced while frames were in flight: read by frames before `frame`, no later one.
  struct Retired {
    vkutil::Buffer buffer;
    uint64_t frame = 0;
  };
  std::vector<Retired> m_retired;
  ScenePass m_scene;
  std::unique_ptr<PostPass> m_post;              // the high preset's bloom and composite
  std::unique_ptr<DownsamplePass> m_downsample;  // made for the first supersampled still
  std::unique_ptr<class UiPass> m_ui;
  vkutil::Swapchain m_swapchain;
  bool m_swapchainStale = false;
  vkutil::PresentModePreference m_presentMode = vkutil::PresentModePreference::Fifo;
  Quality m_quality = Quality::Low;
  VkSampleCountFlagBits m_samples = VK_SAMPLE_COUNT_1_BIT;
  vkutil::Image m_depth;
  vkutil::Image m_msaaColor;  // resolved into the target at the end of the scene pass
  vkutil::Image m_offscreen;
  vkutil::Buffer m_readback;
  VkPipelineCache m_pipelineCache = VK_NULL_HANDLE;
  std::filesystem::path m_pipelineCacheFile;
  std::function<bool(const std::filesystem::path&, std::string_view)> m_saveFile;
  FrameStats m_stats;
  bool m_measureOverdraw = false;
};

}  // namespace renderer
