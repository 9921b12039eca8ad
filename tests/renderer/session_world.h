// The world a session builds for an engine's cluster (app::worldPlanOf: layoutOf, campusOf),
// for renderer tests that draw what `dcwalk shot` draws.
#pragma once

#include <memory>

#include <gtest/gtest.h>

#include "sim/catalog.h"
#include "sim/engine/engine.h"
#include "sim/engine/scenarios.h"
#include "tests/common/shipped_catalog.h"
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

/// The world `dcwalk shot --station` and the bench draw from: the tour's engine scenario's
/// cluster (assets/tours/default.json and the bench's default: training_405b).
inline std::unique_ptr<world::World> tourWorld() {
  const sim::Catalog* catalog = &testcatalog::shipped();
  auto desc = sim::engine::builtinScenario("training_405b");
  EXPECT_TRUE(desc) << desc.error();
  if (!catalog || !desc) return nullptr;
  auto engine = sim::engine::Engine::create(*catalog, *desc);
  EXPECT_TRUE(engine) << engine.error();
  return engine ? worldOfCluster((*engine)->cluster()) : nullptr;
}

}  // namespace fixtures
