// Camera controls and flight: fly-to under 2 s with zero velocity at both ends, splines through
// their keys, speed that follows the clearance, rays and view matrices.
#include <gtest/gtest.h>

#include <cmath>

#include <glm/gtc/constants.hpp>
#include "tests/world/world_test_fixture.h"

#include "world/scene/camera.h"
#include "world/scene/flight.h"

namespace {

using glm::dvec3;

TEST(Easing, EndsAtZeroAndOneWithZeroSlope) {
  EXPECT_DOUBLE_EQ(world::easeInOut(0.0), 0.0);
  EXPECT_DOUBLE_EQ(world::easeInOut(1.0), 1.0);
  EXPECT_DOUBLE_EQ(world::easeInOut(0.5), 0.5);
  const double h = 1e-4;
  EXPECT_LT(world::easeInOut(h) / h, 1e-6);
  EXPECT_LT((1.0 - world::easeInOut(1.0 - h)) / h, 1e-6);
  for (double t = 0; t < 1.0; t += 0.01) EXPECT_LE(world::easeInOut(t), world::easeInOut(t + 0.01));
}

TEST(FlyTo, SmToCampusIsUnderTwoSecondsAndEased) {
  const world::Station* sm = worldtest::defaultWorld().station("sm");
  const world::Station* campus = worldtest::defaultWorld().station("campus");
  const world::FlyTo flight(sm->viewpoint, campus->viewpoint);
  EXPECT_LT(flight.duration_s(), 2.0);
  EXPECT_GT(flight.duration_s(), 0.0);
  // Starts and ends exactly at the viewpoints.
  const world::Pose start = flight.sample(0.0), end = flight.sample(flight.duration_s());
  const world::Pose want0 = world::toPose(sm->viewpoint), want1 = world::toPose(campus->viewpoint);
  EXPECT_LT(glm::length(start.position - want0.position), 1e-12);
  EXPECT_LT(glm::length(end.position - want1.position), 1e-9);
  EXPECT_TRUE(flight.finished(flight.duration_s()));
  // Velocity 0 at both ends: over the first and last millisecond the camera moves a vanishing
  // fraction of what it moves per millisecond on average.
  const double dt = 1e-3;
  const double total = glm::length(want1.position - want0.position);
  const double average = total / flight.duration_s() * dt;
  const double first = glm::length(flight.sample(dt).position - start.position);
  const double last = glm::length(end.position - flight.sample(flight.duration_s() - dt).position);
  EXPECT_LT(first, 1e-3 * average);
  EXPECT_LT(last, 1e-3 * average);
  // The distance to the target changes geometrically: halfway it is the geometric mean.
  const world::FlyTo straight(world::OrbitPose{dvec3(0), 1e-3, 0, 0},
                              world::OrbitPose{dvec3(0), 1e3, 0, 0});
  const world::Pose mid = straight.sample(straight.duration_s() / 2);
  EXPECT_NEAR(glm::length(mid.position), 1.0, 1e-9);
}

TEST(FlyTo, EveryPairOfStationsIsUnderTwoSeconds) {
  const auto& stations = worldtest::defaultWorld().stations();
  for (const auto& a : stations) {
    for (const auto& b : stations) {
      EXPECT_LT(world::FlyTo(a.viewpoint, b.viewpoint).duration_s(), 2.0)
          << a.name << " -> " << b.name;
    }
  }
}

TEST(CameraSpline, PassesThroughKeysAndRejectsBadTimes) {
  world::CameraSpline spline;
  EXPECT_FALSE(spline.setKeys({}));
  EXPECT_FALSE(spline.setKeys({{0.0, {}}, {0.0, {}}}));
  std::vector<world::SplineKey> keys;
  for (int i = 0; i < 5; ++i) {
    world::Pose p;
    p.position = dvec3(i * 10.0, std::sin(i), -i * 2.0);
    p.yaw_rad = 0.1 * i;
    keys.push_back({i * 2.0, p});
  }
  ASSERT_TRUE(spline.setKeys(keys));
  EXPECT_DOUBLE_EQ(spline.duration_s(), 8.0);
  for (const auto& key : keys) {
    EXPECT_LT(glm::length(spline.sample(key.time_s).position - key.pose.position), 1e-12);
    EXPECT_NEAR(spline.sample(key.time_s).yaw_rad, key.pose.yaw_rad, 1e-12);
  }
  // Between keys it is continuous: small steps make small moves.
  for (double t = 0; t < 8.0; t += 0.01) {
    EXPECT_LT(glm::length(spline.sample(t + 0.01).position - spline.sample(t).position), 1.0);
  }
  // Yaw across the +-pi seam turns the short way.
  world::Pose a, b;
  a.yaw_rad = 3.1;
  b.yaw_rad = -3.1;
  ASSERT_TRUE(spline.setKeys({{0.0, a}, {1.0, b}}));
  EXPECT_NEAR(spline.sample(0.5).yaw_rad, glm::pi<double>(), 1e-3);
}

TEST(Camera, BasisIsOrthonormalAndLooksWhereAsked) {
  world::Camera camera;
  camera.setPose(world::Pose{dvec3(1, 2, 3), 0.7, -0.4});
  EXPECT_NEAR(glm::length(camera.forward()), 1.0, 1e-12);
  EXPECT_NEAR(glm::dot(camera.forward(), camera.right()), 0.0, 1e-12);
  EXPECT_NEAR(glm::dot(camera.forward(), camera.up()), 0.0, 1e-12);
  camera.lookAt(dvec3(1, 2, -7));
  EXPECT_LT(glm::length(camera.forward() - dvec3(0, 0, -1)), 1e-12);
  camera.lookAt(dvec3(4, 6, 3));
  EXPECT_LT(glm::length(camera.forward() - dvec3(0.6, 0.8, 0)), 1e-12);
  // The centre pixel's ray is the forward vector; the top-left one leans left and up.
  const dvec3 centre = camera.rayThroughPixel(639.5, 359.5, 1280, 720);
  EXPECT_LT(glm::length(centre - camera.forward()), 1e-12);
  const dvec3 corner = camera.rayThroughPixel(0, 0, 1280, 720);
  EXPECT_LT(glm::dot(corner, camera.right()), 0.0);
  EXPECT_GT(glm::dot(corner, camera.up()), 0.0);
}

TEST(Camera, ViewRotationMapsForwardToMinusZ) {
  world::Camera camera;
  camera.setPose(world::Pose{dvec3(5, 5, 5), 1.1, 0.3});
  world::ViewParams view;
  camera.fillView(view);
  const dvec3 f = camera.forward();
  // Column-major: out[row] = sum over col of m[col*4+row] * v[col].
  dvec3 out(0);
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 3; ++col) out[row] += view.viewRotation[col * 4 + row] * f[col];
  }
  EXPECT_NEAR(out.x, 0.0, 1e-6);
  EXPECT_NEAR(out.y, 0.0, 1e-6);
  EXPECT_NEAR(out.z, -1.0, 1e-6);
  EXPECT_FLOAT_EQ(view.viewRotation[15], 1.0f);
  EXPECT_FLOAT_EQ(view.viewRotation[12], 0.0f);  // no translation: the camera sits at the origin
}

