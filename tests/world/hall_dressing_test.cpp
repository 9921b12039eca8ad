// The data hall's overhead (visual brief "hall", change 12): every row has a grey busway beside
// its raceway with a tap-off and power drop to every cabinet, and a raceway waterfall with its
// fibre drop to every cabinet with scale-out ports, sized from the catalog and clear of the
// row's own tray and pipes.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/catalog.h"
#include "tests/common/shipped_catalog.h"
#include "tests/world/world_test_fixture.h"
#include "world/builders/builders.h"

namespace {

const sim::Catalog& catalog() {
  return testcatalog::shipped();
}

double figure(const std::string& path) {
  const sim::Quantity* q = catalog().find(path);
  EXPECT_NE(q, nullptr) << path;
  return q ? q->value : 0.0;
}

// A catalog length in metres; the dressing's figures are all quoted in mm.
double mm(const std::string& path) {
  const sim::Quantity* q = catalog().find(path);
  EXPECT_TRUE(q && q->unit == "mm") << path;
  return figure(path) * 1e-3;
}

struct Placed {
  std::string name;
  world::Aabb box;  // hall frame
};

// The parts of the hall's child `path`, their boxes in the hall's frame.
std::vector<Placed> partsOf(const world::Scene& scene, const std::string& path) {
  std::vector<Placed> out;
  const auto at = scene.resolve(path);
  EXPECT_TRUE(at.has_value()) << path;
  if (!at) return out;
  for (const world::Part& part : scene.prototype(at->second).parts)
    out.push_back({part.name, world::transformAabb(at->first, part.bounds)});
  return out;
}

const Placed* named(const std::vector<Placed>& parts, const std::string& name) {
  for (const Placed& p : parts)
    if (p.name == name) return &p;
  return nullptr;
}

bool overlaps(const world::Aabb& a, const world::Aabb& b) {
  for (int i = 0; i < 3; ++i)
    if (a.max[i] <= b.min[i] || b.max[i] <= a.min[i]) return false;
  return true;
}

// Whether x lies over the box in plan.
bool overInPlan(const world::Aabb& outer, const world::Aabb& inner) {
  const glm::dvec3 c = inner.center();
  return c.x > outer.min.x && c.x < outer.max.x && c.z > outer.min.z && c.z < outer.max.z;
}

constexpr double TOL_M = 1e-6;

struct Cabinet {
  std::string name;
  world::Aabb box;  // hall frame
};

// Row `path`'s cabinets on the floor (CDUs, compute racks, leaf racks), by their frame's side
// panels where they have them (not the fibres hanging out of a rack's front), else their bounds.
std::vector<Cabinet> cabinetsOf(const world::Scene& scene, const std::string& path) {
  std::vector<Cabinet> out;
  const auto row = scene.resolve(path);
  EXPECT_TRUE(row.has_value()) << path;
  if (!row) return out;
  for (const world::ChildInstance& child : scene.prototype(row->second).children) {
    const world::Prototype& cabinet = scene.prototype(child.prototype);
    world::Aabb frame;
    for (const world::Part& part : cabinet.parts)
      if (part.name == "side panel") frame.extend(part.bounds);
    const world::Aabb box =
        world::transformAabb(row->first * child.local, frame.empty() ? cabinet.bounds : frame);
    if (std::abs(box.min.y) < 0.01) out.push_back({child.name, box});
  }
  return out;
}

// A cabinet's roof height from the catalog, by its kind (its prototype's bounds reach higher:
// a CDU's pipe risers, a leaf rack's fibre riser).
double roofOf(const std::string& cabinet) {
  if (cabinet.rfind("cdu", 0) == 0) return mm("dimensions.cdu.height");
  if (cabinet.rfind("leaf_rack", 0) == 0) return mm("dimensions.network_rack.height");
  return mm("dimensions.nvl72_rack.height");
}

}  // namespace

