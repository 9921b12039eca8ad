// A package's dressing (visual brief "gh100" and "package": a ring of caps, a stiffener): rows of
// 0402 decoupling capacitors along every interposer edge and a stiffener ring round the
// substrate, all below the silicon's top so the cold plate still seats on the dies. Expected
// counts come from the catalog's figures (edge length over the capacitor pitch, per row).
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "tests/world/world_test_fixture.h"

namespace {

using worldtest::defaultWorld;
using worldtest::dims;

void expectDressed(const std::string& package, const std::string& section) {
  const world::Scene& scene = defaultWorld().scene();
  const auto resolved = scene.resolve(package);
  ASSERT_TRUE(resolved) << package;
  const world::Prototype& p = scene.prototype(resolved->second);
  const auto packageBox = scene.worldBounds(package);
  const auto die = scene.worldBounds(package + "/die0");
  ASSERT_TRUE(packageBox && die);
  const double pitch = dims().meters("package_dressing.decap_pitch");
  const int rows = dims().count("package_dressing.decap_rows");
  ASSERT_GT(pitch, 0.0);
  const int alongX = int(std::floor(dims().meters(section + ".interposer_width") / pitch));
  const int alongZ = int(std::floor(dims().meters(section + ".interposer_depth") / pitch));

  int rings = 0;
  for (const world::Part& part : p.parts) rings += part.name == "stiffener ring";
  EXPECT_EQ(rings, 4) << "four bars round the substrate";
  int capsX = 0, capsZ = 0, rowCount = 0;
  for (const world::ChildInstance& child : p.children) {
    const bool x = child.name.rfind("decaps_x", 0) == 0, z = child.name.rfind("decaps_z", 0) == 0;
    if (!x && !z) continue;
    ++rowCount;
    int caps = 0;
    for (const world::Part& part : scene.prototype(child.prototype).parts)
      caps += part.name == "decoupling capacitor";
    (x ? capsX : capsZ) += caps;
    const auto row = scene.worldBounds(package + "/" + child.name);
    ASSERT_TRUE(row);
    // On the substrate, inside its footprint, below the dies' top.
    EXPECT_GE(row->min.x, packageBox->min.x);
    EXPECT_LE(row->max.x, packageBox->max.x);
    EXPECT_GE(row->min.z, packageBox->min.z);
    EXPECT_LE(row->max.z, packageBox->max.z);
    EXPECT_LT(row->max.y, die->max.y) << child.name;
  }
  EXPECT_EQ(rowCount, 4 * rows) << "every edge, every row";
  EXPECT_EQ(capsX, 2 * rows * alongX);
  EXPECT_EQ(capsZ, 2 * rows * alongZ);
  const double ringTop = packageBox->min.y + dims().meters(section + ".substrate_thickness") +
                         dims().meters("package_dressing.stiffener_height");
  EXPECT_LT(ringTop, die->max.y) << "the cold plate seats on the silicon, not the ring";
}

TEST(PackageDressing, TheB200PackageHasItsCapacitorRowsAndStiffener) {
  const world::Station* s = defaultWorld().station("package");
  ASSERT_NE(s, nullptr);
  expectDressed(s->path, "b200_package");
  // Where the hbm station's drawing (4x tall) stands in, the true-scale capacitors step aside.
  const world::Scene& scene = defaultWorld().scene();
  for (const world::ChildInstance& child : scene.prototype(scene.resolve(s->path)->second).children)
    if (child.name.rfind("decaps_", 0) == 0) {
      EXPECT_EQ(child.standIn, world::StandIn::Replaced) << child.name;
    }
}

}  // namespace
