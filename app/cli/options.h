// The command-line face of the render options: --size WxH, --device, --validation, --assets and
// --quality. Parsing errors surface through CLI11 (one line, usage, exit 2).
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "app/session/render_options.h"
#include "app/session/trace_replay.h"

namespace app {

/// Adds --size WxH, --device, --validation, --assets and --quality to `sub`, writing into
/// `options`.
void addRenderOptions(CLI::App& sub, RenderOptions& options);
/// Adds --trace FILE..., --rank-layout and --rank-map to `sub` (its --time and --step, numbers
/// with their domains, are added by the command itself), writing into `trace`.
void addTraceOptions(CLI::App& sub, TraceRequest& trace);
/// The check of every input file option: a regular file (sim::regularFileError), else "PATH: is a
/// directory", "PATH: is not a regular file (a FIFO)", "PATH: no such file" at parse time.
const CLI::Validator& regularFile();
/// Parses "WxH" (each side MIN_IMAGE_SIDE..MAX_IMAGE_SIDE, decimal); false when malformed.
bool parseSize(const std::string& text, uint32_t& width, uint32_t& height);

}  // namespace app
