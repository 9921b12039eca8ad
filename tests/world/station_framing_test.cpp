// Every station frames its hero as a product shot (visual brief, "station cameras"): the hero's
// bounds, projected through a pinhole camera written here from the station's orbit pose, fill a
// good share of a 16:9 frame, stay inside it and sit near its middle, seen from above at a 3/4
// angle rather than straight on or straight down.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "tests/world/world_test_fixture.h"
#include "world/scene/camera.h"
#include "world/scene/flight.h"

namespace {

struct Framing {
  double coverage = 0;              // share of the frame inside the projected bounds' rectangle
  double centreX = 0, centreY = 0;  // the rectangle's centre, -1..1 across the frame
  double elevation_deg = 0;         // the camera above the hero's centre
  double overflow = 0;              // how far the rectangle leaves the frame (share of half)
};

Framing framingOf(const world::Station& s, double aspect) {
  const world::Pose pose = world::toPose(s.viewpoint);
  const double cy = std::cos(pose.pitch_rad);
  // yaw 0 looks down -Z, pitch up positive (camera.h).
  const glm::dvec3 forward(-std::sin(pose.yaw_rad) * cy, std::sin(pose.pitch_rad),
                           -std::cos(pose.yaw_rad) * cy);
  const glm::dvec3 right = glm::normalize(glm::cross(forward, glm::dvec3(0, 1, 0)));
  const glm::dvec3 up = glm::cross(right, forward);
  const double t = std::tan(0.5 * world::VIEW_FOV_RAD);
  double x0 = 1e9, x1 = -1e9, y0 = 1e9, y1 = -1e9;
  // What the view frames: the hero, with a twin or a stand-in drawing framed with it.
  const world::Aabb& b = s.framedBounds;
  for (int i = 0; i < 8; ++i) {
    const glm::dvec3 corner((i & 1) ? b.max.x : b.min.x, (i & 2) ? b.max.y : b.min.y,
                            (i & 4) ? b.max.z : b.min.z);
    const glm::dvec3 d = corner - pose.position;
    const double depth = glm::dot(d, forward);
    EXPECT_GT(depth, 0) << s.name << ": a corner of the hero is behind the camera";
    const double x = glm::dot(d, right) / depth / (t * aspect), y = glm::dot(d, up) / depth / t;
    x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
  }
  Framing f;
  const double w = std::clamp(x1, -1.0, 1.0) - std::clamp(x0, -1.0, 1.0);
  const double h = std::clamp(y1, -1.0, 1.0) - std::clamp(y0, -1.0, 1.0);
  f.coverage = std::max(0.0, w) * std::max(0.0, h) / 4.0;
  f.centreX = 0.5 * (x0 + x1), f.centreY = 0.5 * (y0 + y1);
  f.overflow = std::max({-1.0 - x0, x1 - 1.0, -1.0 - y0, y1 - 1.0, 0.0});
  const glm::dvec3 toEye = pose.position - b.center();
  f.elevation_deg = glm::degrees(std::asin(toEye.y / glm::length(toEye)));
  return f;
}

}  // namespace

TEST(StationFraming, EveryHeroFillsTheFrameFromAThreeQuarterView) {
  const double aspect = 1280.0 / 720.0;
  int checked = 0;
  for (const world::Station& s : worldtest::defaultWorld().stations()) {
    const Framing f = framingOf(s, aspect);
    // At least a fifth of the frame: a hero of 2 % (the old campus) reads as nothing.
    EXPECT_GE(f.coverage, 0.2) << s.name;
    EXPECT_LE(std::abs(f.centreX), 0.35) << s.name;
    EXPECT_LE(std::abs(f.centreY), 0.35) << s.name;
    // The bounds' corners overstate the silhouette, so the rectangle may leave the frame a little.
    EXPECT_LE(f.overflow, 0.2) << s.name << ": the hero is cut by the frame";
    EXPECT_GE(f.elevation_deg, 5.0) << s.name << ": seen from below or straight on";
    EXPECT_LE(f.elevation_deg, 70.0) << s.name << ": seen straight down";
    ++checked;
  }
  EXPECT_GE(checked, 15);
}
