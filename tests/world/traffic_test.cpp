// Traffic particles (world/traffic.h): paths on the hero rack's real parts, density and speed
// proportional to the load, rates equal to what the engine moves, PFC pauses in red and still.
#include <cmath>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "sim/catalog.h"
#include "sim/engine/engine.h"
#include "sim/engine/scenarios.h"
#include "sim/specs.h"
#include "tests/world/world_test_fixture.h"
#include "world/traffic.h"

namespace {

using world::TrafficKind;

using worldtest::engineFor;

bool inside(const world::Aabb& box, const glm::dvec3& p, double slack_m) {
  for (int k = 0; k < 3; ++k) {
    if (p[k] < box.min[k] - slack_m || p[k] > box.max[k] + slack_m) return false;
  }
  return true;
}

TEST(Traffic, PathsFollowTheHeroRacksPartsAndReachEverySpineRack) {
  const world::World& w = worldtest::defaultWorld();
  const world::Scene& scene = w.scene();
  const auto rack = scene.worldBounds("hall0/row0/rack0");
  const auto leaf = scene.worldBounds("hall0/row0/leaf_rack");
  ASSERT_TRUE(rack && leaf);
  int spineRacks = 0;
  while (scene.worldBounds("hall0/fabric/spine/spine_rack" + std::to_string(spineRacks))) {
    ++spineRacks;
  }
  ASSERT_GT(spineRacks, 0);

  int nvlink = 0, fabric = 0;
  for (const world::TrafficPath& p : w.traffic().paths()) {
    ASSERT_GE(p.points.size(), 2u);
    EXPECT_NEAR(p.along_m.back(), p.length_m(), 1e-12);
    if (p.kind == TrafficKind::NvLink) {
      ++nvlink;
      // A copper bundle: inside the rack, vertical, most of the rack's height.
      EXPECT_TRUE(inside(*rack, p.points.front(), 0.01) && inside(*rack, p.points.back(), 0.01));
      EXPECT_GT(p.length_m(), 0.5 * rack->size().y);
      EXPECT_LT(p.length_m(), rack->size().y);
    } else if (fabric++ == 0) {
      // Rack top -> leaf rack top.
      EXPECT_NEAR(p.points.front().y, rack->max.y, 1e-9);
      EXPECT_NEAR(p.points.back().y, leaf->max.y, 1e-9);
      EXPECT_TRUE(inside(*leaf, p.points.back(), 1e-6));
    } else {
      // Leaf rack top -> the top of one spine rack.
      const auto spine =
          scene.worldBounds("hall0/fabric/spine/spine_rack" + std::to_string(fabric - 2));
      ASSERT_TRUE(spine);
      EXPECT_TRUE(inside(*leaf, p.points.front(), 1e-6));
      EXPECT_TRUE(inside(*spine, p.points.back(), 1e-6));
      EXPECT_NEAR(p.points.back().y, spine->max.y, 1e-9);
    }
  }
  EXPECT_EQ(nvlink, 8);  // the NVL72 rack's eight copper cable bundles
  EXPECT_EQ(fabric, 1 + spineRacks);
}

TEST(Traffic, PathIsWalkedByArcLength) {
  world::TrafficPath p;
  p.points = {{0, 0, 0}, {3, 0, 0}, {3, 4, 0}};
  p.along_m = {0, 3, 7};
  EXPECT_EQ(p.at(1.5), glm::dvec3(1.5, 0, 0));
  EXPECT_EQ(p.at(5.0), glm::dvec3(3, 2, 0));
  EXPECT_EQ(p.at(-1.0), glm::dvec3(0, 0, 0));
  EXPECT_EQ(p.at(99.0), glm::dvec3(3, 4, 0));
}

TEST(Traffic, DensityAndSpeedAreProportionalToLoadUpToTheirCaps) {
  const world::TrafficStyle style{100.0, 40.0, 10.0, 3.0, 0.02};
  EXPECT_EQ(world::particleCount(2.0, 0.0, style), 0u);
  EXPECT_EQ(world::particleCount(2.0, 0.05, style), 10u);  // 0.05 x 100 /m x 2 m
  EXPECT_EQ(world::particleCount(2.0, 0.10, style), 20u);  // twice the load, twice as dense
  EXPECT_EQ(world::particleCount(2.0, 0.90, style), 80u);  // capped at 40 /m
  EXPECT_DOUBLE_EQ(world::particleSpeed_mps(0.1, style), 1.0);
  EXPECT_DOUBLE_EQ(world::particleSpeed_mps(0.2, style), 2.0);
  EXPECT_DOUBLE_EQ(world::particleSpeed_mps(0.9, style), 3.0);  // capped
  EXPECT_DOUBLE_EQ(world::particleSpeed_mps(0.0, style), 0.0);
}

TEST(Traffic, RatesAreWhatTheEngineMovesForTheHeroRack) {
  world::Traffic traffic = world::Traffic::build(worldtest::defaultWorld().scene());
  auto engine = engineFor("training_405b");
  const sim::engine::Cluster& c = engine->cluster();
  engine->advanceTo(1.0);
  traffic.update(*engine);
  const double bytes1 = engine->nvlinkBytes(), t1 = engine->time_s();
  // Into the DP all-reduce: the fabric is busy.
  const double dpStart_s = engine->pipelineTime_s();
  engine->advanceTo(dpStart_s + 0.05);
  traffic.update(*engine);
  const double expectedNvlink =
      (engine->nvlinkBytes() - bytes1) / (engine->time_s() - t1) / double(c.racks);
  EXPECT_NEAR(traffic.flow(TrafficKind::NvLink).rate_Bps, expectedNvlink, 1e-6 * expectedNvlink);
  EXPECT_DOUBLE_EQ(traffic.flow(TrafficKind::NvLink).capacity_Bps,
                   c.gpusPerRack * sim::scaleUpPerDirection_Bps(c.specs.gpu));

  const sim::engine::Snapshot s = engine->snapshot();
  double rate = 0, capacity = 0;
  for (uint32_t g = 0; g < c.gpusPerRack; ++g) {
    const sim::engine::Link& link = c.links[c.gpuLink[g]];
    rate += s.linkUtilisation[c.gpuLink[g]] * link.capacity_Bps;
    capacity += link.capacity_Bps;
  }
  EXPECT_GT(rate, 0.0) << "the DP phase moves data over the NICs";
  EXPECT_NEAR(traffic.flow(TrafficKind::Fabric).rate_Bps, rate, 1e-6 * rate);
  EXPECT_DOUBLE_EQ(traffic.flow(TrafficKind::Fabric).capacity_Bps, capacity);
  EXPECT_FALSE(traffic.flow(TrafficKind::Fabric).paused);

  std::vector<gpu::Instance> out;
  traffic.emit(glm::dvec3(0.0), out);
  EXPECT_EQ(out.size(), traffic.particles());
  EXPECT_GT(out.size(), 0u);
}

TEST(Traffic, PfcPauseStopsTheFabricParticlesAndTurnsThemRed) {
  world::Traffic traffic = world::Traffic::build(worldtest::defaultWorld().scene());
  auto engine = engineFor("pfc_storm");  // leaf 0 storms from 5 s to 8 s
  engine->advanceTo(6.0);
  traffic.update(*engine);
  ASSERT_TRUE(traffic.flow(TrafficKind::Fabric).paused);
  std::vector<gpu::Instance> before, after;
  traffic.emit(glm::dvec3(0.0), before);
  engine->advanceTo(6.5);
  traffic.update(*engine);
  traffic.emit(glm::dvec3(0.0), after);
  size_t red = 0, stillRed = 0;
  for (const gpu::Instance& inst : before) {
    if (inst.color.x < 0.99f || inst.color.y > 0.2f) continue;  // the red ones
    ++red;
    for (const gpu::Instance& later : after) {
      if (later.row0.w == inst.row0.w && later.row1.w == inst.row1.w &&
          later.row2.w == inst.row2.w) {
        ++stillRed;
        break;
      }
    }
  }
  EXPECT_GT(red, 0u);
  EXPECT_EQ(stillRed, red) << "paused frames stay where they are";
}

TEST(Traffic, ARestartedEngineGivesItsMeanRateNotANegativeOne) {
  world::Traffic traffic = world::Traffic::build(worldtest::defaultWorld().scene());
  auto first = engineFor("training_405b");
  first->advanceTo(10.0);
  traffic.update(*first);
  auto second = engineFor("training_405b");  // a new tour step: a fresh engine at t = 0
  second->advanceTo(2.0);
  traffic.update(*second);
  const double mean = second->nvlinkBytes() / second->time_s() / second->cluster().racks;
  EXPECT_NEAR(traffic.flow(TrafficKind::NvLink).rate_Bps, mean, 1e-6 * mean);
  EXPECT_GE(traffic.flow(TrafficKind::NvLink).rate_Bps, 0.0);
}

}  // namespace
