// Options shared by the commands that render (tour, shot, bench): image size, device choice,
// validation, asset overrides, quality preset. Parsing errors surface through CLI11 (one line,
// usage, exit 2).
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "renderer/renderer.h"

namespace app {

struct RenderOptions {
  uint32_t width = 1280;
  uint32_t height = 720;
  std::string device;       // --device: index or name substring
  bool validation = false;  // --validation, or DCWALK_VALIDATION=1, or a Debug build
  std::string sizeText = "1280x720";
  std::string assetsFile;  // --assets: asset override file (world/build/asset_overrides.h)
  renderer::Quality quality = renderer::Quality::Auto;  // --quality
};

/// Adds --size WxH, --device, --validation, --assets and --quality to `sub`, writing into
/// `options`.
void addRenderOptions(CLI::App& sub, RenderOptions& options);
/// Parses "WxH" (each 16..8192); false when malformed.
bool parseSize(const std::string& text, uint32_t& width, uint32_t& height);
/// The renderer description for these options (headless unless a surface is set later).
renderer::RendererDesc rendererDesc(const RenderOptions& options);
/// Prints the number of Vulkan validation errors when there were any; returns true if none.
bool reportValidation();
/// The UI font size in pixels for an image `height` pixels tall (18 px at 720p, scaled).
float fontPixelsFor(uint32_t height);

}  // namespace app
