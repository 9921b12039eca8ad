// PNG in and out (stb), for headless shots and golden-image tests.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "renderer/renderer.h"

namespace renderer {

/// RGBA8 pixels as the bytes of a PNG file; empty, with a message, on failure. Files are written
/// by the app (app::writePng: atomically, every write checked).
std::string encodePng(const Pixels& pixels, std::string& error);
/// Reads a PNG as RGBA8; false with a message on failure.
bool readPng(const std::filesystem::path& path, Pixels& pixels, std::string& error);

}  // namespace renderer

namespace renderer {

/// Thumbnails of `images` (each scaled to `thumbWidth` wide, aspect kept, box-filtered) laid out
/// in a grid of `columns` on a dark background with `gap` pixels between them.
Pixels makeContactSheet(const std::vector<Pixels>& images, uint32_t columns, uint32_t thumbWidth,
                        uint32_t gap = 8);

}  // namespace renderer
