// The command-line face of the render options: --size WxH, --device, --validation, --assets and
// --quality. Parsing errors surface through CLI11 (one line, usage, exit 2).
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "app/session/render_options.h"

namespace app {

/// Adds --size WxH, --device, --validation, --assets and --quality to `sub`, writing into
/// `options`.
void addRenderOptions(CLI::App& sub, RenderOptions& options);
/// Parses "WxH" (each side MIN_IMAGE_SIDE..MAX_IMAGE_SIDE, decimal); false when malformed.
bool parseSize(const std::string& text, uint32_t& width, uint32_t& height);

}  // namespace app
