// True dimensions: the built geometry's bounds against the catalog and against published sizes.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "sim/catalog.h"
#include "tests/common/shipped_catalog.h"
#include "tests/world/world_test_fixture.h"
#include "world/builders/builders.h"

namespace {

using world::Aabb;

// Published sizes, typed here from their sources (not read from the code under test).
constexpr double GH100_DIE_AREA_MM2 = 814.0;  // reference A.1 (Hopper whitepaper via TechPowerUp)
constexpr double RACK_UNIT_MM = 44.45;        // EIA-310-D: 1U = 1.75 in
constexpr double NVL72_W_MM = 600.0, NVL72_D_MM = 1068.0, NVL72_H_MM = 2236.0;  // issue 5
constexpr double HBM3_HEIGHT_MM = 0.72;  // JEDEC HBM3/HBM3E maximum stack height

const sim::Catalog& catalog() {
  return testcatalog::shipped();
}

double catalogMm(const std::string& path) {
  const sim::Quantity* q = catalog().find("dimensions." + path);
  EXPECT_NE(q, nullptr) << path;
  if (!q) return 0;
  EXPECT_EQ(q->unit, "mm") << path;
  return q->value;
}

struct Built : worldtest::Built {
  glm::dvec3 sizeMm(world::PrototypeId id) const {
    return scene.prototype(id).bounds.size() * 1000.0;
  }
  // The size of a prototype's own parts named in `names`: its chassis or cabinet, what the
  // published figure measures (not the fibres plugged into its front).
  glm::dvec3 shellSizeMm(world::PrototypeId id, const std::set<std::string>& names) const {
    Aabb shell;
    for (const world::Part& part : scene.prototype(id).parts)
      if (names.count(part.name)) shell.extend(part.bounds);
    EXPECT_FALSE(shell.empty());
    return shell.size() * 1000.0;
  }
};

void expectWithin2Percent(double measured, double expected, const char* what) {
  EXPECT_NEAR(measured, expected, 0.02 * expected) << what;
}

TEST(Dimensions, CatalogHasSourceAndBasisForEveryFigure) {
  int figures = 0;
  for (const auto& [path, q] : catalog().quantities()) {
    if (path.rfind("dimensions.", 0) != 0) continue;
    ++figures;
    EXPECT_FALSE(q.source.empty()) << path;
  }
  EXPECT_GT(figures, 100);
}

TEST(Dimensions, MissingFigureIsNamed) {
  auto cat = sim::Catalog::loadTexts(
      {{"dims.json", R"({"dimensions": {"rack_unit": {"height": {"value": 44.45, "unit": "mm",
        "source": "EIA-310", "basis": "vendor"}}}})"}});
  ASSERT_TRUE(cat.ok()) << cat.error();
  auto dims = world::Dimensions::fromCatalog(*cat);
  ASSERT_FALSE(dims.ok());
  EXPECT_NE(dims.error().find("dimensions.gh100.die_area"), std::string::npos) << dims.error();
}

TEST(Dimensions, WrongUnitNamesFileAndLine) {
  // Same catalog text, with the rack unit given in seconds.
  auto cat = sim::Catalog::loadTexts(
      {{"bad_dims.json",
        "{\n\"dimensions\": {\n\"rack_unit\": {\n\"height\": {\"value\": 1, "
        "\"unit\": \"s\", \"source\": \"x\", \"basis\": \"estimate\"}}}}"}});
  ASSERT_TRUE(cat.ok()) << cat.error();
  auto dims = world::Dimensions::fromCatalog(*cat);
  ASSERT_FALSE(dims.ok());
  EXPECT_NE(dims.error().find("bad_dims.json:4"), std::string::npos) << dims.error();
  EXPECT_NE(dims.error().find("unit \"s\""), std::string::npos) << dims.error();
}

TEST(Dimensions, Gh100DieAreaMatchesPublishedFigure) {
  Built b;
  auto ctx = b.ctx();
  const glm::dvec3 size = b.sizeMm(world::buildDie(ctx, "gh100", true));
  expectWithin2Percent(size.x * size.z, GH100_DIE_AREA_MM2, "GH100 die area (mm2)");
}

