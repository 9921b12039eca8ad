// What the renderer draws: orientation and colour channels of the readback, reverse-Z depth
// order at extreme scales, instancing, and golden images.
#include <gtest/gtest.h>

#include "tests/renderer/fixtures.h"
#include "tests/renderer/golden.h"

namespace {

constexpr VkExtent2D SMALL{320, 180};

world::RenderList lookingDownMinusZ() {
  world::RenderList list;
  list.view.verticalFovRadians = 1.0f;
  list.view.nearMeters = 0.01f;
  return list;
}

using RenderTest = fixtures::HeadlessTest;

}  // namespace

TEST_F(RenderTest, TopLeftBoxLandsTopLeftInRedChannel) {
  world::RenderList list = lookingDownMinusZ();
  list.view.ambient = 1.0f;  // unlit: the pixel is the base colour
  list.view.fogStartMeters = 1e9f;
  list.view.fogEndMeters = 2e9f;
  // A pure red box up and to the left of the view axis, at 5 m.
  fixtures::addBatch(list, {fixtures::box(-1.5f, 0.8f, -5, 1, 1, 1, 1, 0, 0)});
  renderer::Pixels p = m_renderer->renderToPixels(list, nullptr, SMALL);
  // Where it must land: project the box centre with the same pinhole model.
  const float f = 1.0f / std::tan(0.5f);
  const float aspect = 320.0f / 180.0f;
  const int px = int((1.0f + (-1.5f / 5.0f) * f / aspect) * 0.5f * 320.0f);
  const int py = int((1.0f - (0.8f / 5.0f) * f) * 0.5f * 180.0f);
  auto centre = fixtures::pixelAt(p, px, py);
  EXPECT_GT(centre[0], 200);  // red
  EXPECT_LT(centre[1], 60);
  EXPECT_LT(centre[2], 60);
  auto opposite = fixtures::pixelAt(p, 320 - px, 180 - py);  // mirrored point: sky, not red
  EXPECT_LT(opposite[0], 200);
}

TEST_F(RenderTest, ReverseZKeepsOrderAtMicrometreAndKilometreScale) {
  // A 20 um tensor-core-sized box 10 um in front of a 30 um blue one, both 100 um from the eye,
  // in the same frame as an 800 m-away cooling-tower-sized box: reverse-Z with an infinite far
  // plane must order both pairs correctly.
  world::RenderList list = lookingDownMinusZ();
  list.view.nearMeters = 10e-6f;
  list.view.ambient = 1.0f;
  list.view.fogStartMeters = 1e9f;
  list.view.fogEndMeters = 2e9f;
  fixtures::addBatch(list, {
                               fixtures::box(0, 0, -100e-6f, 20e-6f, 20e-6f, 1e-6f, 0, 1, 0),
                               fixtures::box(0, 0, -110e-6f, 30e-6f, 30e-6f, 1e-6f, 0, 0, 1),
                               fixtures::box(0, 0, -800, 5000, 5000, 1, 1, 0, 0),
                           });
  renderer::Pixels p = m_renderer->renderToPixels(list, nullptr, SMALL);
  auto centre = fixtures::pixelAt(p, 160, 90);
  EXPECT_GT(centre[1], 200) << "the nearest (green) box must win at the centre";
  EXPECT_LT(centre[2], 60);
  // 20 um at 100 um spans +-0.1 in tan; 30 um spans +-0.15: sample between them (tan 0.125).
  const float f = 1.0f / std::tan(0.5f);
  const int ring = int(90 - 0.125f * f * 90);
  auto blueRing = fixtures::pixelAt(p, 160, ring);
  EXPECT_GT(blueRing[2], 200) << "the blue box shows around the green one";
  auto far = fixtures::pixelAt(p, 5, 5);
  EXPECT_GT(far[0], 200) << "the 800 m red wall fills the background";
}

TEST_F(RenderTest, OneDrawCallForManyInstances) {
  world::RenderList list = lookingDownMinusZ();
  std::vector<gpu::Instance> grid;
  for (int i = 0; i < 1000; ++i) {
    grid.push_back(fixtures::box(float(i % 40) - 20, float(i / 40) * 0.5f - 6, -30, 0.4f, 0.4f,
                                 0.4f, 0.5f, 0.6f, 0.7f));
  }
  fixtures::addBatch(list, grid);
  m_renderer->renderToPixels(list, nullptr, SMALL);
  const renderer::SceneStats& stats = m_renderer->lastFrameStats().scene;
  EXPECT_EQ(stats.drawCalls, 1u);
  EXPECT_EQ(stats.instances, 1000u);
  EXPECT_EQ(stats.triangles, 1000u * 12u);  // a box is 6 faces x 2 triangles
}

