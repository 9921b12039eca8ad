// One source for the counts: the campus the world builds holds exactly the racks the simulation's
// campus has (the facility power budget, PUE and rack power decide it, in sim/).
#include <gtest/gtest.h>

#include "sim/catalog.h"
#include "sim/engine/engine.h"
#include "sim/engine/scenarios.h"
#include "tests/common/shipped_catalog.h"
#include "tests/world/world_test_fixture.h"

namespace {

struct Counted {
  int halls = 0;
  int racks = 0;
};

Counted countRacks(const world::Scene& scene) {
  Counted c;
  for (const auto& hall : scene.prototype(scene.root()).children) {
    if (hall.name.rfind("hall", 0) != 0) continue;
    ++c.halls;
    for (const auto& row : scene.prototype(hall.prototype).children) {
      for (const auto& child : scene.prototype(row.prototype).children) {
        c.racks += child.name.rfind("rack", 0) == 0;
      }
    }
  }
  return c;
}

}  // namespace

TEST(CampusCounts, WorldHoldsTheSimulationsRacks) {
  const sim::Catalog* catalog = &testcatalog::shipped();
  auto desc = sim::engine::builtinScenario("training_405b");
  ASSERT_TRUE(desc.ok()) << desc.error();
  auto engine = sim::engine::Engine::create(*catalog, *desc);
  ASSERT_TRUE(engine.ok()) << engine.error();
  const uint32_t simRacks = (*engine)->cluster().campusRacks;
  ASSERT_GT(simRacks, 0u);

  world::WorldDesc worldDesc;
  worldDesc.campus.totalRacks = int(simRacks);
  auto w = world::World::create(worldtest::dims(), worldDesc);
  ASSERT_TRUE(w.ok()) << w.error();
  const Counted counted = countRacks((*w)->scene());
  EXPECT_EQ(counted.racks, int(simRacks));
  // Halls of hall.rackCount, filled in order: ceil(racks / per hall) of them.
  const int perHall = worldDesc.campus.hall.rackCount;
  EXPECT_EQ(counted.halls, (int(simRacks) + perHall - 1) / perHall);
}

TEST(CampusCounts, HallRackCountsFillHallsInOrder) {
  world::CampusDesc desc;
  desc.hall.rackCount = 128;
  desc.totalRacks = 631;
  EXPECT_EQ(world::hallRackCounts(desc), (std::vector<int>{128, 128, 128, 128, 119}));
  desc.totalRacks = 256;
  EXPECT_EQ(world::hallRackCounts(desc), (std::vector<int>{128, 128}));
  desc.totalRacks = 0;
  desc.hallCount = 3;
  EXPECT_EQ(world::hallRackCounts(desc), (std::vector<int>{128, 128, 128}));
}
