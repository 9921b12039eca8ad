// Golden-image comparison. A pixel differs when any channel differs by more than
// CHANNEL_TOLERANCE; an image matches when at most MAX_DIFFERING_FRACTION of its pixels differ.
// On a mismatch, expected/actual/diff PNGs are written under <build>/golden-failures/.
// Regenerate goldens on purpose with: DCWALK_UPDATE_GOLDENS=1 scripts/test -- -R golden
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "renderer/image_io.h"
#include "tests/common/paths.h"

namespace golden {

/// Writes `pixels` as a PNG for a person to look at (renderer/ encodes; the app's atomic writer
/// is not linked into renderer tests); false with a message on failure.
inline bool writePngFile(const std::filesystem::path& path, const renderer::Pixels& pixels,
                         std::string& error) {
  const std::string png = renderer::encodePng(pixels, error);
  if (png.empty()) return false;
  std::ofstream file(path, std::ios::binary);
  file.write(png.data(), std::streamsize(png.size()));
  file.close();
  if (!file) error = path.string() + ": cannot write";
  return bool(file);
}

inline constexpr int CHANNEL_TOLERANCE = 8;              // of 255: driver rounding
inline constexpr double MAX_DIFFERING_FRACTION = 0.001;  // 0.1 % of pixels

struct Comparison {
  size_t differing = 0;
  size_t total = 0;
  renderer::Pixels diff;  // red where pixels differ, dimmed actual elsewhere
};

inline Comparison compare(const renderer::Pixels& expected, const renderer::Pixels& actual) {
  Comparison c;
  c.total = size_t(actual.width) * actual.height;
  c.diff = actual;
  for (size_t i = 0; i < c.total; ++i) {
    bool differs = false;
    for (int ch = 0; ch < 3; ++ch) {
      int d = int(expected.rgba[i * 4 + ch]) - int(actual.rgba[i * 4 + ch]);
      if (d > CHANNEL_TOLERANCE || d < -CHANNEL_TOLERANCE) differs = true;
    }
    uint8_t* px = &c.diff.rgba[i * 4];
    if (differs) {
      ++c.differing;
      px[0] = 255, px[1] = 0, px[2] = 0;
    } else {
      px[0] /= 4, px[1] /= 4, px[2] /= 4;
    }
  }
  return c;
}

/// Compares `actual` with tests/renderer/golden/<name>.png (or rewrites it when
/// DCWALK_UPDATE_GOLDENS=1).
inline void expectMatchesGolden(const std::string& name, const renderer::Pixels& actual) {
  const std::filesystem::path goldenPath =
      testpaths::sourceDir() / "tests/renderer/golden" / (name + ".png");
  std::string error;
  if (const char* update = std::getenv("DCWALK_UPDATE_GOLDENS");
      update && std::string(update) == "1") {
    ASSERT_TRUE(writePngFile(goldenPath, actual, error)) << error;
    GTEST_SUCCEED() << "golden rewritten: " << goldenPath;
    return;
  }
  renderer::Pixels expected;
  ASSERT_TRUE(renderer::readPng(goldenPath, expected, error))
      << error << "\n(to create it on purpose: DCWALK_UPDATE_GOLDENS=1 scripts/test -- -R golden)";
  ASSERT_EQ(expected.width, actual.width);
  ASSERT_EQ(expected.height, actual.height);
  Comparison c = compare(expected, actual);
  if (double(c.differing) > MAX_DIFFERING_FRACTION * double(c.total)) {
    const std::filesystem::path dir = std::filesystem::path(DCWALK_BINARY_DIR) / "golden-failures";
    std::filesystem::create_directories(dir);
    writePngFile(dir / (name + ".expected.png"), expected, error);
    writePngFile(dir / (name + ".actual.png"), actual, error);
    writePngFile(dir / (name + ".diff.png"), c.diff, error);
    ADD_FAILURE() << name << ": " << c.differing << " of " << c.total
                  << " pixels differ (tolerance " << MAX_DIFFERING_FRACTION * 100
                  << " %); images written to " << dir;
  }
}

}  // namespace golden