TEST_F(RenderTest, MalformedBatchesAreSkippedNotDrawn) {
  world::RenderList list = lookingDownMinusZ();
  fixtures::addBatch(list, {fixtures::box(0, 0, -3, 1, 1, 1, 1, 1, 1)});
  list.batches.push_back({world::MeshId{7}, 0, 1});    // unknown mesh
  list.batches.push_back({world::MeshId{0}, 0, 100});  // past the instance array
  m_renderer->renderToPixels(list, nullptr, SMALL);
  EXPECT_EQ(m_renderer->lastFrameStats().scene.drawCalls, 1u);
}

TEST_F(RenderTest, GoldenBoxesUnderSky) {
  world::RenderList list = lookingDownMinusZ();
  // Camera pitched down 20 degrees: rotation about X by +20 deg maps world to view.
  const float a = 20.0f * 3.14159265f / 180.0f;
  float rot[16] = {1, 0, 0, 0, 0, std::cos(a), std::sin(a), 0, 0, -std::sin(a), std::cos(a),
                   0, 0, 0, 0, 1};
  std::copy(rot, rot + 16, list.view.viewRotation);
  list.view.fogStartMeters = 0.0f;
  list.view.fogEndMeters = 120.0f;
  fixtures::addBatch(list,
                     {
                         fixtures::box(0, -2.5f, -12, 40, 0.2f, 40, 0.35f, 0.37f, 0.4f),
                         fixtures::box(-2.2f, -1.4f, -9, 1.2f, 2.0f, 1.0f, 0.75f, 0.45f, 0.2f),
                         fixtures::box(0, -1.0f, -10, 0.6f, 2.8f, 1.1f, 0.2f, 0.25f, 0.3f),
                         fixtures::box(2.2f, -1.9f, -8, 1.5f, 1.0f, 1.5f, 0.2f, 0.5f, 0.85f),
                     });
  renderer::Pixels p = m_renderer->renderToPixels(list, nullptr, SMALL);
  golden::expectMatchesGolden("boxes_under_sky", p);
}

namespace {

// Pixels that are a blend of the red square and the green wall behind it (both channels lit):
// with one sample per pixel there are none, with MSAA the square's slanted edges have them.
size_t blendedEdgePixels(renderer::Renderer& r, const world::MeshLibrary& library) {
  r.setMeshes(library);
  world::RenderList list = lookingDownMinusZ();
  list.view.ambient = 1.0f;
  list.view.fogStartMeters = 1e9f;
  list.view.fogEndMeters = 2e9f;
  gpu::Instance wall = fixtures::box(0, 0, -10, 40, 40, 1, 0, 1, 0);
  gpu::Instance square = fixtures::box(0, 0, -5, 1, 1, 1, 1, 0, 0);
  // Turn the square 20 degrees about the view axis so its edges cross pixel rows.
  const float c = std::cos(0.35f), s = std::sin(0.35f);
  square.row0 = {c, -s, 0, 0};
  square.row1 = {s, c, 0, 0};
  wall.params.y = square.params.y = 0;  // no highlight: each surface is one flat colour
  fixtures::addBatch(list, {square, wall});
  const renderer::Pixels p = r.renderToPixels(list, nullptr, SMALL);
  size_t blended = 0;
  for (size_t i = 0; i + 3 < p.rgba.size(); i += 4) {
    if (p.rgba[i] > 40 && p.rgba[i + 1] > 40) ++blended;
  }
  return blended;
}

}  // namespace

TEST(RenderQuality, HighPresetAntialiasesEdgesWithoutValidationErrors) {
  const uint32_t before = vkutil::validationErrorCount();
  renderer::RendererDesc desc;
  desc.validation = true;
  desc.ui = false;
  desc.quality = renderer::Quality::High;
  std::string error;
  auto high = renderer::Renderer::create(desc, error);
  ASSERT_TRUE(high) << error;
  EXPECT_EQ(high->quality(), renderer::Quality::High);
  EXPECT_EQ(high->samplesPerPixel(), 4u);
  auto low = fixtures::makeHeadless();
  ASSERT_TRUE(low);
  EXPECT_EQ(low->samplesPerPixel(), 1u);
  const world::MeshLibrary library = fixtures::boxLibrary();
  EXPECT_EQ(blendedEdgePixels(*low, library), 0u);
  // The square's outline is about 4 x 32 px = 130 px long at this size: most edge pixels blend.
  EXPECT_GT(blendedEdgePixels(*high, library), 60u);
  EXPECT_EQ(vkutil::validationErrorCount(), before);
}

TEST(RenderQuality, AutoIsLowOnSoftwareVulkan) {
  renderer::RendererDesc desc;
  desc.ui = false;
  std::string error;
  auto r = renderer::Renderer::create(desc, error);
  ASSERT_TRUE(r) << error;
  const bool cpu = r->context().properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  EXPECT_EQ(r->quality(), cpu ? renderer::Quality::Low : renderer::Quality::High);
}
