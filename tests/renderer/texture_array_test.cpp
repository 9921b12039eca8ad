// Packing imported images into the one 2D array texture: layer size, layer count, mip chain and
// byte layout, computed here independently; mips averaged in linear light, not sRGB bytes.
#include <gtest/gtest.h>

#include <cmath>

#include "renderer/passes/texture_array.h"

namespace {

world::TextureImage solid(uint32_t w, uint32_t h, uint8_t r, uint8_t g, uint8_t b, uint8_t a) {
  world::TextureImage image;
  image.width = w;
  image.height = h;
  for (uint32_t i = 0; i < w * h; ++i) image.rgba8.insert(image.rgba8.end(), {r, g, b, a});
  return image;
}

uint64_t expectedBytes(uint32_t size, uint32_t layers) {
  uint64_t total = 0;
  for (uint32_t s = size; s >= 1; s /= 2) total += uint64_t(s) * s * 4 * layers;
  return total;
}

}  // namespace

TEST(TextureArray, EmptyLibraryIsOneWhitePixel) {
  const renderer::PackedTextures p = renderer::packTextures(world::TextureLibrary{}, {});
  EXPECT_EQ(p.layerSize, 1u);
  EXPECT_EQ(p.layers, 1u);
  EXPECT_EQ(p.mipLevels, 1u);
  EXPECT_EQ(p.bytes, (std::vector<uint8_t>{255, 255, 255, 255}));
}

TEST(TextureArray, LayerSizeIsTheLargestSideRoundedUpWithAFullMipChain) {
  world::TextureLibrary library;
  EXPECT_EQ(library.add(solid(3, 5, 10, 20, 30, 255)), 1u);
  EXPECT_EQ(library.add(solid(40, 16, 200, 100, 50, 128)), 2u);
  const renderer::PackedTextures p = renderer::packTextures(library, {});
  EXPECT_EQ(p.layerSize, 64u);  // 40 -> 64
  EXPECT_EQ(p.layers, 3u);      // white + 2
  EXPECT_EQ(p.mipLevels, 7u);   // 64, 32, ..., 1
  EXPECT_EQ(p.bytes.size(), expectedBytes(64, 3));
  ASSERT_EQ(p.mipOffsets.size(), 7u);
  EXPECT_EQ(p.mipOffsets[1], 64ull * 64 * 4 * 3);
  // A solid image stays that colour at every level (first pixel of each level's layer 2).
  for (uint32_t level = 0; level < p.mipLevels; ++level) {
    const uint32_t size = 64 >> level;
    const uint8_t* px = p.bytes.data() + p.mipOffsets[level] + 2ull * size * size * 4;
    EXPECT_NEAR(px[0], 200, 1) << level;
    EXPECT_NEAR(px[1], 100, 1) << level;
    EXPECT_NEAR(px[2], 50, 1) << level;
    EXPECT_EQ(px[3], 128) << level;
  }
  EXPECT_EQ(p.bytes[0], 255);  // layer 0 white
}

TEST(TextureArray, MipsAverageInLinearLight) {
  // A 2x2 black and white checkerboard: its 1x1 mip is half the light, which sRGB encodes as
  // 255 * (1.055 * 0.5^(1/2.4) - 0.055) = 187.5, not the byte average 127.5.
  world::TextureImage checker;
  checker.width = checker.height = 2;
  checker.rgba8 = {0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 255};
  world::TextureLibrary library;
  library.add(checker);
  const renderer::PackedTextures p = renderer::packTextures(library, {});
  ASSERT_EQ(p.mipLevels, 2u);
  const double expected = 255.0 * (1.055 * std::pow(0.5, 1.0 / 2.4) - 0.055);
  const uint8_t* mip1 = p.bytes.data() + p.mipOffsets[1] + 4;  // layer 1 of level 1
  EXPECT_NEAR(mip1[0], expected, 1.0);
  EXPECT_EQ(mip1[3], 255);
}

TEST(TextureArray, LimitsShrinkTheLayersAndDropTheExtraImages) {
  world::TextureLibrary library;
  for (int i = 0; i < 5; ++i) library.add(solid(512, 512, uint8_t(i), 0, 0, 255));
  renderer::TextureArrayLimits limits;
  limits.maxLayers = 4;                          // white + 3 images
  limits.maxTotalBytes = expectedBytes(128, 4);  // 512 and 256 do not fit
  const renderer::PackedTextures p = renderer::packTextures(library, limits);
  EXPECT_EQ(p.layers, 4u);
  EXPECT_EQ(p.layerSize, 128u);
  EXPECT_EQ(p.bytes.size(), expectedBytes(128, 4));
  // A 3000-pixel limit is not a power of two: the layer size stays a power of two below it.
  world::TextureLibrary big;
  big.add(solid(3000, 8, 1, 2, 3, 4));
  limits = {};
  limits.maxLayerSize = 3000;
  EXPECT_EQ(renderer::packTextures(big, limits).layerSize, 2048u);
}

TEST(TextureArray, LibraryRefusesImagesWhoseBytesDoNotMatch) {
  world::TextureLibrary library;
  world::TextureImage bad = solid(4, 4, 0, 0, 0, 0);
  bad.rgba8.pop_back();
  EXPECT_EQ(library.add(bad), 0u);
  EXPECT_EQ(library.add(solid(0, 4, 0, 0, 0, 0)), 0u);
  EXPECT_TRUE(library.images().empty());
  EXPECT_EQ(library.revision(), 0u);
}
