// The TPU v5e station's package (world/builders/builders_gallery.cpp): the die beside its HBM2e
// stacks on the interposer, and each MXU drawn as a 16 x 16 grid of cells.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "tests/world/world_test_fixture.h"

namespace {

// Google's TPU v5e page (https://cloud.google.com/tpu/docs/v5e): 16 GB of HBM at 819 GB/s a chip.
constexpr double HBM_BANDWIDTH_BPS = 819e9;
// One HBM2e stack (JEDEC JESD235): a 1024-bit bus at 3.2 Gb/s a pin.
constexpr double STACK_BANDWIDTH_BPS = 1024 * 3.2e9 / 8;
// JEDEC JESD235 HBM2/HBM2e known-good stack footprint (mm).
constexpr double STACK_SHORT_MM = 7.75, STACK_LONG_MM = 11.87;
// Reference A.7: a 128 x 128 systolic array; the drawing groups 8 x 8 of them in a cell.
constexpr int ARRAY_DIM = 128, PES_PER_CELL = 8;

// The bounds (package frame) of the package's part named `name`: a unit box scaled by its local.
world::Aabb partBounds(const world::Prototype& p, const std::string& name) {
  world::Aabb unit;
  unit.extend(glm::dvec3(-0.5));
  unit.extend(glm::dvec3(0.5));
  for (const world::Part& part : p.parts) {
    if (part.name == name) return world::transformAabb(part.local, unit);
  }
  return {};
}

TEST(TpuPackage, HbmStacksFromTheBandwidthSitBesideTheDie) {
  const world::World& w = worldtest::defaultWorld();
  const world::Station* tpu = w.station("tpu");
  ASSERT_NE(tpu, nullptr);
  const int expected = static_cast<int>(std::lround(HBM_BANDWIDTH_BPS / STACK_BANDWIDTH_BPS));
  EXPECT_EQ(expected, 2);
  EXPECT_EQ(worldtest::dims().count("tpu_v5e.hbm_stacks"), expected);

  const auto package = w.scene().resolve(tpu->path);
  ASSERT_TRUE(package);
  const world::Prototype& p = w.scene().prototype(package->second);
  const world::Aabb die = partBounds(p, "TPU die");
  ASSERT_FALSE(die.empty());
  int stacks = 0;
  for (const world::ChildInstance& child : p.children) {
    if (child.name.rfind("hbm", 0) != 0) continue;
    ++stacks;
    const world::Aabb s =
        world::transformAabb(child.local, w.scene().prototype(child.prototype).bounds);
    // Beside the die along x, level with it along z, on the same interposer as the die.
    EXPECT_TRUE(s.min.x >= die.max.x || s.max.x <= die.min.x) << child.name;
    EXPECT_LT(s.min.z, die.max.z);
    EXPECT_GT(s.max.z, die.min.z);
    EXPECT_NEAR(s.min.y, die.min.y, 1e-9) << child.name;
    EXPECT_NEAR(s.size().x * 1e3, STACK_SHORT_MM, 0.01);
    EXPECT_NEAR(s.size().z * 1e3, STACK_LONG_MM, 0.01);
  }
  EXPECT_EQ(stacks, expected);
}

TEST(TpuPackage, EachMxuIsSixteenBySixteenCellsThatOpenWhenLarge) {
  const world::World& w = worldtest::defaultWorld();
  const world::Station* tpu = w.station("tpu");
  ASSERT_NE(tpu, nullptr);
  ASSERT_EQ(worldtest::dims().count("tpu_v5e.mxu_dim"), ARRAY_DIM);
  const int cellsPerEdge = ARRAY_DIM / PES_PER_CELL;
  int mxus = 0;
  for (int i = 0;; ++i) {
    const auto mxu = w.scene().resolve(tpu->path + "/mxu" + std::to_string(i));
    if (!mxu) break;
    ++mxus;
    const world::Prototype& p = w.scene().prototype(mxu->second);
    int cells = 0;
    for (const world::Part& part : p.parts) {
      if (part.name.find("MAC cells") != std::string::npos) ++cells;
    }
    EXPECT_EQ(cells, cellsPerEdge * cellsPerEdge) << "mxu" << i;
    // A cheap LOD: closed it is one box; it opens once its cells have pixels to show in.
    EXPECT_TRUE(p.lod.hasProxy);
    EXPECT_GE(p.lod.openPixels, float(cellsPerEdge));
  }
  EXPECT_EQ(mxus, worldtest::dims().count("tpu_v5e.mxu_count"));
}

}  // namespace
