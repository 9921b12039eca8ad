// The procedural textures: deterministic, tileable modulations whose mean is the part's own
// colour, in the layers the builders name, and laid on the parts the brief names.
#include "world/scene/procedural_textures.h"

#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "tests/world/world_test_fixture.h"

namespace {

// sRGB decoding as the standard writes it (IEC 61966-2-1), independent of the generator's.
double decode(uint8_t v) {
  const double c = v / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double channelMean(const world::TextureImage& image, int channel) {
  double sum = 0;
  for (size_t i = 0; i < size_t(image.width) * image.height; ++i)
    sum += decode(image.rgba8[i * 4 + size_t(channel)]);
  return sum / (double(image.width) * image.height);
}

double lumaAt(const world::TextureImage& image, uint32_t x, uint32_t y) {
  return decode(image.rgba8[(size_t(y) * image.width + x) * 4 + 1]);
}

constexpr world::Pattern ALL[] = {world::Pattern::Perforation, world::Pattern::SramArray,
                                  world::Pattern::Pcb};

}  // namespace

TEST(ProceduralTextures, GenerationIsDeterministicAndFullSize) {
  for (world::Pattern p : ALL) {
    const world::TextureImage a = world::generatePattern(p);
    const world::TextureImage b = world::generatePattern(p);
    EXPECT_EQ(a.width, world::PATTERN_SIZE_PX);
    EXPECT_EQ(a.height, world::PATTERN_SIZE_PX);
    ASSERT_EQ(a.rgba8.size(), size_t(a.width) * a.height * 4);
    EXPECT_EQ(a.rgba8, b.rgba8) << a.name;
    EXPECT_EQ(world::patternImage(p).rgba8, a.rgba8) << a.name << ": the cached copy";
  }
}

TEST(ProceduralTextures, EveryChannelAveragesToTheModulationMean) {
  // The shader doubles the sample: a mean of 0.5 keeps the part's average colour. 8-bit sRGB
  // steps near 0.5 are 0.4 % apart, so the quantised mean holds to 1 %.
  for (world::Pattern p : ALL) {
    const world::TextureImage image = world::patternImage(p);
    for (int c = 0; c < 3; ++c) {
      EXPECT_NEAR(channelMean(image, c), world::MODULATION_MEAN, 0.01 * world::MODULATION_MEAN)
          << image.name << " channel " << c;
    }
    for (size_t i = 0; i < size_t(image.width) * image.height; ++i)
      ASSERT_EQ(image.rgba8[i * 4 + 3], 255) << image.name << ": opaque";
  }
}

TEST(ProceduralTextures, PerforationHolesSitOnTheirStaggeredPitch) {
  // 16 holes per side, so a 16-pixel pitch, a quarter pitch off the grid; odd rows shifted by
  // half a pitch.
  ASSERT_EQ(world::periodsPerTile(world::Pattern::Perforation), 16u);
  const world::TextureImage image = world::patternImage(world::Pattern::Perforation);
  const double steel = lumaAt(image, 12, 8);  // halfway between two holes of row 0
  EXPECT_LT(lumaAt(image, 4, 8), 0.1 * steel) << "row 0: a hole at (4, 8)";
  EXPECT_LT(lumaAt(image, 12, 24), 0.1 * steel) << "row 1: shifted, a hole at (12, 24)";
  EXPECT_GT(lumaAt(image, 4, 24), 0.9 * steel) << "row 1: steel where row 0 has a hole";
  // Tileable and staggered: the image is itself moved by a pitch along a row, or by half a
  // pitch and a row, wrapping round its edges.
  const uint32_t n = image.width;
  for (uint32_t y = 0; y < n; ++y) {
    for (uint32_t x = 0; x < n; ++x) {
      ASSERT_EQ(lumaAt(image, x, y), lumaAt(image, (x + 16) % n, y)) << x << ", " << y;
      ASSERT_EQ(lumaAt(image, x, y), lumaAt(image, (x + 8) % n, (y + 16) % n)) << x << ", " << y;
    }
  }
}

TEST(ProceduralTextures, RegisteredFirstInTheirOwnLayers) {
  world::TextureLibrary library;
  ASSERT_TRUE(world::registerPatterns(library));
  ASSERT_EQ(library.images().size(), world::PATTERN_COUNT);
  for (world::Pattern p : ALL)
    EXPECT_EQ(library.images()[uint32_t(p) - 1].name, world::patternImage(p).name);
  EXPECT_FALSE(world::registerPatterns(library)) << "a second time would shift the layers";
  EXPECT_EQ(library.images().size(), world::PATTERN_COUNT);
  // Every world has them, whatever imported models add after them.
  const auto& images = worldtest::defaultWorld().textures().images();
  ASSERT_GE(images.size(), world::PATTERN_COUNT);
  EXPECT_EQ(images[0].name, world::patternImage(world::Pattern::Perforation).name);
}

TEST(ProceduralTextures, WithPatternTilesByTheFeaturePeriod) {
  const world::Look look =
      world::withPattern(world::Look{}, world::Pattern::Perforation, 0.004);  // 4 mm pitch
  EXPECT_EQ(look.texture, uint32_t(world::Pattern::Perforation));
  EXPECT_FLOAT_EQ(look.textureTile_m, 16 * 0.004f);
}

TEST(ProceduralTextures, BuildersGiveTheBriefsPartsTheirPatterns) {
  // The bezels and PSU fronts are perforated, boards are PCB, caches are SRAM arrays, each
  // tiled by its feature's period in the catalog (a 4 mm hole pitch: 16 holes, 64 mm a tile).
  const world::Scene& scene = worldtest::defaultWorld().scene();
  auto lookOf = [&](const std::string& prefix) {
    for (size_t i = 0; i < scene.prototypeCount(); ++i) {
      for (const world::Part& part : scene.prototype(world::PrototypeId{uint32_t(i)}).parts) {
        if (part.name.rfind(prefix, 0) == 0) return part.look;
      }
    }
    ADD_FAILURE() << "no part named " << prefix;
    return world::Look{};
  };
  const double hole = worldtest::dims().meters("surface_detail.bezel_hole_pitch");
  const double trace = worldtest::dims().meters("surface_detail.pcb_trace_pitch");
  const double macro = worldtest::dims().meters("surface_detail.sram_macro_pitch");
  EXPECT_NEAR(hole, 4.0e-3, 1e-9) << "the catalog's 4 mm";
  const struct {
    const char* part;
    world::Pattern pattern;
    double period_m;
  } expected[] = {
      {"bezel grille", world::Pattern::Perforation, hole},
      {"power supply", world::Pattern::Perforation, hole},
      {"motherboard", world::Pattern::Pcb, trace},
      {"L2 cache (half 0)", world::Pattern::SramArray, macro},
      {"L1 / shared memory", world::Pattern::SramArray, macro},
      {"register file bank", world::Pattern::SramArray, macro},
  };
  for (const auto& e : expected) {
    const world::Look look = lookOf(e.part);
    EXPECT_EQ(look.texture, uint32_t(e.pattern)) << e.part;
    EXPECT_GT(e.period_m, 0.0) << e.part;
    EXPECT_NEAR(look.textureTile_m, e.period_m * world::periodsPerTile(e.pattern),
                1e-6 * look.textureTile_m)
        << e.part;
  }
}