TEST(Camera, FlySpeedScalesWithClearance) {
  world::Camera camera;  // looking down -Z
  camera.fly(dvec3(0, 0, 1), 1.0, 2.0);
  const double far = glm::length(camera.position());
  camera.setPose(world::Pose{});
  camera.fly(dvec3(0, 0, 1), 1.0, 2e-3);
  const double near = glm::length(camera.position());
  EXPECT_NEAR(far / near, 1000.0, 1e-6);
  EXPECT_NEAR(far, camera.desc().flySpeedPerMeterOfClearance * 2.0, 1e-12);
  // Never stuck: zero clearance still moves at the minimum speed.
  camera.setPose(world::Pose{});
  camera.fly(dvec3(0, 0, 1), 1.0, 0.0);
  EXPECT_NEAR(glm::length(camera.position()), camera.desc().minFlySpeed_mps, 1e-15);
}

TEST(Camera, DollyClosesAFractionAndOrbitKeepsDistance) {
  world::Camera camera;
  camera.dolly(1.0, 10.0, 0.2);
  EXPECT_NEAR(camera.position().z, -2.0, 1e-12);  // 20 % of 10 m
  camera.dolly(-1.0, 8.0, 0.2);
  EXPECT_NEAR(camera.position().z, 0.0, 1e-12);  // back to 10 m clearance
  const dvec3 pivot(0, 0, -10);
  camera.orbit(pivot, 0.8, 0.3);
  EXPECT_NEAR(glm::length(camera.position() - pivot), 10.0, 1e-9);
  EXPECT_LT(glm::length(glm::normalize(pivot - camera.position()) - camera.forward()), 1e-9);
}

TEST(Ladder, ZoomOutAndInStepsOneScale) {
  const auto& stations = worldtest::defaultWorld().stations();
  auto out = world::neighbourOnLadder(stations, "sm", +1);
  ASSERT_TRUE(out.has_value());
  EXPECT_GT(stations[*out].scale_m, worldtest::defaultWorld().station("sm")->scale_m);
  auto back = world::neighbourOnLadder(stations, stations[*out].name, -1);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(stations[*back].name, "sm");
  EXPECT_FALSE(world::neighbourOnLadder(stations, "sm", -1).has_value());
  EXPECT_FALSE(world::neighbourOnLadder(stations, "campus", +1).has_value());
  EXPECT_FALSE(world::neighbourOnLadder(stations, "tpu", +1).has_value());  // not on the ladder
  auto closest = world::closestOnLadder(stations, 2.3);
  ASSERT_TRUE(closest.has_value());
  EXPECT_EQ(stations[*closest].name, "rack");
}

TEST(Stations, FormatLengthPicksReadableUnits) {
  EXPECT_EQ(world::formatLength(0.0025), "2.5 mm");
  EXPECT_EQ(world::formatLength(2.236), "2.24 m");
  EXPECT_EQ(world::formatLength(1500.0), "1.5 km");
  EXPECT_EQ(world::formatLength(20e-6), "20 um");
}

}  // namespace

TEST(FlyTo, SlidingFarAtCloseRangeTakesLongerThanTheQuickest) {
  // Same 5 cm orbit at both ends, 15 m apart: 15 / 0.05 = 300 "widths" of travel count as
  // log10(1 + 300) decades, so 0.5 s + 0.2 s x 2.48 = 0.996 s, not the 0.5 s minimum.
  const world::FlyTo slide(world::OrbitPose{dvec3(0), 0.05, 0, 0},
                           world::OrbitPose{dvec3(15, 0, 0), 0.05, 0, 0});
  EXPECT_NEAR(slide.duration_s(), 0.5 + 0.2 * std::log10(301.0), 1e-9);
  // Orbit and pose sampling agree.
  const world::OrbitPose mid = slide.sampleOrbit(slide.duration_s() / 2);
  EXPECT_NEAR(mid.target.x, 7.5, 1e-9);
  EXPECT_LT(
      glm::length(world::toPose(mid).position - slide.sample(slide.duration_s() / 2).position),
      1e-12);
}
