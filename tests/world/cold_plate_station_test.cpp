// The package station's exploded view (visual brief "package", defect 1): the hero B200's cold
// plate, a stand-in drawing lifted straight up off its dies with its fittings and coolant tubes,
// drawn in the package station's studio alone; the tray, the hbm station and every other walk
// draw no such drawing. Expected heights are the catalog's thicknesses and the layout's lift,
// summed here; expected footprints are the catalog's.
#include <string>

#include <gtest/gtest.h>

#include "tests/world/world_test_fixture.h"
#include "world/builders/builders.h"

namespace {

using worldtest::dims;
using worldtest::hitBelow;
using worldtest::station;
using worldtest::studioOf;

std::string platePath() {
  return station("package").path + "/" + world::COLD_PLATE_DRAWING;
}

bool startsWith(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

world::Aabb boundsOf(const std::string& path) {
  const auto box = worldtest::defaultWorld().scene().worldBounds(path);
  EXPECT_TRUE(box.has_value()) << path;
  return box.value_or(world::Aabb{});
}

bool sameColour(const world::Look& a, const world::Look& b) {
  return a.r == b.r && a.g == b.g && a.b == b.b;
}

}  // namespace

TEST(ColdPlateStation, ThePlateHangsLiftedOverTheDiesAtThePackageStationAlone) {
  const world::Station& package = station("package");
  EXPECT_TRUE(world::StudioFilter::names(package.standIns, world::COLD_PLATE_DRAWING));
  // The package shows its true-scale stacks, not the hbm station's drawing.
  EXPECT_FALSE(world::StudioFilter::names(package.standIns, world::HBM_CUTAWAY_DRAWING));
  const world::Aabb die = boundsOf(package.path + "/die0");
  const glm::dvec3 above(die.center().x, 1e3, die.center().z);
  // The dies' face (under their logic's relief) stands on the substrate and interposer; the
  // cover's top is the lift, the contact pad and the plate's thickness above it.
  const double dieTop =
      boundsOf(package.path).min.y + dims().meters("b200_package.substrate_thickness") +
      dims().meters("b200_package.interposer_thickness") + dims().meters("gb100.die_thickness");
  const double coverTop = dieTop + world::COLD_PLATE_LIFT_M +
                          dims().meters("b200_cold_plate.contact_pad_height") +
                          dims().meters("compute_tray.cold_plate_thickness");
  const world::StudioFilter packageStudio = studioOf(package);
  const world::PickHit plate = hitBelow(above, &packageStudio);
  EXPECT_EQ(plate.path, platePath());
  EXPECT_EQ(plate.part, "cold plate cover");
  EXPECT_NEAR(above.y - plate.distance_m, coverTop, 1e-7);
  // Under the plate, the die is met at its own top: the plate is lifted clear of the silicon.
  const glm::dvec3 under(above.x, die.max.y + 0.5 * world::COLD_PLATE_LIFT_M, above.z);
  const world::PickHit silicon = hitBelow(under, &packageStudio);
  EXPECT_TRUE(startsWith(silicon.path, package.path + "/die0")) << silicon.path;
  EXPECT_NEAR(under.y - silicon.distance_m, dieTop, 1e-4);  // within its logic's relief
  // Nowhere else: at the tray, at the hbm station (whose studio is the same package) and in a
  // walk with no studio, the same ray meets no drawing of the plate.
  for (const char* other : {"tray", "hbm"}) {
    const world::StudioFilter studio = studioOf(station(other));
    EXPECT_FALSE(startsWith(hitBelow(above, &studio).path, platePath())) << other;
  }
  const world::StudioFilter hbmStudio = studioOf(station("hbm"));
  EXPECT_TRUE(startsWith(hitBelow(above, &hbmStudio).path, package.path + "/die0"));
  EXPECT_FALSE(startsWith(hitBelow(above, nullptr).path, platePath()));
}

TEST(ColdPlateStation, TheStationFramesThePlateAndSeesTheDiesBetween) {
  const world::Station& package = station("package");
  const world::Aabb plate = boundsOf(platePath());
  const world::Aabb own = boundsOf(package.path);
  // The stand-in is not the package's own: its bounds stay physical and end under the plate.
  EXPECT_LT(own.max.y, plate.min.y);
  // The view frames both.
  for (const world::Aabb& box : {plate, own}) {
    for (int axis = 0; axis < 3; ++axis) {
      EXPECT_LE(package.framedBounds.min[axis], box.min[axis] + 1e-9);
      EXPECT_GE(package.framedBounds.max[axis], box.max[axis] - 1e-9);
    }
  }
  // From the station's eye, a line of sight to each die's centre meets that die first, not the
  // plate over it: the plate is lifted far enough, and the view low enough, to see between.
  const glm::dvec3 eye = worldtest::cameraAt(package).position();
  const world::StudioFilter studio = studioOf(package);
  const world::Scene& scene = worldtest::defaultWorld().scene();
  for (const char* die : {"/die0", "/die1"}) {
    const world::Aabb box = boundsOf(package.path + die);
    const glm::dvec3 centre(box.center().x, box.max.y, box.center().z);
    const auto hit = scene.pick(eye, glm::normalize(centre - eye), &studio);
    ASSERT_TRUE(hit.has_value()) << die;
    EXPECT_TRUE(startsWith(hit->path, package.path + die)) << die << ": " << hit->path;
  }
  // And a line of sight to the middle of the plate's cover meets the plate.
  const auto placed = scene.resolve(platePath());
  ASSERT_TRUE(placed.has_value());
  world::Aabb cover;
  for (const world::Part& part : scene.prototype(placed->second).parts)
    if (part.name == "cold plate cover") cover = world::transformAabb(placed->first, part.bounds);
  ASSERT_FALSE(cover.empty());
  const auto hit = scene.pick(eye, glm::normalize(cover.center() - eye), &studio);
  ASSERT_TRUE(hit.has_value());
  EXPECT_TRUE(startsWith(hit->path, platePath())) << hit->path;
}

TEST(ColdPlateStation, ThePlateCoversTheSiliconAndCarriesItsSupplyAndReturn) {
  const world::Scene& scene = worldtest::defaultWorld().scene();
  const auto placed = scene.resolve(platePath());
  ASSERT_TRUE(placed.has_value());
  const world::Prototype& plate = scene.prototype(placed->second);
  const std::string package = station("package").path;
  const world::Aabb substrate = boundsOf(package);
  int supply = 0, ret = 0;
  world::Aabb pad, base;
  for (const world::Part& part : plate.parts) {
    if (part.name == "cold plate contact pad") pad = part.bounds;
    if (part.name == "cold plate copper base") base = part.bounds;
    if (part.name == "coolant supply tube") {
      ++supply;
      EXPECT_TRUE(sameColour(part.look, world::looks::COOLANT_SUPPLY));
    }
    if (part.name == "coolant return tube") {
      ++ret;
      EXPECT_TRUE(sameColour(part.look, world::looks::COOLANT_RETURN));
    }
  }
  EXPECT_GT(supply, 0);
  EXPECT_GT(ret, 0);
  // The copper base is the catalog's footprint, inside the substrate's.
  EXPECT_NEAR(base.size().x, dims().meters("b200_cold_plate.width"), 1e-9);
  EXPECT_NEAR(base.size().z, dims().meters("b200_cold_plate.depth"), 1e-9);
  EXPECT_LT(base.size().x, substrate.size().x);
  EXPECT_LT(base.size().z, substrate.size().z);
  // The contact pad covers both dies and all eight HBM stacks as seen from above (the plate is
  // lifted straight up: the same x and z as where it seats).
  ASSERT_FALSE(pad.empty());
  const world::Aabb padSeen = world::transformAabb(placed->first, pad);
  const int stacks = dims().count("b200_package.hbm_stacks");
  for (int i = 0; i < stacks + 2; ++i) {
    const std::string child = i < 2 ? "/die" + std::to_string(i) : "/hbm" + std::to_string(i - 2);
    const world::Aabb box = boundsOf(package + child);
    for (int axis = 0; axis < 3; axis += 2) {
      EXPECT_LE(padSeen.min[axis], box.min[axis] + 1e-9) << child;
      EXPECT_GE(padSeen.max[axis], box.max[axis] - 1e-9) << child;
    }
  }
  // The tube stubs run out past the plate's rear edge (its -Z), towards the tray's manifold.
  EXPECT_LT(plate.bounds.min.z, base.min.z - 0.01);
}
