// PNG in and out (stb), for headless shots and golden-image tests.
#pragma once

#include <filesystem>
#include <string>

#include "renderer/renderer.h"

namespace renderer {

/// Writes RGBA8 pixels as a PNG; false with a message on failure.
bool writePng(const std::filesystem::path& path, const Pixels& pixels, std::string& error);
/// Reads a PNG as RGBA8; false with a message on failure.
bool readPng(const std::filesystem::path& path, Pixels& pixels, std::string& error);

}  // namespace renderer
