// Sun shadows and culling: with shadow casting on (the renderer's high preset) a frame keeps what
// lies outside the view but between it and the sun, so a shadow does not vanish when its caster
// leaves the screen; with it off (the low preset) nothing outside the view is submitted.
#include <cmath>

#include <gtest/gtest.h>

#include "tests/world/world_test_fixture.h"

namespace {

struct Frame {
  world::RenderList list;
  world::FrameStats stats;
};

// The row station with the camera turned down at the floor: the overhead cable trays and pipes
// leave the top of the view (the sun is high above).
Frame lookDownAtTheRowFloor(world::World& w, bool casting) {
  w.setShadowCasting(casting);
  const world::Station* station = w.station("row");
  EXPECT_NE(station, nullptr);
  world::Camera camera;
  world::Pose pose = world::toPose(station->viewpoint);
  pose.pitch_rad = -1.2;
  camera.setPose(pose);
  Frame f;
  f.stats = w.buildRenderList(camera, world::FrameDesc{1280, 720}, f.list);
  return f;
}

// Instances whose centre projects outside the clip volume (off screen).
size_t offScreen(const world::RenderList& list) {
  float m[16];
  world::viewProjection(list.view, 1280.0f / 720.0f, m);
  size_t count = 0;
  for (const gpu::Instance& inst : list.instances) {
    const float p[3] = {inst.row0.w, inst.row1.w, inst.row2.w};
    float clip[4];
    for (int r = 0; r < 4; ++r)
      clip[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
    if (clip[3] <= 0 || std::fabs(clip[0]) > clip[3] || std::fabs(clip[1]) > clip[3]) ++count;
  }
  return count;
}

}  // namespace

TEST(ShadowCasters, HighPresetKeepsCastersAboveTheViewLowPresetDoesNot) {
  auto w = worldtest::freshWorld();  // its shadow casting is switched
  ASSERT_TRUE(w);
  const Frame low = lookDownAtTheRowFloor(*w, false);
  const Frame high = lookDownAtTheRowFloor(*w, true);
  EXPECT_EQ(low.list.view.shadowDistanceMeters, 0.0f);  // no shadows asked for
  EXPECT_GT(high.list.view.shadowDistanceMeters, 0.0f);
  EXPECT_GT(high.list.instances.size(), low.list.instances.size());
  EXPECT_GT(offScreen(high.list), offScreen(low.list));

  // What high adds off screen lies towards the sun from the camera (above the floor it shades),
  // nearly all of it (the few others sit beside the shaded square, within reach of it): keeping
  // everything near the camera instead would add as much on the far side.
  const float* s = high.list.view.sunDirection;
  const double sunLength = std::sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
  size_t sunward = 0;
  for (const gpu::Instance& inst : high.list.instances) {
    const double along = (inst.row0.w * s[0] + inst.row1.w * s[1] + inst.row2.w * s[2]) / sunLength;
    if (along > 0) ++sunward;
  }
  size_t lowSunward = 0;
  for (const gpu::Instance& inst : low.list.instances) {
    const double along = (inst.row0.w * s[0] + inst.row1.w * s[1] + inst.row2.w * s[2]) / sunLength;
    if (along > 0) ++lowSunward;
  }
  const double added = double(high.list.instances.size() - low.list.instances.size());
  EXPECT_GE(double(sunward - lowSunward), 0.95 * added);
  // Still within the frame's triangle budget.
  EXPECT_LE(high.stats.triangles, world::FrameDesc{}.triangleBudget);
}

TEST(ShadowCasters, ShadowReachFollowsTheScaleOfWhatIsInView) {
  // The shadow distance is 8 to 16 times the distance to the nearest surface (8 times, rounded
  // up to a power of two metres so the map's texels do not change size as the camera moves),
  // so an SM gets micrometre shadows and the campus hundred-metre ones.
  auto built = worldtest::freshWorld();
  ASSERT_TRUE(built);
  world::World& w = *built;
  w.setShadowCasting(true);
  double previousDistance = 0;
  for (const char* name : {"sm", "rack", "campus"}) {
    SCOPED_TRACE(name);
    const world::Station* station = w.station(name);
    ASSERT_NE(station, nullptr);
    world::Camera camera;
    camera.setPose(world::toPose(station->viewpoint));
    world::RenderList list;
    const world::FrameStats stats = w.buildRenderList(camera, world::FrameDesc{1280, 720}, list);
    ASSERT_GT(stats.nearestSurface_m, 0.0);
    const double distance = list.view.shadowDistanceMeters;
    const double ratio = distance / stats.nearestSurface_m;
    EXPECT_GE(ratio, 8.0 * (1 - 1e-6));
    EXPECT_LT(ratio, 16.0);
    EXPECT_DOUBLE_EQ(std::exp2(std::round(std::log2(distance))), distance);
    // The eye's place on the texel grid: within one period (twice the distance).
    for (float offset : list.view.shadowGridOffset) {
      EXPECT_GE(offset, 0.0f);
      EXPECT_LE(offset, 2.0 * distance);
    }
    EXPECT_GT(distance, previousDistance);  // sm < rack < campus
    previousDistance = distance;
  }
}
