// The high preset's extras on top of MSAA: the sun's shadow map and bloom. Rendered on whatever
// device runs the tests (lavapipe in CI) and compared with the low preset's image of the same
// list, so the expected numbers come from the lighting model written out here, not from the
// renderer's own output.
#include <cmath>

#include <gtest/gtest.h>

#include "renderer/passes/shadow_map.h"
#include "tests/renderer/fixtures.h"

namespace {

constexpr VkExtent2D SIZE{256, 192};

double srgbToLinear(int value) {
  const double c = value / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

// Where a camera-relative point lands on screen (pixel column, row).
std::array<double, 2> project(const world::RenderList& list, double x, double y, double z) {
  float m[16];
  world::viewProjection(list.view, float(SIZE.width) / float(SIZE.height), m);
  const double cx = m[0] * x + m[4] * y + m[8] * z + m[12];
  const double cy = m[1] * x + m[5] * y + m[9] * z + m[13];
  const double cw = m[3] * x + m[7] * y + m[11] * z + m[15];
  return {(cx / cw * 0.5 + 0.5) * SIZE.width, (cy / cw * 0.5 + 0.5) * SIZE.height};
}

double redAt(const renderer::Pixels& p, std::array<double, 2> at) {
  return srgbToLinear(fixtures::pixelAt(p, uint32_t(at[0]), uint32_t(at[1]))[0]);
}

class HighQualityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_errorsBefore = vkutil::validationErrorCount();
    m_low = fixtures::makeHeadless(false, renderer::Quality::Low);
    m_high = fixtures::makeHeadless(false, renderer::Quality::High);
    ASSERT_TRUE(m_low && m_high);
    m_library = fixtures::boxLibrary();
    m_low->setMeshes(m_library);
    m_high->setMeshes(m_library);
  }
  void TearDown() override { EXPECT_EQ(vkutil::validationErrorCount(), m_errorsBefore); }

  std::unique_ptr<renderer::Renderer> m_low, m_high;
  world::MeshLibrary m_library;
  uint32_t m_errorsBefore = 0;
};

// A grey floor whose top is at y = -1.9 m and a 1 m cube 10 m ahead at eye height, under a
// high sun; no specular and no fog, so a floor pixel is exactly ambient + direct sunlight.
struct FloorAndCube {
  world::RenderList list;
  float sun[3];
  static constexpr float FLOOR_TOP_Y = -1.9f;
  static constexpr float CUBE_Z = -10.0f;
};

FloorAndCube floorAndCube() {
  FloorAndCube scene;
  world::RenderList& list = scene.list;
  list.view.verticalFovRadians = 1.0f;
  list.view.nearMeters = 0.05f;
  list.view.sunDirection[0] = 0.3f;
  list.view.sunDirection[1] = 1.0f;
  list.view.sunDirection[2] = 0.2f;
  list.view.ambient = 0.35f;
  list.view.shadowDistanceMeters = 15.0f;
  gpu::Instance floor =
      fixtures::box(0, FloorAndCube::FLOOR_TOP_Y - 0.1f, -10, 30, 0.2f, 30, 0.5f, 0.5f, 0.5f);
  floor.params.y = 0;  // no specular
  gpu::Instance cube = fixtures::box(0, 0, FloorAndCube::CUBE_Z, 1, 1, 1, 0.8f, 0.2f, 0.2f);
  fixtures::addBatch(list, {floor, cube});
  const float length = std::sqrt(0.3f * 0.3f + 1.0f + 0.2f * 0.2f);
  for (int i = 0; i < 3; ++i) scene.sun[i] = list.view.sunDirection[i] / length;
  return scene;
}

}  // namespace

TEST_F(HighQualityTest, CubeCastsItsShadowWhereTheSunSaysWithOnlyAmbientLightInIt) {
  const FloorAndCube scene = floorAndCube();
  const renderer::Pixels low = m_low->renderToPixels(scene.list, nullptr, SIZE);
  const renderer::Pixels high = m_high->renderToPixels(scene.list, nullptr, SIZE);

  // The cube's centre projected along the sun onto the floor.
  const double t = (0.0 - FloorAndCube::FLOOR_TOP_Y) / scene.sun[1];
  const auto shadow = project(scene.list, -scene.sun[0] * t, FloorAndCube::FLOOR_TOP_Y,
                              FloorAndCube::CUBE_Z - scene.sun[2] * t);
  // Lit floor: base * (ambient + sun . up * (1 - ambient)); shadowed: base * ambient (the
  // hemisphere term is 1 for an upward normal).
  const double ambient = scene.list.view.ambient;
  const double expectedRatio = ambient / (ambient + scene.sun[1] * (1.0 - ambient));
  EXPECT_NEAR(redAt(high, shadow) / redAt(low, shadow), expectedRatio, 0.04);

  // Two metres to the side of the shadow the floor is lit the same in both presets.
  const auto lit = project(scene.list, 2.5, FloorAndCube::FLOOR_TOP_Y, FloorAndCube::CUBE_Z);
  EXPECT_NEAR(redAt(high, lit), redAt(low, lit), 0.01);
  // And the low preset has no shadow at all: under the cube is as bright as beside it.
  EXPECT_NEAR(redAt(low, shadow), redAt(low, lit), 0.01);
}

