// What makes a campus read (visual brief "campus"): every hall has a generator yard sized to its
// load, and the substation and its line stand on the site, apart from the halls and yards, in
// the campus station's picture.
#include <algorithm>
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "sim/catalog.h"
#include "tests/common/shipped_catalog.h"
#include "tests/world/world_test_fixture.h"
#include "world/builders/builders.h"

namespace {

double figure(const sim::Catalog& catalog, const std::string& path) {
  const sim::Quantity* q = catalog.find(path);
  EXPECT_NE(q, nullptr) << path;
  return q ? q->value : 0.0;
}

// The children of `prototype` whose names start with `prefix`.
int childrenNamed(const world::Scene& scene, world::PrototypeId prototype, const char* prefix) {
  int n = 0;
  for (const auto& child : scene.prototype(prototype).children)
    n += child.name.rfind(prefix, 0) == 0;
  return n;
}

// Whether two boxes overlap in plan (X and Z).
bool overlapInPlan(const world::Aabb& a, const world::Aabb& b) {
  return a.min.x < b.max.x && b.min.x < a.max.x && a.min.z < b.max.z && b.min.z < a.max.z;
}

}  // namespace

// Standby generation per hall: its racks at their rated power over one genset's standby rating,
// rounded up, plus the redundant units (N+1), worked out here from the catalog's vendor figures.
TEST(CampusSite, EveryHallsGeneratorYardCoversItsRacksAtFullPower) {
  const sim::Catalog* catalog = &testcatalog::shipped();
  const double rack_W = figure(*catalog, "systems.gb200_nvl72.max_power_W");
  const double rating_W = figure(*catalog, "dimensions.generator.standby_rating_W");
  const double redundant = figure(*catalog, "dimensions.generator.redundant");
  const double fullHall_W = figure(*catalog, "dimensions.hall.provisioned_power_W");
  ASSERT_GT(rating_W, 0.0);
  // The provisioned figure is what 128 of those racks draw (its stated derivation).
  EXPECT_NEAR(fullHall_W, 128 * rack_W, 1.0);

  // A campus of 2.5 halls: two full ones and a half-filled last one.
  world::WorldDesc desc;
  desc.campus.totalRacks = 128 * 2 + 64;
  auto w = world::World::create(worldtest::dims(), desc);
  ASSERT_TRUE(w.ok()) << w.error();
  const world::Scene& scene = (*w)->scene();
  int halls = 0;
  for (const auto& child : scene.prototype(scene.root()).children) {
    if (child.name.rfind("hall", 0) != 0) continue;
    const int i = std::stoi(child.name.substr(4));
    int racks = 0;
    for (const auto& row : scene.prototype(child.prototype).children)
      racks += childrenNamed(scene, row.prototype, "rack");
    const auto yard = scene.resolve(world::campusGensetYardName(i));
    ASSERT_TRUE(yard) << "hall " << i << " has no generator yard";
    const int expected = int(std::ceil(racks * rack_W / rating_W)) + int(redundant);
    EXPECT_EQ(childrenNamed(scene, yard->second, "genset"), expected) << "hall " << i;
    ++halls;
  }
  EXPECT_EQ(halls, 3);
}

TEST(CampusSite, SubstationAndLineStandApartFromTheHallsAndYards) {
  world::World& w = worldtest::defaultWorld();
  const world::Scene& scene = w.scene();
  const auto substation = scene.resolve(world::CAMPUS_SUBSTATION);
  const auto line = scene.resolve(world::CAMPUS_LINE);
  ASSERT_TRUE(substation && line);
  EXPECT_EQ(childrenNamed(scene, substation->second, "transformer"),
            worldtest::dims().count("substation.transformers"));
  int legs = 0, conductors = 0, breakers = 0;
  for (const auto& part : scene.prototype(line->second).parts) {
    legs += part.name == "tower leg";
    conductors += part.name == "conductor";
  }
  for (const auto& part : scene.prototype(substation->second).parts)
    breakers += part.name == "circuit breaker";
  EXPECT_GE(legs, 4 * 2);    // two towers at least, four legs each
  EXPECT_GE(conductors, 3);  // three phases
  EXPECT_GE(breakers, 3);    // a breaker per phase of a bay at least
  const world::Aabb sub = *scene.worldBounds(world::CAMPUS_SUBSTATION);
  const world::Aabb lineBox = *scene.worldBounds(world::CAMPUS_LINE);
  int checked = 0;
  for (const auto& child : scene.prototype(scene.root()).children) {
    const std::string& name = child.name;
    const bool site = name.rfind("hall", 0) == 0 || name.rfind("cooling", 0) == 0 ||
                      name.rfind("building", 0) == 0 || name.rfind("gensets", 0) == 0;
    if (!site) continue;
    const world::Aabb box = *scene.worldBounds(name);
    EXPECT_FALSE(overlapInPlan(sub, box)) << "the substation stands on " << name;
    EXPECT_FALSE(overlapInPlan(lineBox, box)) << "the line crosses " << name;
    ++checked;
  }
  EXPECT_GE(checked, 4);
  // The campus station's picture is built round them: the substation is in what it frames.
  const world::Station* campus = w.station("campus");
  ASSERT_NE(campus, nullptr);
  EXPECT_TRUE(glm::all(glm::greaterThanEqual(sub.min, campus->bounds.min)) &&
              glm::all(glm::lessThanEqual(sub.max, campus->bounds.max)));
  const world::Aabb hall0 = *scene.worldBounds("hall0");
  EXPECT_TRUE(glm::all(glm::greaterThanEqual(hall0.min, campus->bounds.min)) &&
              glm::all(glm::lessThanEqual(hall0.max, campus->bounds.max)));
  // ... and not every hall: the others recede behind it.
  if (const auto far = scene.worldBounds("hall3")) {
    EXPECT_FALSE(overlapInPlan(*far, campus->bounds));
  }
}
