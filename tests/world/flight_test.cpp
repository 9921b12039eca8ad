// Camera controls and flight: fly-to under 2 s with zero velocity at both ends, splines through
// their keys, speed that follows the clearance, rays and view matrices.
#include <gtest/gtest.h>

#include <cmath>

#include <glm/gtc/constants.hpp>
#include "tests/world/world_test_fixture.h"

#include "sim/format.h"
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
  camera.fly(dvec3(0, 0, 1), 1.0, 2.0, 0.0);
  const double far = glm::length(camera.position());
  camera.setPose(world::Pose{});
  camera.fly(dvec3(0, 0, 1), 1.0, 2e-3, 0.0);
  const double near = glm::length(camera.position());
  EXPECT_NEAR(far / near, 1000.0, 1e-6);
  EXPECT_NEAR(far, camera.desc().flySpeedPerMeterOfClearance * 2.0, 1e-12);
}

TEST(Camera, TouchingASurfaceNeverStopsTheFlight) {
  // Issue 22: after touching a rack the speed fell to 10 µm/s ("0 um") and no key moved the
  // camera. The floor is a share of the place's scale: in a 2.2 m rack, 2 % of it per second.
  world::Camera camera;
  const double rack_m = 2.2;
  camera.fly(dvec3(0, 0, 1), 1.0, 0.0, rack_m);
  EXPECT_NEAR(glm::length(camera.position()), camera.desc().minFlySpeedPerScale * rack_m, 1e-12);
  EXPECT_GE(camera.flySpeed(0.0, rack_m), 0.04);  // at least 4 cm/s: a rack is crossed in a minute
  // The wheel too: its notch covers a share of the clearance, never nothing.
  camera.setPose(world::Pose{});
  camera.dolly(1.0, 0.0, rack_m);
  EXPECT_GT(glm::length(camera.position()), 0.0);
}

TEST(Camera, CollisionStopsShortOfAWallAndLetsTheCameraBackAway) {
  // A wall at z = -1 (the camera looks down -Z): the distance to it is what the world reports.
  const world::ClearanceAt wall = [](const dvec3& p) { return std::max(0.0, p.z + 1.0); };
  world::Camera camera;
  const double scale_m = 10.0;
  const double stop = camera.desc().stopClearancePerScale * scale_m;  // 2 cm
  for (int i = 0; i < 100; ++i)
    camera.fly(dvec3(0, 0, 1), 0.1, wall(camera.position()), scale_m, wall);
  EXPECT_GE(wall(camera.position()), stop * 0.999);  // stopped at the clearance ...
  EXPECT_LT(wall(camera.position()), stop * 1.01);   // ... not before it
  // Away from the wall always works, and so does sliding along it.
  const dvec3 at = camera.position();
  camera.fly(dvec3(0, 0, -1), 0.1, wall(camera.position()), scale_m, wall);
  EXPECT_GT(camera.position().z, at.z);
  camera.setPose(world::Pose{at, 0, 0});
  camera.fly(dvec3(1, 0, 0), 0.1, wall(camera.position()), scale_m, wall);
  EXPECT_GT(camera.position().x, at.x);
  // A camera already inside something (clearance 0) can still move: never trapped.
  const world::ClearanceAt inside = [](const dvec3&) { return 0.0; };
  camera.setPose(world::Pose{});
  camera.fly(dvec3(0, 0, 1), 1.0, 0.0, scale_m, inside);
  EXPECT_GT(glm::length(camera.position()), 0.0);
}

TEST(Camera, DollyClosesAFractionAndOrbitKeepsDistance) {
  world::Camera camera;
  camera.dolly(1.0, 10.0, 0.0, {}, 0.2);
  EXPECT_NEAR(camera.position().z, -2.0, 1e-12);  // 20 % of 10 m
  camera.dolly(-1.0, 8.0, 0.0, {}, 0.2);
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
}

TEST(Ladder, EachRungIsFoundFromItsViewpointAndNearIt) {
  // The rung free flight starts a ladder step from (the window's walk over the whole ladder is
  // tests/app/free_flight_test).
  const auto& stations = worldtest::defaultWorld().stations();
  for (const auto& s : stations) {  // each rung recognises its own viewpoint
    if (!s.onLadder) continue;
    auto here = world::ladderRungAt(stations, world::toPose(s.viewpoint));
    ASSERT_TRUE(here.has_value());
    EXPECT_EQ(stations[*here].name, s.name);
  }
  // Mid-way through free flight near a rung (a little off its viewpoint) still finds it.
  world::Pose nearRack = world::toPose(worldtest::defaultWorld().station("rack")->viewpoint);
  nearRack.position += dvec3(0.3, 0.1, -0.2);
  auto rung = world::ladderRungAt(stations, nearRack);
  ASSERT_TRUE(rung.has_value());
  EXPECT_EQ(stations[*rung].name, "rack");
}

TEST(Stations, FormatLengthPicksReadableUnits) {
  EXPECT_EQ(sim::formatLength(0.0025), "2.5 mm");
  EXPECT_EQ(sim::formatLength(2.236), "2.24 m");
  EXPECT_EQ(sim::formatLength(1500.0), "1.5 km");
  EXPECT_EQ(sim::formatLength(20e-6), "20 µm");  // µ, not "um" (issue 21)
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
