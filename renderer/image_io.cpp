#include "renderer/image_io.h"

#include <stb_image.h>
#include <stb_image_write.h>

namespace renderer {

bool writePng(const std::filesystem::path& path, const Pixels& pixels, std::string& error) {
  if (pixels.width == 0 || pixels.height == 0) {
    error = path.string() + ": nothing to write (empty image)";
    return false;
  }
  if (!stbi_write_png(path.string().c_str(), int(pixels.width), int(pixels.height), 4,
                      pixels.rgba.data(), int(pixels.width * 4))) {
    error = path.string() + ": cannot write PNG";
    return false;
  }
  return true;
}

bool readPng(const std::filesystem::path& path, Pixels& pixels, std::string& error) {
  int w = 0, h = 0, channels = 0;
  stbi_uc* data = stbi_load(path.string().c_str(), &w, &h, &channels, 4);
  if (!data) {
    error = path.string() + ": cannot read PNG (" + stbi_failure_reason() + ")";
    return false;
  }
  pixels.width = uint32_t(w);
  pixels.height = uint32_t(h);
  pixels.rgba.assign(data, data + size_t(w) * h * 4);
  stbi_image_free(data);
  return true;
}

}  // namespace renderer
