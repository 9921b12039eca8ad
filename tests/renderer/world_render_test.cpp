// The world as the renderer draws it: camera-relative precision far from the origin, and golden
// frames of stations along the scale ladder (any z-fighting or precision loss shows up as a
// golden mismatch).
#include <gtest/gtest.h>

#include "tests/renderer/fixtures.h"
#include "tests/renderer/golden.h"
#include "world/world.h"

namespace {

constexpr VkExtent2D SIZE{320, 180};

std::unique_ptr<world::World> makeWorld(const glm::dvec3& origin) {
  auto dims = world::Dimensions::loadDefault();
  EXPECT_TRUE(dims.ok()) << dims.error();
  world::WorldDesc desc;
  desc.origin_m = origin;
  auto w = world::World::create(*dims, desc);
  EXPECT_TRUE(w.ok()) << w.error();
  return std::move(*w);
}

renderer::Pixels renderStation(renderer::Renderer& r, world::World& w, const std::string& name) {
  const world::Station* station = w.station(name);
  EXPECT_NE(station, nullptr) << name;
  world::Camera camera;
  camera.setPose(world::toPose(station->viewpoint));
  world::FrameDesc frame{SIZE.width, SIZE.height};
  world::RenderList list;
  w.buildRenderList(camera, frame, list);
  r.setMeshes(w.meshes());
  return r.renderToPixels(list, nullptr, SIZE);
}

const char* const LADDER[] = {"sm",   "die", "hbm",  "package", "tray",
                              "rack", "row", "hall", "campus"};

// Each station rendered from a world at the origin and from one 100 km east and north differs in
// at most golden::MAX_DIFFERING_FRACTION of its pixels, without a validation error.
template <class Names>
void expectSameFarFromTheOrigin(renderer::Quality quality, bool shadowCasting, const Names& names) {
  auto here = makeWorld(glm::dvec3(0.0));
  auto far = makeWorld(glm::dvec3(100e3, 0.0, 100e3));
  auto r = fixtures::makeHeadless(false, quality);
  ASSERT_TRUE(r && here && far);
  here->setShadowCasting(shadowCasting);
  far->setShadowCasting(shadowCasting);
  const uint32_t before = vkutil::validationErrorCount();
  for (const char* name : names) {
    renderer::Pixels a = renderStation(*r, *here, name);
    renderer::Pixels b = renderStation(*r, *far, name);
    golden::Comparison c = golden::compare(a, b);
    EXPECT_LE(double(c.differing), golden::MAX_DIFFERING_FRACTION * double(c.total))
        << name << ": " << c.differing << " of " << c.total << " pixels differ";
  }
  EXPECT_EQ(vkutil::validationErrorCount(), before);
}

}  // namespace

TEST(WorldRender, StationsFarFromTheOriginLookTheSame) {
  // 100 km east and north: float world positions would lose ~8 mm; camera-relative keeps um.
  expectSameFarFromTheOrigin(renderer::Quality::Low, false, LADDER);
}

TEST(WorldRender, HighPresetShadowsAndBloomHoldFarFromTheOriginToo) {
  // The shadow map is fitted camera-relative as well, on a texel grid anchored on the campus:
  // 100 km away its texels fall on the same surfaces, so the shadows (and the MSAA edges and
  // bloom) come out the same.
  const char* const names[] = {"tray", "row", "hall"};
  expectSameFarFromTheOrigin(renderer::Quality::High, true, names);
}

TEST(WorldRender, GoldenFramesAlongTheScaleLadder) {
  auto w = makeWorld(glm::dvec3(0.0));
  auto r = fixtures::makeHeadless();
  ASSERT_TRUE(r && w);
  const uint32_t before = vkutil::validationErrorCount();
  for (const char* name : LADDER) {
    golden::expectMatchesGolden(std::string("station_") + name, renderStation(*r, *w, name));
  }
  EXPECT_EQ(vkutil::validationErrorCount(), before);
}

TEST(WorldRender, HighPresetGoldens) {
  // Shadows, MSAA and the float target's composite, frozen where they show most: the row (rack
  // rows, cable trays and the CDU casting onto the floor) and the hall from above. Bloom is
  // covered by tests/renderer/high_quality_test.cpp.
  auto w = makeWorld(glm::dvec3(0.0));
  auto r = fixtures::makeHeadless(false, renderer::Quality::High);
  ASSERT_TRUE(r && w);
  w->setShadowCasting(true);
  const uint32_t before = vkutil::validationErrorCount();
  for (const char* name : {"row", "hall"}) {
    golden::expectMatchesGolden(std::string("high_") + name, renderStation(*r, *w, name));
  }
  EXPECT_EQ(vkutil::validationErrorCount(), before);
}
