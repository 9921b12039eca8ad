#include "renderer/image_io.h"

#include <algorithm>
#include <string>

#include <stb_image.h>
#include <stb_image_write.h>

namespace renderer {

std::string encodePng(const Pixels& pixels, std::string& error) {
  if (pixels.width == 0 || pixels.height == 0) {
    error = "nothing to write (empty image)";
    return {};
  }
  std::string png;
  const auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), size_t(size));
  };
  if (!stbi_write_png_to_func(append, &png, int(pixels.width), int(pixels.height), 4,
                              pixels.rgba.data(), int(pixels.width * 4)) ||
      png.empty()) {
    error = "cannot encode the PNG (" + std::to_string(pixels.width) + "x" +
            std::to_string(pixels.height) + ")";
    return {};
  }
  return png;
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

namespace renderer {

Pixels makeContactSheet(const std::vector<Pixels>& images, uint32_t columns, uint32_t thumbWidth,
                        uint32_t gap) {
  Pixels sheet;
  if (images.empty() || columns == 0 || thumbWidth == 0 || images[0].width == 0) return sheet;
  const uint32_t thumbHeight =
      std::max<uint32_t>(1, uint32_t(uint64_t(thumbWidth) * images[0].height / images[0].width));
  const uint32_t rows = uint32_t((images.size() + columns - 1) / columns);
  sheet.width = columns * thumbWidth + (columns + 1) * gap;
  sheet.height = rows * thumbHeight + (rows + 1) * gap;
  sheet.rgba.assign(size_t(sheet.width) * sheet.height * 4, 0);
  for (size_t i = 0; i < sheet.rgba.size(); i += 4) {
    sheet.rgba[i] = 18, sheet.rgba[i + 1] = 20, sheet.rgba[i + 2] = 24, sheet.rgba[i + 3] = 255;
  }
  for (size_t n = 0; n < images.size(); ++n) {
    const Pixels& src = images[n];
    if (src.width == 0 || src.height == 0) continue;
    const uint32_t ox = gap + uint32_t(n % columns) * (thumbWidth + gap);
    const uint32_t oy = gap + uint32_t(n / columns) * (thumbHeight + gap);
    for (uint32_t y = 0; y < thumbHeight; ++y) {
      const uint32_t sy0 = uint32_t(uint64_t(y) * src.height / thumbHeight);
      const uint32_t sy1 = std::max(sy0 + 1, uint32_t(uint64_t(y + 1) * src.height / thumbHeight));
      for (uint32_t x = 0; x < thumbWidth; ++x) {
        const uint32_t sx0 = uint32_t(uint64_t(x) * src.width / thumbWidth);
        const uint32_t sx1 = std::max(sx0 + 1, uint32_t(uint64_t(x + 1) * src.width / thumbWidth));
        uint32_t sum[4] = {0, 0, 0, 0};
        uint32_t count = 0;
        for (uint32_t sy = sy0; sy < sy1 && sy < src.height; ++sy) {
          for (uint32_t sx = sx0; sx < sx1 && sx < src.width; ++sx) {
            const uint8_t* p = &src.rgba[(size_t(sy) * src.width + sx) * 4];
            for (int c = 0; c < 4; ++c) sum[c] += p[c];
            ++count;
          }
        }
        uint8_t* d = &sheet.rgba[(size_t(oy + y) * sheet.width + ox + x) * 4];
        for (int c = 0; c < 4; ++c) d[c] = uint8_t(sum[c] / std::max(1u, count));
      }
    }
  }
  return sheet;
}

}  // namespace renderer
