// Options shared by the modes that render (tour, shot, bench): image size, device choice,
// validation, asset overrides, quality preset (app/cli/options.h adds them to a command line).
#pragma once

#include <cstdint>
#include <string>

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

/// The renderer description for these options (headless unless a surface is set later).
renderer::RendererDesc rendererDesc(const RenderOptions& options);
/// Prints the number of Vulkan validation errors when there were any; returns true if none.
bool reportValidation();
/// The UI font size in pixels for an image `height` pixels tall (18 px at 720p, scaled).
float fontPixelsFor(uint32_t height);

}  // namespace app