TEST_F(HighQualityTest, NoShadowDistanceMeansNoShadow) {
  FloorAndCube scene = floorAndCube();
  scene.list.view.shadowDistanceMeters = 0;
  const renderer::Pixels low = m_low->renderToPixels(scene.list, nullptr, SIZE);
  const renderer::Pixels high = m_high->renderToPixels(scene.list, nullptr, SIZE);
  const double t = (0.0 - FloorAndCube::FLOOR_TOP_Y) / scene.sun[1];
  const auto shadow = project(scene.list, -scene.sun[0] * t, FloorAndCube::FLOOR_TOP_Y,
                              FloorAndCube::CUBE_Z - scene.sun[2] * t);
  EXPECT_NEAR(redAt(high, shadow), redAt(low, shadow), 0.01);
}

TEST_F(HighQualityTest, GlowingPartsBloomLitOnesDoNot) {
  world::RenderList list;
  list.view.verticalFovRadians = 1.0f;
  list.view.nearMeters = 0.05f;
  for (float& c : list.view.skyTop) c = 0.0f;
  for (float& c : list.view.skyHorizon) c = 0.0f;
  // Left: a white cube lit by the sun (as bright as the glowing one, but not emissive); right:
  // a fully emissive white cube. Both 1 m, 10 m ahead, on black.
  gpu::Instance lit = fixtures::box(-2.5f, 0, -10, 1, 1, 1, 1, 1, 1);
  lit.params = {0.0f, 0.0f, 0, 0};
  gpu::Instance glowing = fixtures::box(2.5f, 0, -10, 1, 1, 1, 1, 1, 1);
  glowing.params = {1.0f, 0.0f, 0, 0};
  fixtures::addBatch(list, {lit, glowing});
  const renderer::Pixels low = m_low->renderToPixels(list, nullptr, SIZE);
  const renderer::Pixels high = m_high->renderToPixels(list, nullptr, SIZE);

  // Black around both cubes in the low preset.
  const auto glowEdge = project(list, 2.5 + 0.5, 0, -9.5);  // the glowing cube's right edge
  const auto litEdge = project(list, -2.5 - 0.5, 0, -9.5);  // the lit cube's left edge
  auto glowAt = [&](const std::array<double, 2>& edge, double dx) {
    // The low preset shows black there: whatever the high one shows is bloom.
    const std::array<double, 2> at{edge[0] + dx, edge[1]};
    EXPECT_NEAR(redAt(low, at), 0.0, 1e-3) << "dx " << dx;
    return redAt(high, at);
  };
  // Beside the glowing cube light spills out and fades with distance.
  const double near = glowAt(glowEdge, 3), mid = glowAt(glowEdge, 10), far = glowAt(glowEdge, 40);
  EXPECT_GT(near, 0.02);
  EXPECT_GT(near, mid);
  EXPECT_GT(mid, far);
  EXPECT_LT(far, 0.01);
  // Beside the lit cube nothing spills, drawn alone (the glowing cube's widest blur reaches a
  // hundred pixels).
  list.instances.resize(1);
  list.batches[0].instanceCount = 1;
  const renderer::Pixels highLitOnly = m_high->renderToPixels(list, nullptr, SIZE);
  const std::array<double, 2> besideLit{litEdge[0] - 3, litEdge[1]};
  EXPECT_LT(redAt(highLitOnly, besideLit), 1e-3);
  EXPECT_GT(redAt(highLitOnly, {litEdge[0] + 10, litEdge[1]}), 0.3);  // the cube itself is bright
}