// Every row: one busway of the catalog's section along the whole row, over the cabinets, and a
// tap-off box (catalog size) under it over each cabinet with a power drop from the box to the
// cabinet's top.
TEST(HallDressing, EveryRowHasABuswayWithATapOffPerCabinet) {
  const world::Scene& scene = worldtest::defaultWorld().scene();
  const auto hall = scene.resolve("hall0");
  ASSERT_TRUE(hall.has_value());
  const double busW = mm("dimensions.busway.width"), busH = mm("dimensions.busway.height");
  const glm::dvec3 tap(mm("dimensions.busway.tap_off_width"),
                       mm("dimensions.busway.tap_off_height"),
                       mm("dimensions.busway.tap_off_depth"));
  int rows = 0;
  for (const world::ChildInstance& child : scene.prototype(hall->second).children) {
    const std::string& name = child.name;
    if (name.rfind("row", 0) != 0 || name.find('_') != std::string::npos) continue;
    ++rows;
    const std::string row = "hall0/" + name;
    const std::vector<Cabinet> cabinets = cabinetsOf(scene, row);
    // A row of the default NVL72 hall: its racks, a CDU and a leaf rack at least.
    ASSERT_GE(cabinets.size(), size_t(figure("dimensions.row.racks_per_su")) + 2) << row;
    const std::vector<Placed> drops = partsOf(scene, row + "_drops");
    const Placed* bus = named(drops, "busway");
    ASSERT_NE(bus, nullptr) << row;
    const world::Aabb rowBox = *scene.worldBounds(row);
    // The rows run along X: the busway's section is the catalog's, its length the row's.
    EXPECT_NEAR(bus->box.size().y, busH, TOL_M) << row;
    EXPECT_NEAR(bus->box.size().z, busW, TOL_M) << row;
    EXPECT_NEAR(bus->box.size().x, rowBox.size().x, TOL_M) << row;
    for (const Cabinet& cab : cabinets) {
      const Placed* box = named(drops, "tap-off " + cab.name);
      const Placed* cord = named(drops, "power drop " + cab.name);
      ASSERT_NE(box, nullptr) << row << "/" << cab.name;
      ASSERT_NE(cord, nullptr) << row << "/" << cab.name;
      const glm::dvec3 size = box->box.size();
      EXPECT_NEAR(std::max(size.x, size.z), tap.x, TOL_M);  // along the busway
      EXPECT_NEAR(size.y, tap.y, TOL_M);
      EXPECT_NEAR(std::min(size.x, size.z), tap.z, TOL_M);
      // Hung under the busway, over its cabinet, the cord from the box down to the cabinet top.
      EXPECT_NEAR(box->box.max.y, bus->box.min.y, TOL_M) << cab.name;
      EXPECT_TRUE(overInPlan(cab.box, box->box)) << row << "/" << cab.name;
      EXPECT_TRUE(overInPlan(bus->box, box->box)) << row << "/" << cab.name;
      EXPECT_NEAR(cord->box.max.y, box->box.min.y, TOL_M) << cab.name;
      EXPECT_NEAR(cord->box.min.y, roofOf(cab.name), TOL_M) << cab.name;
      EXPECT_TRUE(overInPlan(cab.box, cord->box)) << row << "/" << cab.name;
    }
  }
  EXPECT_GE(rows, 2);
}

// Every compute rack (its scale-out NICs' cables) gets a waterfall off the raceway and a fibre
// drop (the catalog's bundle) from it to the rack top; the CDUs have no fibre and the leaf racks
// their own riser bundle, so neither gets one.
TEST(HallDressing, RacewayWaterfallsDropToEveryComputeRack) {
  const world::Scene& scene = worldtest::defaultWorld().scene();
  const double bundle = mm("dimensions.raceway.drop_diameter");
  for (const char* row : {"hall0/row0", "hall0/row1"}) {
    const std::vector<Placed> rowParts = partsOf(scene, row);
    const Placed* tray = named(rowParts, "overhead cable tray");
    ASSERT_NE(tray, nullptr) << row;
    const std::vector<Placed> drops = partsOf(scene, std::string(row) + "_drops");
    // Everything that drops hangs under the raceway (the busway runs beside it), from it down to
    // the cabinets.
    for (const Placed& part : drops) {
      if (part.name == "busway") continue;
      EXPECT_LE(part.box.max.y, tray->box.min.y + TOL_M) << part.name;
    }
    int racks = 0;
    for (const Cabinet& cab : cabinetsOf(scene, row)) {
      const Placed* fall = named(drops, "waterfall " + cab.name);
      const Placed* fibre = named(drops, "fibre drop " + cab.name);
      if (cab.name.rfind("cdu", 0) == 0 || cab.name.rfind("leaf_rack", 0) == 0) {
        EXPECT_EQ(fall, nullptr) << cab.name;
        EXPECT_EQ(fibre, nullptr) << cab.name;
        continue;
      }
      ++racks;
      ASSERT_NE(fall, nullptr) << row << "/" << cab.name;
      ASSERT_NE(fibre, nullptr) << row << "/" << cab.name;
      // The waterfall hangs off the raceway (touching it, under it) over the rack.
      EXPECT_LE(fall->box.max.y, tray->box.min.y + TOL_M) << cab.name;
      EXPECT_GT(fall->box.max.y, tray->box.min.y - 0.05) << cab.name;
      EXPECT_TRUE(overInPlan(tray->box, fall->box)) << cab.name;
      EXPECT_TRUE(overInPlan(cab.box, fall->box)) << cab.name;
      // The bundle from the waterfall to the rack top, at the catalog's diameter.
      EXPECT_NEAR(fibre->box.min.y, roofOf(cab.name), TOL_M) << cab.name;
      EXPECT_GT(fibre->box.max.y, fall->box.min.y - TOL_M) << cab.name;
      EXPECT_NEAR(std::max(fibre->box.size().x, fibre->box.size().z), bundle, 1e-3) << cab.name;
      EXPECT_TRUE(overInPlan(cab.box, fibre->box)) << cab.name;
    }
    EXPECT_EQ(racks, int(figure("dimensions.row.racks_per_su"))) << row;
  }
}

