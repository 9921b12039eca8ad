// The supersampled still (StillSpec): the N-times-larger frame drawn tile by tile, each tile the
// same camera through an off-axis projection of its part of the view, box-filtered into the
// picture; the post pass and the UI then run over the picture (Renderer::recordFrame).
#include <algorithm>
#include <numeric>

#include "renderer/renderer.h"
#include "renderer/vk/check.h"

namespace renderer {

std::vector<StillTile> stillTiles(VkExtent2D frame, uint32_t factor, uint32_t maxTilePixels) {
  // A step of whole picture pixels that is also a whole number of 4x4 dither cells.
  const uint32_t step = std::lcm(std::max(factor, 1u), 4u);
  const uint32_t side = std::max(step, maxTilePixels / step * step);
  std::vector<StillTile> tiles;
  for (uint32_t y = 0; y < frame.height; y += side) {
    for (uint32_t x = 0; x < frame.width; x += side) {
      tiles.push_back({x, y, std::min(side, frame.width - x), std::min(side, frame.height - y)});
    }
  }
  return tiles;
}

namespace {

uint32_t factorOf(const StillSpec& still) {
  return std::clamp(still.supersample, 1u, MAX_SUPERSAMPLE);
}

std::vector<StillTile> tilesOf(VkExtent2D extent, const StillSpec& still) {
  const uint32_t factor = factorOf(still);
  const uint32_t maxTile =
      still.maxTilePixels ? still.maxTilePixels : StillSpec::DEFAULT_MAX_TILE_PIXELS;
  return stillTiles({extent.width * factor, extent.height * factor}, factor, maxTile);
}

}  // namespace

void Renderer::prepareTiles(VkExtent2D extent, const StillSpec& still) {
  const std::vector<StillTile> tiles = tilesOf(extent, still);
  const VkExtent2D tile{tiles.front().width, tiles.front().height};  // the largest
  if (!m_downsample) {
    vkDeviceWaitIdle(m_ctx.device);
    m_downsample = std::make_unique<DownsamplePass>();
    m_downsample->create(m_ctx, m_sceneFormat, /*srgb=*/!m_post, m_pipelineCache);
  }
  if (m_downsample->extent().width != tile.width || m_downsample->extent().height != tile.height) {
    vkDeviceWaitIdle(m_ctx.device);
    m_downsample->resize(m_ctx, tile);
  }
  m_scene.prepareSupersample(m_ctx, factorOf(still));
  ensureAttachments(tile, extent);
}

void Renderer::recordTiles(VkCommandBuffer cmd, const world::RenderList& list, VkBuffer instances,
                           VkImageView pictureView, VkExtent2D extent, const StillSpec& still) {
  const uint32_t factor = factorOf(still);
  const float frameWidth = float(extent.width * factor),
              frameHeight = float(extent.height * factor);
  SceneTile part;
  part.aspect = float(extent.width) / float(extent.height);
  part.supersample = factor;
  for (const StillTile& tile : tilesOf(extent, still)) {
    // The tile's part of the view in the whole frame's NDC (-1..1, y down like the pixels).
    part.part = {2.0f * float(tile.x) / frameWidth - 1.0f,
                 2.0f * float(tile.y) / frameHeight - 1.0f,
                 2.0f * float(tile.x + tile.width) / frameWidth - 1.0f,
                 2.0f * float(tile.y + tile.height) / frameHeight - 1.0f};
    m_downsample->beginTile(cmd);
    recordScene(cmd, list, instances, m_downsample->tileView(), {tile.width, tile.height}, {},
                part);
    const VkRect2D area{{int32_t(tile.x / factor), int32_t(tile.y / factor)},
                        {tile.width / factor, tile.height / factor}};
    m_downsample->record(cmd, pictureView, area, factor);
  }
}

}  // namespace renderer
