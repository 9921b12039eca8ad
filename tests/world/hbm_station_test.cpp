// The hbm station's cut-open stack (visual brief "hbm"): a stand-in drawing, heights x4, one
// quadrant cut away, drawn in the station's studio alone; everywhere else the world keeps the
// true-scale stack (scene.h, StandIn). Expected sizes come from the catalog and the brief's
// exaggeration (x4), computed here.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "tests/world/world_test_fixture.h"
#include "world/builders/builders.h"

namespace {

using worldtest::station;
using worldtest::studioOf;

// The brief's "exaggerate Z about x4".
constexpr double HEIGHT_SCALE = 4.0;

// What a ray straight down at (x, z) from `fromY` first meets, of what `filter`'s studio draws.
world::PickHit hitAt(double x, double z, const world::StudioFilter* filter, double fromY = 1e3) {
  return worldtest::hitBelow(glm::dvec3(x, fromY, z), filter);
}
double heightAt(double x, double z, const world::StudioFilter* filter, double fromY = 1e3) {
  return fromY - hitAt(x, z, filter, fromY).distance_m;
}

double m(const char* key) {
  return worldtest::dims().meters(std::string("hbm3e_stack.") + key);
}

}  // namespace

TEST(HbmStation, TheCutawayHasEveryCatalogDramDieOnAThickerBaseDie) {
  const world::Scene& scene = worldtest::defaultWorld().scene();
  const auto hero = scene.resolve(station("hbm").path);
  ASSERT_TRUE(hero.has_value());
  std::set<std::string> dram;
  double baseTop = -1, dramThickness = 0;
  for (const world::Part& part : scene.prototype(hero->second).parts) {
    if (part.name.rfind("DRAM die", 0) == 0) {
      dram.insert(part.name);
      dramThickness = part.bounds.size().y;
    }
    if (part.name == "base logic die") {
      EXPECT_NEAR(part.bounds.min.y, 0.0, 1e-12);  // at the foot of the stack
      baseTop = part.bounds.max.y;
    }
  }
  EXPECT_EQ(dram.size(), size_t(worldtest::dims().count("hbm3e_stack.dram_die_count")));
  EXPECT_NEAR(baseTop, HEIGHT_SCALE * m("base_die_thickness"), 1e-9);
  EXPECT_GT(baseTop, dramThickness);  // the base die is told apart by its thickness too
}

TEST(HbmStation, HeightsAreFourTimesTheCatalogsThereAndTrueInThePackage) {
  const world::World& w = worldtest::defaultWorld();
  const world::Station& hbm = station("hbm");
  const world::Station& package = station("package");
  EXPECT_NEAR(hbm.bounds.size().y, HEIGHT_SCALE * m("height"), 1e-9);
  EXPECT_NEAR(hbm.bounds.size().x, m("width"), 1e-9);  // the footprint is not scaled
  const auto trueStack = w.scene().worldBounds(package.path + "/hbm0");
  ASSERT_TRUE(trueStack.has_value());
  EXPECT_NEAR(trueStack->size().y, m("height"), 1e-9);
  EXPECT_NEAR(trueStack->min.y, hbm.bounds.min.y, 1e-9);  // on the same interposer
  // The package's own bounds are what is there: the stand-ins do not raise them.
  const auto packageBox = w.scene().worldBounds(package.path);
  ASSERT_TRUE(packageBox.has_value());
  EXPECT_LT(packageBox->max.y, hbm.bounds.max.y - m("height"));
}

