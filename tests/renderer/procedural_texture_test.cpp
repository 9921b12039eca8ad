// The procedural textures in the texture array and on screen: their mips keep the mean and turn
// flat where a feature is one texel, so a perforated face reads as holes up close and as its
// own average colour, without moiré, once the hole pitch is below two pixels.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "renderer/passes/texture_array.h"
#include "tests/renderer/fixtures.h"
#include "world/scene/procedural_textures.h"

namespace {

double decode(double v) {  // sRGB 0..255 to linear (IEC 61966-2-1)
  const double c = v / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

// Linear green channel of every texel of `layer` at mip `level`.
std::vector<double> mipTexels(const renderer::PackedTextures& p, uint32_t level, uint32_t layer) {
  const uint32_t size = std::max(1u, p.layerSize >> level);
  const uint8_t* base = p.bytes.data() + p.mipOffsets[level] + size_t(layer) * size * size * 4;
  std::vector<double> texels;
  for (size_t i = 0; i < size_t(size) * size; ++i) texels.push_back(decode(base[i * 4 + 1]));
  return texels;
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / double(v.size());
}

double largestDeviation(const std::vector<double>& v, double m) {
  double d = 0;
  for (double x : v) d = std::max(d, std::abs(x - m));
  return d;
}

renderer::PackedTextures packedPatterns() {
  world::TextureLibrary library;
  EXPECT_TRUE(world::registerPatterns(library));
  return renderer::packTextures(library, {});
}

}  // namespace

TEST(ProceduralMips, FullChainsKeepTheMeanDownToOnePixel) {
  const renderer::PackedTextures p = packedPatterns();
  ASSERT_EQ(p.layers, 1 + world::PATTERN_COUNT);
  ASSERT_EQ(p.layerSize, world::PATTERN_SIZE_PX);
  ASSERT_EQ(p.mipLevels, 9u);  // 256 .. 1
  // Small next to the array's limit: three 256-px layers and white, with their mips.
  EXPECT_LT(p.bytes.size(), 1.5e6);
  EXPECT_LE(p.bytes.size(), renderer::TextureArrayLimits{}.maxTotalBytes);
  for (uint32_t layer = 1; layer <= world::PATTERN_COUNT; ++layer) {
    const double top = mean(mipTexels(p, 0, layer));
    for (uint32_t level = p.mipLevels - 3; level < p.mipLevels; ++level) {
      // Each 8-bit re-encoding moves a mean by at most half an sRGB step (0.2 % near 0.5).
      EXPECT_NEAR(mean(mipTexels(p, level, layer)), top, 0.015 * top)
          << "layer " << layer << " mip " << level;
    }
  }
}

TEST(ProceduralMips, PerforationIsFlatFromTheMipWhereAHoleIsOneTexel) {
  // 16 px pitch: at mip 4 each texel averages exactly one hole and its steel, so the holes are
  // gone; at mip 3 (two texels a pitch) they are still there.
  const renderer::PackedTextures p = packedPatterns();
  const uint32_t layer = uint32_t(world::Pattern::Perforation);
  const std::vector<double> flat = mipTexels(p, 4, layer);
  EXPECT_LT(largestDeviation(flat, mean(flat)), 0.02 * mean(flat));
  const std::vector<double> holes = mipTexels(p, 3, layer);
  EXPECT_GT(largestDeviation(holes, mean(holes)), 0.2 * mean(holes));
  // SRAM: 128-px macros, flat at mip 7 (2x2).
  const std::vector<double> macros = mipTexels(p, 7, uint32_t(world::Pattern::SramArray));
  EXPECT_LT(largestDeviation(macros, mean(macros)), 0.02 * mean(macros));
}

namespace {

constexpr VkExtent2D SIZE{320, 180};
constexpr float GREY = 0.2f;  // linear

class ProceduralRender : public fixtures::HeadlessTest {
 protected:
  void SetUp() override {
    fixtures::HeadlessTest::SetUp();
    ASSERT_TRUE(m_renderer);
    ASSERT_TRUE(world::registerPatterns(m_textures));
    m_renderer->setTextures(m_textures);
  }

  // A 1 m grey square face-on at 1 m under the fill and key lights, perforated with
  // holes `pitchPx` pixels apart on screen (0: untextured); returns the linear green channel of
  // the central 100 x 100 pixels.
  std::vector<double> render(double pitchPx) {
    world::RenderList list;
    list.view.verticalFovRadians = 1.0f;
    list.view.nearMeters = 0.01f;
    list.view.ambient = 0.35f;  // the fill, with the key light on the face
    list.view.fogStartMeters = 1e9f;
    list.view.fogEndMeters = 2e9f;
    gpu::Instance face = fixtures::box(0, 0, -1.0f, 1, 1, 0.01f, GREY, GREY, GREY);
    face.params.y = 0;  // no specular: the key's sheen and the reflection vary over the face
    const double focalPx = 0.5 * SIZE.height / std::tan(0.5);  // pixels per metre at 1 m
    if (pitchPx > 0) {
      const world::Look look =
          world::withPattern(world::Look{}, world::Pattern::Perforation, pitchPx / focalPx);
      face.material = {float(look.texture), 0, 0, -look.textureTile_m};
    }
    fixtures::addBatch(list, {face});
    list.batches.back().textured = pitchPx > 0;
    list.batches.back().boxDetail = true;  // the world's unit-box pipeline
    const renderer::Pixels p = m_renderer->renderToPixels(list, nullptr, SIZE);
    std::vector<double> out;
    for (uint32_t y = 40; y < 140; ++y) {
      for (uint32_t x = 110; x < 210; ++x) out.push_back(decode(fixtures::pixelAt(p, x, y)[1]));
    }
    return out;
  }

  world::TextureLibrary m_textures;
};

double variance(const std::vector<double>& v) {
  const double m = mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return s / double(v.size());
}

}  // namespace

TEST_F(ProceduralRender, UpCloseTheHolesShow) {
  const std::vector<double> plain = render(0);
  const std::vector<double> perforated = render(16);
  const double colour = mean(plain);  // the untextured face: its Look under the fill light
  EXPECT_GT(colour, 0.25 * GREY);
  // Holes (a third of the face, near black) against steel at 1.4 x the face's colour: a standard
  // deviation of the order of 0.6 x the colour, against none for the plain face.
  EXPECT_GT(std::sqrt(variance(perforated)), 0.3 * colour);
  EXPECT_LT(std::sqrt(variance(plain)), 0.01 * colour);
  EXPECT_NEAR(mean(perforated), colour, 0.05 * colour) << "the face keeps its average colour";
}

TEST_F(ProceduralRender, BelowTwoPixelsAPitchTheFaceIsItsAverageColourWithoutMoire) {
  // Aliasing would leave beats (moiré) whose energy shows as pixel variance; the mip chain with
  // doubled gradients must leave the face flat at its own colour instead. Above four pixels a
  // pitch the holes are there.
  const double colour = mean(render(0));
  for (double pitchPx : {1.9, 1.3, 0.7, 0.3}) {
    const std::vector<double> far = render(pitchPx);
    EXPECT_NEAR(mean(far), colour, 0.03 * colour) << pitchPx << " px pitch";
    EXPECT_LT(std::sqrt(variance(far)), 0.03 * colour) << pitchPx << " px pitch";
  }
  EXPECT_GT(std::sqrt(variance(render(5.0))), 0.1 * colour) << "5 px pitch";
}
