// The selection panel's content (world/live/selection.h): a hero-rack GPU's and a rack's live
// numbers equal the engine's arrays, and their catalog figures come with the catalog's sources.
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "sim/catalog.h"
#include "sim/engine/engine.h"
#include "sim/engine/scenarios.h"
#include "world/live/selection.h"

namespace {

struct Fixture {
  sim::Catalog catalog;
  std::unique_ptr<sim::engine::Engine> engine;
  std::unique_ptr<world::World> world;
};

// The world with the engine's campus racks, as the app builds it; the engine 7 s into the job.
Fixture& fixture() {
  static Fixture f = [] {
    Fixture out;
    auto catalog = sim::Catalog::loadDirectory(sim::assetsDir() / "catalog");
    EXPECT_TRUE(catalog) << catalog.error();
    out.catalog = std::move(*catalog);
    auto desc = sim::engine::builtinScenario("training_405b");
    auto engine = sim::engine::Engine::create(out.catalog, *desc);
    EXPECT_TRUE(engine) << engine.error();
    out.engine = std::move(*engine);
    out.engine->advanceTo(7.0);
    auto dims = world::Dimensions::fromCatalog(out.catalog);
    world::WorldDesc wd;
    wd.campus.totalRacks = int(out.engine->cluster().campusRacks);
    auto w = world::World::create(*dims, wd);
    EXPECT_TRUE(w) << w.error();
    out.world = std::move(*w);
    return out;
  }();
  return f;
}

void expectCatalogFigures(const world::SelectionInfo& info, const sim::Catalog& catalog,
                          const std::string& prefix) {
  ASSERT_FALSE(info.specs.empty());
  for (const world::SelectionFigure& f : info.specs) {
    EXPECT_EQ(f.key.rfind(prefix + ".", 0), 0u) << f.key;
    const sim::Quantity* q = catalog.find(f.key);
    ASSERT_NE(q, nullptr) << f.key;
    EXPECT_EQ(f.value, q->value);
    EXPECT_EQ(f.source, q->source);
    EXPECT_FALSE(f.source.empty()) << f.key;
    EXPECT_EQ(f.basis, q->basis);
  }
}

TEST(Selection, HeroGpuShowsItsEngineValuesAndGpuFigures) {
  Fixture& f = fixture();
  const sim::engine::Cluster& c = f.engine->cluster();
  ASSERT_FALSE(f.world->heroGpus().empty());
  const world::HeroGpu& gpu = f.world->heroGpus().back();
  world::PickHit hit;
  hit.path = f.world->racks().pathOfRack(0) + "/compute_tray" + std::to_string(gpu.tray) +
             "/superchip0_gpu1/die0";
  hit.part = "die";
  hit.worldBounds = gpu.bounds;
  const world::SelectionInfo info =
      world::describeSelection(hit, *f.world, f.engine->snapshot(), f.catalog);
  ASSERT_EQ(info.kind, world::SelectionKind::Gpu);
  const uint32_t g = gpu.tray * c.gpusPerTray + gpu.slot;
  EXPECT_EQ(info.index, g);
  const sim::engine::Snapshot s = f.engine->snapshot();
  ASSERT_EQ(info.live.size(), 5u);
  EXPECT_DOUBLE_EQ(info.live[0].value, 100.0 * s.gpuUtilisation[g]);
  EXPECT_DOUBLE_EQ(info.live[1].value, s.gpuPower_W[g]);
  EXPECT_DOUBLE_EQ(info.live[2].value, s.gpuJunction_C[g]);
  EXPECT_DOUBLE_EQ(info.live[3].value, s.gpuHbm_Bps[g] / 1e9);
  EXPECT_DOUBLE_EQ(info.live[4].value, 100.0 * s.linkUtilisation[c.gpuLink[g]]);
  expectCatalogFigures(info, f.catalog, "gpus." + c.specs.gpu.id);
}

TEST(Selection, ModelledRackShowsItsOwnPowerAndSystemFigures) {
  Fixture& f = fixture();
  const sim::engine::Cluster& c = f.engine->cluster();
  const uint32_t rack = 5;
  world::PickHit hit;
  hit.path = f.world->racks().pathOfRack(rack) + "/compute_tray3";
  hit.part = "tray";
  hit.worldBounds = f.world->racks().rackBounds(rack);
  const world::SelectionInfo info =
      world::describeSelection(hit, *f.world, f.engine->snapshot(), f.catalog);
  ASSERT_EQ(info.kind, world::SelectionKind::Rack);
  EXPECT_EQ(info.index, rack);
  EXPECT_FALSE(info.mirrored);
  const sim::engine::Snapshot s = f.engine->snapshot();
  EXPECT_DOUBLE_EQ(info.live[0].value, s.rackPower_W[rack] / 1e3);
  double busy = 0;
  const uint32_t g0 = rack * c.gpusPerRack;
  for (uint32_t g = g0; g < g0 + c.gpusPerRack; ++g) busy += s.gpuUtilisation[g];
  EXPECT_NEAR(info.live[1].value, 100.0 * busy / c.gpusPerRack, 1e-9);
  expectCatalogFigures(info, f.catalog, "systems." + c.specs.system.id);
}

TEST(Selection, MirroredRackShowsTheModelledAverage) {
  Fixture& f = fixture();
  const sim::engine::Cluster& c = f.engine->cluster();
  ASSERT_GT(f.world->racks().rackCount(), c.racks) << "the campus has mirrored racks";
  const uint32_t rack = f.world->racks().rackCount() - 1;
  world::PickHit hit;
  hit.path = f.world->racks().pathOfRack(rack);
  hit.part = "rack shell";
  hit.worldBounds = f.world->racks().rackBounds(rack);
  const world::SelectionInfo info =
      world::describeSelection(hit, *f.world, f.engine->snapshot(), f.catalog);
  ASSERT_EQ(info.kind, world::SelectionKind::Rack);
  EXPECT_TRUE(info.mirrored);
  const sim::engine::Snapshot s = f.engine->snapshot();
  double sum = 0;
  for (uint32_t r = 0; r < c.racks; ++r) sum += s.rackPower_W[r];
  EXPECT_NEAR(info.live[0].value, sum / c.racks / 1e3, 1e-9);
}

TEST(Selection, OtherPartsAreJustParts) {
  Fixture& f = fixture();
  world::PickHit hit;
  hit.path = "cooling0/tower0";
  hit.part = "cooling tower";
  const world::SelectionInfo info =
      world::describeSelection(hit, *f.world, f.engine->snapshot(), f.catalog);
  EXPECT_EQ(info.kind, world::SelectionKind::Part);
  EXPECT_EQ(info.title, "cooling tower");
  EXPECT_TRUE(info.live.empty());
}

}  // namespace
