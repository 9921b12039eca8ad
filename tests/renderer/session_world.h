// The world a session builds for an engine's cluster (app::worldPlanOf: layoutOf, campusOf),
// for renderer tests that draw what `dcwalk shot` draws.
#pragma once

#include <memory>

#include <gtest/gtest.h>

#include "sim/engine/engine.h"
#include "world/world.h"

namespace fixtures {

inline std::unique_ptr<world::World> worldOfCluster(const sim::engine::Cluster& cluster) {
  auto dims = world::Dimensions::loadDefault();
  EXPECT_TRUE(dims) << dims.error();
  if (!dims) return nullptr;
  auto layout = world::layoutOf(cluster, *dims, dims->count("row.racks_per_su"));
  EXPECT_TRUE(layout) << layout.error();
  if (!layout) return nullptr;
  world::WorldDesc worldDesc;
  worldDesc.campus = world::campusOf(*layout, int(cluster.campusRacks));
  auto built = world::World::create(*dims, worldDesc);
  EXPECT_TRUE(built) << built.error();
  return built ? std::move(*built) : nullptr;
}

}  // namespace fixtures