TEST(ShadowFrustum, CoversTheSquareAheadOfTheCameraSeenFromTheSun) {
  world::ViewParams view;  // identity rotation: looking down -Z
  view.sunDirection[0] = 0.0f;
  view.sunDirection[1] = 1.0f;
  view.sunDirection[2] = 1.0f;  // 45 degrees up, behind the camera
  view.shadowDistanceMeters = 10.0f;
  const renderer::ShadowFrustum f = renderer::fitShadowFrustum(view, 1024);
  ASSERT_EQ(f.constants.params.w, 1.0f);
  EXPECT_FLOAT_EQ(f.radiusMeters, 10.0f);
  auto clip = [&](float x, float y, float z) {
    const gpu::mat4& m = f.constants.lightClip;
    const float p[4] = {x, y, z, 1};
    std::array<float, 4> out{};
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 4; ++c) out[r] += (&m.columns[c].x)[r] * p[c];
    }
    return out;
  };
  // The centre, 0.6 of the distance ahead, is the middle of the map, give or take the snap to
  // the world's texel grid (under one texel: 2 / 1024 in clip units).
  const auto centre = clip(0, 0, -6);
  EXPECT_NEAR(centre[0], 0.0f, 2.0f / 1024.0f);
  EXPECT_NEAR(centre[1], 0.0f, 2.0f / 1024.0f);
  EXPECT_NEAR(centre[3], 1.0f, 1e-6f);
  EXPECT_GT(centre[2], 0.0f);
  EXPECT_LT(centre[2], 1.0f);
  // Moving towards the sun brings a point nearer (smaller depth) without moving it on the map.
  const float s = std::sqrt(0.5f);
  const auto towardSun = clip(0, 5 * s, -6 + 5 * s);
  EXPECT_NEAR(towardSun[0], centre[0], 1e-5f);
  EXPECT_NEAR(towardSun[1], centre[1], 1e-5f);
  EXPECT_LT(towardSun[2], centre[2]);
  // One radius sideways (across the sun) reaches the map's edge.
  const auto side = clip(10, 0, -6);
  EXPECT_NEAR(std::max(std::fabs(side[0] - centre[0]), std::fabs(side[1] - centre[1])), 1.0f,
              1e-5f);
  // A texel is 2 * radius / size; the lookup moves 1.5 of them along the normal.
  EXPECT_NEAR(f.constants.params.x, 1.5f * 20.0f / 1024.0f, 1e-6f);
  EXPECT_FLOAT_EQ(f.constants.params.z, 1.0f / 1024.0f);
}

TEST(ShadowFrustum, MapTexelsSitOnAGridFixedInTheWorld) {
  // Wherever the eye is (its grid offset), the map's edge falls on a whole texel of the world's
  // grid, so moving the camera does not slide the texels over the ground (shimmering edges).
  world::ViewParams view;
  view.shadowDistanceMeters = 16.0f;
  const uint32_t size = 2048;
  const double texel = 2.0 * 16.0 / size;
  float ex[3], ey[3];
  world::shadowAxes(view.sunDirection, ex, ey);
  for (float offset : {0.0f, 0.3f, 7.77f, 31.99f}) {
    SCOPED_TRACE(offset);
    view.shadowGridOffset[0] = offset;
    view.shadowGridOffset[1] = 0.5f * offset;
    const renderer::ShadowFrustum f = renderer::fitShadowFrustum(view, size);
    const gpu::mat4& m = f.constants.lightClip;
    // Row r of the map: (axis / radius, -(centre . axis) / radius); the map's first texel edge
    // is at centre . axis - radius, plus the eye's own position on that axis.
    for (int r = 0; r < 2; ++r) {
      const double centreAlong = -double((&m.columns[3].x)[r]) * 16.0;
      const double edge = centreAlong - 16.0 + view.shadowGridOffset[r];
      const double phase = edge / texel - std::round(edge / texel);
      EXPECT_NEAR(phase, 0.0, 1e-3) << "row " << r;
    }
    // And the axes are the ones the world measured the offset along.
    for (int c = 0; c < 3; ++c) {
      EXPECT_NEAR((&m.columns[c].x)[0] * 16.0f, ex[c], 1e-6f);
      EXPECT_NEAR((&m.columns[c].x)[1] * 16.0f, ey[c], 1e-6f);
    }
  }
}

TEST(ShadowFrustum, NoDistanceOrNoSunMeansLitEverywhere) {
  world::ViewParams view;
  EXPECT_EQ(view.shadowDistanceMeters, 0.0f);  // shadows are asked for, not assumed
  EXPECT_EQ(renderer::fitShadowFrustum(view, 1024).constants.params.w, 0.0f);
  view.shadowDistanceMeters = 5.0f;
  view.sunDirection[0] = view.sunDirection[1] = view.sunDirection[2] = 0.0f;
  EXPECT_EQ(renderer::fitShadowFrustum(view, 1024).constants.params.w, 0.0f);
  view.sunDirection[1] = 1.0f;
  view.shadowDistanceMeters = std::nanf("");
  EXPECT_EQ(renderer::fitShadowFrustum(view, 1024).constants.params.w, 0.0f);
}