TEST(HbmStation, TheStandInIsDrawnInItsStudioAloneInTheTrueStacksPlace) {
  const world::Station& hbm = station("hbm");
  const world::Station& package = station("package");
  const world::StudioFilter hbmStudio = studioOf(hbm), packageStudio = studioOf(package);
  const world::StudioFilter trayStudio = studioOf(station("tray"));
  ASSERT_FALSE(hbmStudio.standIns.empty());
  const auto placed = worldtest::defaultWorld().scene().resolve(hbm.path);
  ASSERT_TRUE(placed.has_value());
  const double foot = hbm.bounds.min.y;
  // The package station's own drawing, its cold plate lifted over the stacks, is met first from
  // above: its rays start under the plate.
  const double underPlate = foot + 0.5 * world::COLD_PLATE_LIFT_M;
  // A quarter's centre in world metres: (sx, sz) = (+1, +1) is the stack's own front right.
  auto quarter = [&](double sx, double sz) {
    return glm::dvec3(placed->first *
                      glm::dvec4(0.25 * sx * m("width"), 0.0, 0.25 * sz * m("depth"), 1.0));
  };
  // The back left quarter stands: x4 tall at the station, true height at the package.
  const glm::dvec3 back = quarter(-1, -1);
  EXPECT_NEAR(heightAt(back.x, back.z, &hbmStudio) - foot, HEIGHT_SCALE * m("height"), 1e-7);
  EXPECT_NEAR(heightAt(back.x, back.z, &packageStudio, underPlate) - foot, m("height"), 1e-7);
  EXPECT_EQ(hitAt(back.x, back.z, &packageStudio, underPlate).path, package.path + "/hbm0");
  // At the tray the cold plate over the package is met first, and no stand-in is drawn under it.
  EXPECT_EQ(hitAt(back.x, back.z, &trayStudio).path.find("cutaway"), std::string::npos);
  // The front right quarter is cut away: a ray there meets the interposer under the stack.
  const glm::dvec3 cut = quarter(1, 1);
  EXPECT_LE(heightAt(cut.x, cut.z, &hbmStudio), foot + 1e-9);
  EXPECT_NEAR(heightAt(cut.x, cut.z, &packageStudio, underPlate) - foot, m("height"), 1e-7);
}

TEST(HbmStation, TheQuadrantCutLeavesThreeQuartersOfEveryDie) {
  const world::Scene& scene = worldtest::defaultWorld().scene();
  const auto hero = scene.resolve(station("hbm").path);
  ASSERT_TRUE(hero.has_value());
  const int n = worldtest::dims().count("hbm3e_stack.dram_die_count");
  // Each DRAM die's drawn thickness: the stack less its base die and bond layers, shared out.
  const double dram =
      HEIGHT_SCALE * (m("height") - m("base_die_thickness") - n * m("bond_gap")) / n;
  const double whole = m("width") * m("depth") * dram;
  std::map<std::string, double> volume;
  for (const world::Part& part : scene.prototype(hero->second).parts) {
    const glm::dvec3 s = part.bounds.size();
    if (part.name.rfind("DRAM die", 0) == 0) volume[part.name] += s.x * s.y * s.z;
  }
  ASSERT_EQ(volume.size(), size_t(n));
  for (const auto& [name, v] : volume) EXPECT_NEAR(v / whole, 0.75, 1e-9) << name;
}

TEST(HbmStation, EveryBondLayerCarriesMicrobumpsAndTsvsShowInTheCutFaces) {
  const world::Scene& scene = worldtest::defaultWorld().scene();
  const auto hero = scene.resolve(station("hbm").path);
  ASSERT_TRUE(hero.has_value());
  const world::Prototype& stack = scene.prototype(hero->second);
  std::vector<world::Aabb> bonds, bumps, tsvs;
  for (const world::Part& part : stack.parts) {
    if (part.name.rfind("bond layer", 0) == 0) bonds.push_back(part.bounds);
  }
  for (const world::ChildInstance& child : stack.children) {
    for (const world::Part& part : scene.prototype(child.prototype).parts) {
      const world::Aabb box = world::transformAabb(child.local, part.bounds);
      if (part.name.rfind("microbump", 0) == 0) bumps.push_back(box);
      if (part.name.rfind("TSV", 0) == 0) tsvs.push_back(box);
    }
  }
  std::set<std::string> bondNames;
  for (const world::Part& part : stack.parts) {
    if (part.name.rfind("bond layer", 0) == 0) bondNames.insert(part.name);
  }
  const int n = worldtest::dims().count("hbm3e_stack.dram_die_count");
  EXPECT_EQ(bondNames.size(), size_t(n));  // one under each DRAM die
  for (const world::Aabb& bond : bonds) {
    int carried = 0;
    for (const world::Aabb& bump : bumps) {
      carried += bump.min.y >= bond.min.y - 1e-12 && bump.max.y <= bond.max.y + 1e-12;
    }
    EXPECT_GT(carried, 0);
  }
  // A representative row on the cut faces, not millions: at most one per drawn pitch there.
  const double cutFaces_m = 0.5 * (m("width") + m("depth"));
  EXPECT_LE(double(bumps.size()), n * cutFaces_m / (HEIGHT_SCALE * m("microbump_pitch")));
  ASSERT_FALSE(tsvs.empty());
  for (const world::Aabb& t : tsvs) {
    // Each straddles a cut plane (x = 0 or z = 0 in the stack's frame), so the saw shows it.
    EXPECT_TRUE((t.min.x < 0 && t.max.x > 0) || (t.min.z < 0 && t.max.z > 0));
    EXPECT_NEAR(t.min.y, 0.0, 1e-12);  // from the base die's foot up
  }
}