TEST(Dimensions, BlackwellDieMatchesCatalog) {
  Built b;
  auto ctx = b.ctx();
  const glm::dvec3 size = b.sizeMm(world::buildDie(ctx, "gb100", false));
  const double area = catalog().find("dimensions.gb100.die_area")->value;
  const double aspect = catalog().find("dimensions.gb100.die_aspect_w_over_h")->value;
  expectWithin2Percent(size.x * size.z, area, "GB100 die area (mm2)");
  expectWithin2Percent(size.x / size.z, aspect, "GB100 die aspect");
}

TEST(Dimensions, HbmStackMatchesCatalogAndJedecHeight) {
  for (bool cutaway : {false, true}) {
    Built b;
    auto ctx = b.ctx();
    const world::PrototypeId id = world::buildHbmStack(ctx, cutaway);
    const glm::dvec3 size = b.sizeMm(id);
    expectWithin2Percent(size.x, catalogMm("hbm3e_stack.width"), "HBM width");
    expectWithin2Percent(size.z, catalogMm("hbm3e_stack.depth"), "HBM depth");
    // The hbm station's cut-open drawing stands 4 times as tall (visual brief "hbm": x4).
    expectWithin2Percent(size.y, (cutaway ? 4.0 : 1.0) * HBM3_HEIGHT_MM, "HBM height");
    // Base die plus the catalog's DRAM die count (a cut die is the boxes of one name).
    std::set<std::string> dramDies;
    for (const auto& part : b.scene.prototype(id).parts)
      if (part.name.rfind("DRAM die", 0) == 0) dramDies.insert(part.name);
    EXPECT_EQ(int(dramDies.size()),
              int(catalog().find("dimensions.hbm3e_stack.dram_die_count")->value));
  }
}

TEST(Dimensions, ComputeTrayIsOneRackUnitAndCatalogFootprint) {
  for (bool hero : {false, true}) {
    Built b;
    auto ctx = b.ctx();
    const glm::dvec3 size =
        b.shellSizeMm(world::buildComputeTray(ctx, world::TrayDesc{.hero = hero}),
                      {"chassis pan", "chassis side", "front panel", "lid"});
    expectWithin2Percent(size.y, RACK_UNIT_MM, "tray height");
    expectWithin2Percent(size.x, catalogMm("compute_tray.width"), "tray width");
    expectWithin2Percent(size.z, catalogMm("compute_tray.depth"), "tray depth");
  }
}

TEST(Dimensions, Nvl72RackMatchesPublishedSize) {
  Built b;
  auto ctx = b.ctx();
  const world::PrototypeId rack = world::buildNvl72Rack(ctx, world::RackDesc{});
  const glm::dvec3 size = b.shellSizeMm(rack, {"rack post", "side panel", "base", "top"});
  expectWithin2Percent(size.x, NVL72_W_MM, "rack width");
  expectWithin2Percent(size.z, NVL72_D_MM, "rack depth");
  expectWithin2Percent(size.y, NVL72_H_MM, "rack height");
  // 18 compute trays and 9 switch trays (reference A.4), each inside the rack.
  int compute = 0, switches = 0;
  const Aabb rackBox = b.scene.prototype(rack).bounds;
  for (const auto& child : b.scene.prototype(rack).children) {
    compute +=
        child.name.rfind("compute_tray", 0) == 0 && child.name.find("_fibres") == std::string::npos;
    switches += child.name.rfind("switch_tray", 0) == 0;
    const Aabb box = world::transformAabb(child.local, b.scene.prototype(child.prototype).bounds);
    EXPECT_GE(box.min.y, rackBox.min.y);
    EXPECT_LE(box.max.y, rackBox.max.y);
  }
  EXPECT_EQ(compute, 18);
  EXPECT_EQ(switches, 9);
}

TEST(Dimensions, HallHoldsRequestedRackCount) {
  for (int racks : {1, 8, 20, 128}) {
    Built b;
    auto ctx = b.ctx();
    const world::PrototypeId hall = world::buildHall(ctx, world::HallDesc{.rackCount = racks});
    int counted = 0;
    for (const auto& row : b.scene.prototype(hall).children) {
      for (const auto& child : b.scene.prototype(row.prototype).children) {
        counted += child.name.rfind("rack", 0) == 0;
      }
    }
    EXPECT_EQ(counted, racks);
  }
}

}  // namespace
