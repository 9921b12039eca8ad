// Options shared by the modes that render (tour, shot, bench): image size, device choice,
// validation, asset overrides, quality preset (app/cli/options.h adds them to a command line).
#pragma once

#include <cstdint>
#include <string>

#include "renderer/renderer.h"

namespace app {

/// The sides an image or window may have, pixels (`--size WxH`). Below about 200 pixels the UI
/// is drawn at its smallest font (6 px) and may not fit; the memory a size implies is checked by
/// checkImageMemory.
inline constexpr uint32_t MIN_IMAGE_SIDE = 16;
inline constexpr uint32_t MAX_IMAGE_SIDE = 8192;

struct RenderOptions {
  uint32_t width = 1280;
  uint32_t height = 720;
  std::string device;       // --device: index or name substring
  bool validation = false;  // --validation, or DCWALK_VALIDATION=1, or a Debug build
  std::string sizeText = "1280x720";
  std::string assetsFile;  // --assets: asset override file (world/builders/asset_overrides.h)
  renderer::Quality quality = renderer::Quality::Auto;  // --quality
};

/// Host memory a headless image may take: with the ~150 MB the rest of a run holds (catalog,
/// engine, world, fonts), every accepted size stays under 2 GiB.
inline constexpr uint64_t IMAGE_MEMORY_BUDGET_BYTES = 1792ull << 20;
/// Bytes a headless width x height image costs at `quality` (Low or High), measured on software
/// Vulkan (lavapipe keeps every attachment in host memory): Low 22 bytes a pixel (colour and
/// depth targets, readback buffer, the pixels and the PNG encoder's buffers), High 77 (4x MSAA
/// HDR colour and depth, the resolve, bloom, then the same as Low). docs/reliability.md.
uint64_t imageMemoryBytes(uint32_t width, uint32_t height, renderer::Quality quality);
/// Why a headless width x height image at `quality` is refused ("" when it fits the budget).
std::string checkImageMemory(uint32_t width, uint32_t height, renderer::Quality quality);

/// The renderer description for these options (headless unless a surface is set later).
renderer::RendererDesc rendererDesc(const RenderOptions& options);
/// Prints the number of Vulkan validation errors when there were any; returns true if none.
bool reportValidation();
/// The UI font size in pixels for an image `height` pixels tall (18 px at 720p, scaled).
float fontPixelsFor(uint32_t height);

}  // namespace app