TEST(HbmStation, ItsCalloutsNameWhatTheCutShowsInItsFramesAlone) {
  world::World& w = worldtest::defaultWorld();
  const std::string dram =
      std::to_string(worldtest::dims().count("hbm3e_stack.dram_die_count")) + " × DRAM";
  auto labelsAt = [&](const char* name) {
    const world::Camera camera = worldtest::cameraAt(station(name));
    world::FrameDesc frame;
    frame.studio = name;
    world::RenderList list;
    w.buildRenderList(camera, frame, list);
    std::set<std::string> texts;
    for (const world::Label& label : list.labels) texts.insert(label.text);
    return texts;
  };
  const std::set<std::string> hbm = labelsAt("hbm");
  for (const std::string& text :
       {dram, std::string("base die"), std::string("TSVs"), std::string("height ×4")}) {
    EXPECT_EQ(hbm.count(text), 1u) << text;
  }
  EXPECT_EQ(labelsAt("package").count("height ×4"), 0u);
}

TEST(HbmStation, ItsFrameKeepsToTheTriangleBudgetWithNothingHeldBack) {
  world::World& w = worldtest::defaultWorld();
  const world::Camera camera = worldtest::cameraAt(station("hbm"));
  world::FrameDesc frame;
  frame.studio = "hbm";
  world::RenderList list;
  const world::FrameStats stats = w.buildRenderList(camera, frame, list);
  std::printf("hbm station: %llu triangles, %u held back\n", (unsigned long long)stats.triangles,
              stats.heldBack);
  EXPECT_LE(stats.triangles, 150000u);  // issue 17's budget for any frame
  EXPECT_EQ(stats.heldBack, 0u);        // no built-in part drawn as a proxy box for the budget
}

// Far off, a child drawn as its proxy box fills its bounds: no child of the drawing may span the
// cut quadrant, or a small still shows the stack whole again, the cut filled with a tan block.
TEST(HbmStation, NoChildsBoxFillsTheCutQuadrant) {
  const world::Scene& scene = worldtest::defaultWorld().scene();
  const auto hero = scene.resolve(station("hbm").path);
  ASSERT_TRUE(hero.has_value());
  const world::Prototype& stack = scene.prototype(hero->second);
  ASSERT_FALSE(stack.children.empty());
  // The cut quadrant's middle, in the stack's frame: +X +Z, half way up the x4 stack.
  const glm::dvec3 cut(0.25 * m("width"), 0.5 * HEIGHT_SCALE * m("height"), 0.25 * m("depth"));
  for (const world::ChildInstance& child : stack.children) {
    const world::Aabb box =
        world::transformAabb(child.local, scene.prototype(child.prototype).bounds);
    EXPECT_FALSE(glm::all(glm::greaterThanEqual(cut, box.min)) &&
                 glm::all(glm::lessThanEqual(cut, box.max)))
        << child.name;
  }
}