// The busway runs level with the raceway and clear of the row's own overhead (raceway, coolant
// pipes) and above the cabinets, so nothing passes through anything.
TEST(HallDressing, BuswayClearsTheRowsTrayPipesAndCabinets) {
  const world::Scene& scene = worldtest::defaultWorld().scene();
  for (const char* row : {"hall0/row0", "hall0/row1"}) {
    const std::vector<Placed> drops = partsOf(scene, std::string(row) + "_drops");
    const Placed* bus = named(drops, "busway");
    ASSERT_NE(bus, nullptr);
    // Level with the raceway, beside it: both lanes in sight from above.
    const std::vector<Placed> overhead = partsOf(scene, row);  // `tray` points into it
    const Placed* tray = named(overhead, "overhead cable tray");
    ASSERT_NE(tray, nullptr);
    EXPECT_NEAR(bus->box.center().y, tray->box.center().y, TOL_M) << row;
    for (const Placed& part : overhead)
      EXPECT_FALSE(overlaps(bus->box, part.box)) << row << ": busway through " << part.name;
    for (const Cabinet& cab : cabinetsOf(scene, row))
      EXPECT_GT(bus->box.min.y, roofOf(cab.name)) << row << ": busway in " << cab.name;
  }
}

// The busway's rating carries a full row: racks_per_su racks at their rated power, and the
// rating is what its stated 1600 A at 415 V three-phase carry.
TEST(HallDressing, BuswayRatingCarriesAFullRowAtRatedPower) {
  const double rating_W = figure("dimensions.busway.rating_W");
  EXPECT_NEAR(rating_W, std::sqrt(3.0) * 415.0 * 1600.0, 0.001 * rating_W);
  const double row_W =
      figure("dimensions.row.racks_per_su") * figure("systems.gb200_nvl72.max_power_W");
  EXPECT_GT(row_W, 0.0);
  EXPECT_LE(row_W, rating_W);
}

// Every hot aisle (the backs of rows 2k and 2k + 1 face each other across it) is contained: its
// roof spans from one row's backs to the other's at the racks' height, over the rows' whole
// length, and doors close both ends.
TEST(HallDressing, EveryHotAisleIsContainedFromRowToRow) {
  const world::Scene& scene = worldtest::defaultWorld().scene();
  const double rackH = mm("dimensions.nvl72_rack.height");
  const double hot = figure("dimensions.row.hot_aisle");  // m
  int aisles = 0;
  for (int k = 0; scene.resolve("hall0/row" + std::to_string(2 * k + 1)); ++k) {
    const std::string aisle = "hall0/hot_aisle" + std::to_string(k);
    const auto a = scene.worldBounds("hall0/row" + std::to_string(2 * k));
    const auto b = scene.worldBounds("hall0/row" + std::to_string(2 * k + 1));
    const auto c = scene.worldBounds(aisle);
    ASSERT_TRUE(a && b && c) << aisle;
    ++aisles;
    // The rows' cabinets: their footprints (the racks' depth about their row's centre line).
    const std::vector<Cabinet> rowA = cabinetsOf(scene, "hall0/row" + std::to_string(2 * k));
    const std::vector<Cabinet> rowB = cabinetsOf(scene, "hall0/row" + std::to_string(2 * k + 1));
    ASSERT_FALSE(rowA.empty() || rowB.empty());
    double backA = -1e9, backB = 1e9, minX = 1e9, maxX = -1e9;
    for (const Cabinet& cab : rowA) {
      backA = std::max(backA, cab.box.min.z + mm("dimensions.nvl72_rack.depth"));
      minX = std::min(minX, cab.box.min.x), maxX = std::max(maxX, cab.box.max.x);
    }
    for (const Cabinet& cab : rowB) {
      backB = std::min(backB, cab.box.max.z - mm("dimensions.nvl72_rack.depth"));
      minX = std::min(minX, cab.box.min.x), maxX = std::max(maxX, cab.box.max.x);
    }
    EXPECT_NEAR(backB - backA, hot, 0.01) << aisle;  // the catalog's hot aisle between the backs
    const std::vector<Placed> parts = partsOf(scene, aisle);
    int roof = 0, doors = 0;
    double roofMinX = 1e9, roofMaxX = -1e9;
    for (const Placed& p : parts) {
      if (p.name == "containment roof") {
        ++roof;
        EXPECT_NEAR(p.box.min.z, backA, 0.01) << aisle;
        EXPECT_NEAR(p.box.max.z, backB, 0.01) << aisle;
        EXPECT_NEAR(p.box.min.y, rackH, 0.05) << aisle;
        roofMinX = std::min(roofMinX, p.box.min.x), roofMaxX = std::max(roofMaxX, p.box.max.x);
      }
      if (p.name == "containment door") {
        ++doors;
        EXPECT_NEAR(p.box.size().y, rackH, 0.01) << aisle;
      }
    }
    EXPECT_GT(roof, 0) << aisle;
    EXPECT_LE(roofMinX, minX + 0.01) << aisle;
    EXPECT_GE(roofMaxX, maxX - 0.01) << aisle;
    EXPECT_GE(doors, 2) << aisle;  // both ends
  }
  EXPECT_GE(aisles, 1);
}
