// The one world: stations, render lists, triangle budgets, precision far from the origin,
// picking and the near plane.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "tests/world/world_test_fixture.h"

namespace {

using worldtest::cameraAt;
using worldtest::defaultWorld;

constexpr uint64_t TRIANGLE_BUDGET = 150000;  // architecture.md: any frame, software Vulkan

const char* const LADDER[] = {"sm",  "die",    "hbm",  "package", "tray",  "rack",
                              "row", "fabric", "hall", "cooling", "campus"};

TEST(World, HasEveryStationOfTheBrief) {
  for (const char* name : {"sm", "die", "hbm", "package", "tray", "rack", "row", "fabric", "hall",
                           "cooling", "campus", "tpu", "xeon_amx", "gh100"}) {
    const world::Station* s = defaultWorld().station(name);
    ASSERT_NE(s, nullptr) << name;
    EXPECT_FALSE(s->description.empty()) << name;
    EXPECT_GT(s->scale_m, 0.0) << name;
  }
}

TEST(World, StationsAreNestedInOneWorld) {
  // The hero SM lies inside its die, inside the package, the tray, the rack, the row, the hall.
  const char* chain[] = {"sm", "die", "package", "tray", "rack", "row", "hall", "campus"};
  for (size_t i = 0; i + 1 < std::size(chain); ++i) {
    const world::Aabb inner = defaultWorld().station(chain[i])->bounds;
    const world::Aabb outer = defaultWorld().station(chain[i + 1])->bounds;
    for (int k = 0; k < 3; ++k) {
      EXPECT_GE(inner.min[k], outer.min[k] - 1e-9) << chain[i] << " in " << chain[i + 1];
      EXPECT_LE(inner.max[k], outer.max[k] + 1e-9) << chain[i] << " in " << chain[i + 1];
    }
  }
  // True scale: an SM is millimetres, the campus hundreds of metres.
  EXPECT_LT(defaultWorld().station("sm")->scale_m, 0.005);
  EXPECT_GT(defaultWorld().station("campus")->scale_m, 100.0);
}

TEST(World, EveryStationViewpointSeesSomethingWithinBudget) {
  world::RenderList list;
  for (const world::Station& s : defaultWorld().stations()) {
    const world::FrameStats stats = defaultWorld().buildRenderList(cameraAt(s), {}, list);
    EXPECT_GT(list.instances.size(), 0u) << s.name;
    EXPECT_GT(stats.triangles, 0u) << s.name;
    EXPECT_LE(stats.triangles, TRIANGLE_BUDGET) << s.name;
    // The station itself is in front of the camera: its centre projects inside the view.
    const world::Camera camera = cameraAt(s);
    const glm::dvec3 rel = s.bounds.center() - camera.position();
    EXPECT_GT(glm::dot(rel, camera.forward()), 0.0) << s.name;
    // The near plane is closer than the station, so it is not clipped away.
    EXPECT_LT(list.view.nearMeters, s.viewpoint.distance_m) << s.name;
    EXPECT_GT(list.view.nearMeters, 0.0f) << s.name;
  }
}

TEST(World, BatchesCoverInstancesOncePerMesh) {
  world::RenderList list;
  defaultWorld().buildRenderList(cameraAt(*defaultWorld().station("rack")), {}, list);
  uint32_t next = 0;
  for (const world::DrawBatch& batch : list.batches) {
    EXPECT_EQ(batch.firstInstance, next);
    EXPECT_GT(batch.instanceCount, 0u);
    EXPECT_LT(batch.mesh.index, defaultWorld().meshes().meshes().size());
    next += batch.instanceCount;
  }
  EXPECT_EQ(next, list.instances.size());
}

TEST(World, FlightFromSmToCampusStaysWithinTriangleBudget) {
  // Fly-to between consecutive ladder stations, sampled 30 times per leg.
  world::RenderList list;
  uint64_t worst = 0;
  std::string worstAt;
  for (size_t leg = 0; leg + 1 < std::size(LADDER); ++leg) {
    const world::Station* a = defaultWorld().station(LADDER[leg]);
    const world::Station* b = defaultWorld().station(LADDER[leg + 1]);
    ASSERT_TRUE(a && b);
    const world::FlyTo flight(a->viewpoint, b->viewpoint);
    for (int i = 0; i <= 30; ++i) {
      world::Camera camera;
      camera.setPose(flight.sample(flight.duration_s() * i / 30.0));
      const world::FrameStats stats = defaultWorld().buildRenderList(camera, {}, list);
      EXPECT_GT(stats.instances, 0u) << LADDER[leg] << " -> " << LADDER[leg + 1] << " step " << i;
      if (stats.triangles > worst) {
        worst = stats.triangles;
        worstAt =
            std::string(LADDER[leg]) + " -> " + LADDER[leg + 1] + " step " + std::to_string(i);
      }
    }
  }
  EXPECT_LE(worst, TRIANGLE_BUDGET) << "worst frame: " << worstAt;
  RecordProperty("worst_triangles", std::to_string(worst) + " at " + worstAt);
  std::printf("flight SM -> campus: worst frame %llu triangles (%s)\n", (unsigned long long)worst,
              worstAt.c_str());
}

TEST(World, FullCampusInViewStaysWithinBudget) {
  const world::Station* campus = defaultWorld().station("campus");
  world::RenderList list;
  // The campus station, a view from straight above, and a low view along the halls.
  std::vector<world::Pose> poses;
  poses.push_back(world::toPose(campus->viewpoint));
  poses.push_back(world::poseLookingAlong(campus->bounds.center() + glm::dvec3(0, 600, 1),
                                          glm::dvec3(0, -1, -0.001)));
  poses.push_back(world::poseLookingAlong(glm::dvec3(campus->bounds.min.x - 50, 20, 0),
                                          glm::dvec3(1, -0.05, 0)));
  for (const world::Pose& pose : poses) {
    world::Camera camera;
    camera.setPose(pose);
    const world::FrameStats stats = defaultWorld().buildRenderList(camera, {}, list);
    EXPECT_GT(stats.instances, 0u);
    EXPECT_LE(stats.triangles, TRIANGLE_BUDGET);
  }
  // Every hall is in the campus view (some of its geometry is drawn).
  world::Camera camera;
  camera.setPose(poses[0]);
  defaultWorld().buildRenderList(camera, {}, list);
  const world::Station* hall = defaultWorld().station("hall");
  bool sawHallGeometry = false;
  for (const gpu::Instance& inst : list.instances) {
    const glm::dvec3 at = camera.position() + glm::dvec3(inst.row0.w, inst.row1.w, inst.row2.w);
    sawHallGeometry |= at.x > hall->bounds.min.x && at.x < hall->bounds.max.x &&
                       at.z > hall->bounds.min.z && at.z < hall->bounds.max.z;
  }
  EXPECT_TRUE(sawHallGeometry);
}

TEST(World, WalkingThroughTheHallStaysWithinBudget) {
  // Free flight is not limited to station paths: walk the hero hall at eye height and above the
  // racks, looking every way.
  const world::Station* hall = defaultWorld().station("hall");
  world::RenderList list;
  uint64_t worst = 0;
  for (double fz = 0.02; fz < 1.0; fz += 0.1) {
    for (double fx = 0.05; fx < 1.0; fx += 0.3) {
      for (double y : {1.2, 1.7, 5.0}) {
        for (double yaw = 0; yaw < 6.28; yaw += 0.8) {
          const glm::dvec3 p(hall->bounds.min.x + fx * hall->bounds.size().x, y,
                             hall->bounds.min.z + fz * hall->bounds.size().z);
          world::Camera camera;
          camera.setPose(world::Pose{p, yaw, -0.2});
          worst = std::max(worst, defaultWorld().buildRenderList(camera, {}, list).triangles);
        }
      }
    }
  }
  EXPECT_LE(worst, TRIANGLE_BUDGET);
  std::printf("hall walk: worst frame %llu triangles\n", (unsigned long long)worst);
}

// The same station, built at the origin and 100 km away, gives the same camera-relative list.
TEST(World, CameraRelativeTransformsHoldPrecision100kmFromOrigin) {
  world::WorldDesc farDesc;
  farDesc.origin_m = glm::dvec3(100000.0, 0.0, 100000.0);
  auto far = world::World::create(worldtest::dims(), farDesc);
  ASSERT_TRUE(far.ok()) << far.error();
  for (const char* name : {"sm", "die", "hbm", "rack"}) {
    world::RenderList nearList, farList;
    defaultWorld().buildRenderList(cameraAt(*defaultWorld().station(name)), {}, nearList);
    (*far)->buildRenderList(cameraAt(*(*far)->station(name)), {}, farList);
    ASSERT_EQ(nearList.instances.size(), farList.instances.size()) << name;
    double worst_m = 0;
    for (size_t i = 0; i < nearList.instances.size(); ++i) {
      const gpu::Instance& a = nearList.instances[i];
      const gpu::Instance& b = farList.instances[i];
      const float ta[3] = {a.row0.w, a.row1.w, a.row2.w};
      const float tb[3] = {b.row0.w, b.row1.w, b.row2.w};
      for (int k = 0; k < 3; ++k) {
        const double diff = std::abs(double(ta[k]) - double(tb[k]));
        worst_m = std::max(worst_m, diff);
        // One float ulp of the value, or a nanometre: tiny next to a 10 um SM lane.
        EXPECT_LE(diff, std::max(1e-9, 2e-7 * std::abs(double(ta[k]))))
            << name << " instance " << i;
      }
      EXPECT_EQ(a.row0.x, b.row0.x);
      EXPECT_EQ(a.row1.y, b.row1.y);
      EXPECT_EQ(a.row2.z, b.row2.z);
    }
    // A float world position at 141 km would be off by up to 8 mm; the SM is 2.5 mm wide.
    EXPECT_LT(worst_m, 1e-6) << name;
    EXPECT_FLOAT_EQ(nearList.view.nearMeters, farList.view.nearMeters) << name;
  }
}

TEST(World, PickHitsTheObjectUnderThePixel) {
  const world::FrameDesc frame;
  // Centre pixel of the rack station: the hero rack (or a tray in it).
  const world::Station* rack = defaultWorld().station("rack");
  auto hit =
      defaultWorld().pick(cameraAt(*rack), frame.width_px / 2.0, frame.height_px / 2.0, frame);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->path.rfind(rack->path, 0), 0u) << hit->path << " / " << hit->part;
  // Centre of the die station: one of the hero package's two dies (it frames them side by side,
  // the NV-HBI seam between them, in a studio of their own).
  const world::Station* die = defaultWorld().station("die");
  hit = defaultWorld().pick(cameraAt(*die), frame.width_px / 2.0, frame.height_px / 2.0, frame);
  ASSERT_TRUE(hit.has_value());
  const std::string dies = die->path.substr(0, die->path.rfind('/')) + "/die";
  EXPECT_EQ(hit->path.rfind(dies, 0), 0u) << hit->path << " / " << hit->part;
  // Straight down from above the hero die: its topmost part, at the right distance.
  const auto dieBounds = defaultWorld().scene().worldBounds(die->path);
  ASSERT_TRUE(dieBounds);
  const glm::dvec3 top(dieBounds->center().x, dieBounds->max.y + 0.01, dieBounds->center().z);
  hit = defaultWorld().scene().pick(top, glm::dvec3(0, -1, 0));
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->path.rfind(die->path, 0), 0u) << hit->path;
  EXPECT_NEAR(hit->distance_m, top.y - hit->worldBounds.max.y, 1e-12);
  EXPECT_LE(hit->worldBounds.max.y, dieBounds->max.y);
  EXPECT_GE(hit->worldBounds.max.y, dieBounds->min.y);
  // Into the sky: nothing.
  EXPECT_FALSE(defaultWorld().scene().pick(glm::dvec3(0, 100, 0), glm::dvec3(0, 1, 0)).has_value());
}

TEST(World, NearestSurfaceIsTheGroundInOpenField) {
  // The last building: the campus station frames only the first hall and what stands round it.
  const world::Scene& scene = defaultWorld().scene();
  double lastX = -1e300;
  for (const auto& child : scene.prototype(scene.root()).children)
    if (auto box = scene.worldBounds(child.name); box && child.name != "transmission")
      lastX = std::max(lastX, box->max.x);
  // About 1 m above the ground, 400 m beyond the last building (past the site's fence and
  // grass): the nearest surface is the ground straight below (found independently by a ray),
  // the field round the site or one of the farm fields on it.
  const glm::dvec3 p(lastX + 400.0, 1.0, 0.0);
  auto below = scene.pick(p, glm::dvec3(0, -1, 0));
  ASSERT_TRUE(below.has_value());
  EXPECT_TRUE(below->part == "ground" || below->part == "field") << below->part;
  EXPECT_NEAR(below->distance_m, 1.0, 0.05);
  EXPECT_NEAR(defaultWorld().nearestSurface(p), below->distance_m, 1e-9);
}

TEST(World, NearPlaneFollowsTheNearestSurface) {
  world::RenderList list;
  const world::FrameStats sm =
      defaultWorld().buildRenderList(cameraAt(*defaultWorld().station("sm")), {}, list);
  const float smNear = list.view.nearMeters;
  EXPECT_NEAR(smNear, 0.5 * sm.nearestSurface_m, 1e-9);
  defaultWorld().buildRenderList(cameraAt(*defaultWorld().station("campus")), {}, list);
  // Six orders of magnitude apart, each within its own scale.
  EXPECT_LT(smNear, 0.005f);
  EXPECT_GT(list.view.nearMeters, 0.1f);
}

TEST(World, LabelsNameStationsInView) {
  world::RenderList list;
  defaultWorld().buildRenderList(cameraAt(*defaultWorld().station("campus")), {}, list);
  ASSERT_FALSE(list.labels.empty());
  EXPECT_LE(list.labels.size(), world::FrameDesc{}.maxLabels);
  // The stations on the campus, but not the campus itself: the hero of a view needs no label
  // naming it (the title does), least of all one on top of it.
  bool plant = false, campus = false;
  for (const world::Label& label : list.labels) {
    plant |= label.text == "Cooling plant";
    campus |= label.text == "Campus";
  }
  EXPECT_TRUE(plant);
  EXPECT_FALSE(campus);
}

TEST(World, LabelsAreNotShownThroughWalls) {
  // Outside the hero hall, at eye height, looking at the wall behind which the hero rack stands.
  const world::Station* rack = defaultWorld().station("rack");
  const world::Station* hall = defaultWorld().station("hall");
  const glm::dvec3 target = rack->bounds.center();
  const glm::dvec3 eye(target.x, 1.7, hall->bounds.min.z - 15.0);
  world::Camera camera;
  camera.setPose(world::poseLookingAlong(eye, target - eye));
  world::RenderList list;
  defaultWorld().buildRenderList(camera, {}, list);
  for (const world::Label& label : list.labels) EXPECT_NE(label.text, rack->title);
  // From inside the front aisle, in plain view, the rack is labelled.
  defaultWorld().buildRenderList(cameraAt(*defaultWorld().station("row")), {}, list);
  bool rackLabel = false;
  for (const world::Label& label : list.labels) rackLabel |= label.text == rack->title;
  EXPECT_TRUE(rackLabel);
}

TEST(World, HallAndRackCountsComeFromTheDesc) {
  world::WorldDesc desc;
  desc.campus.hallCount = 2;
  desc.campus.hall.rackCount = 20;
  auto w = world::World::create(worldtest::dims(), desc);
  ASSERT_TRUE(w.ok()) << w.error();
  const world::Scene& scene = (*w)->scene();
  int halls = 0, racks = 0;
  for (const auto& hall : scene.prototype(scene.root()).children) {
    if (hall.name.rfind("hall", 0) != 0) continue;
    ++halls;
    for (const auto& row : scene.prototype(hall.prototype).children) {
      for (const auto& child : scene.prototype(row.prototype).children) {
        racks += child.name.rfind("rack", 0) == 0;
      }
    }
  }
  EXPECT_EQ(halls, 2);
  EXPECT_EQ(racks, 40);
}

TEST(World, SelectionOutlinesExactlyTheSelectedInstance) {
  // A tray of the hero rack, seen from the rack station (which draws the rack alone).
  const world::Station* rack = defaultWorld().station("rack");
  world::FrameDesc frame;
  frame.selectedPath = rack->path + "/compute_tray12";
  const auto tray = defaultWorld().scene().worldBounds(frame.selectedPath);
  ASSERT_TRUE(tray);
  world::RenderList list;
  defaultWorld().buildRenderList(cameraAt(*rack), frame, list);
  const world::Camera camera = cameraAt(*rack);
  size_t outlined = 0;
  for (const gpu::Instance& inst : list.instances) {
    const glm::dvec3 at = camera.position() + glm::dvec3(inst.row0.w, inst.row1.w, inst.row2.w);
    const bool inside = glm::all(glm::greaterThanEqual(at, tray->min - 1e-6)) &&
                        glm::all(glm::lessThanEqual(at, tray->max + 1e-6));
    if (inst.params.z == 1.0f) {
      ++outlined;
      EXPECT_TRUE(inside);
    }
  }
  EXPECT_GT(outlined, 0u);
  EXPECT_LT(outlined, list.instances.size());
  // "rack0" must not select "rack01..." style siblings, and no selection outlines nothing.
  frame.selectedPath = "hall0/row0/rack";
  defaultWorld().buildRenderList(cameraAt(*rack), frame, list);
  for (const gpu::Instance& inst : list.instances) EXPECT_EQ(inst.params.z, 0.0f);
}

TEST(World, BadDescIsRefused) {
  world::WorldDesc desc;
  desc.campus.hallCount = 0;
  auto w = world::World::create(worldtest::dims(), desc);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.error().find("hall"), std::string::npos);
}

}  // namespace

// Free flight finds the studio from what the eye looks at. Inside a hall, looking at its floor
// 10 m ahead (between rows), the campus (whose studio holds every hall, and whose framing
// distance is within 3x of the eye's distance from its centre) must not be the studio: it would
// draw every hall of the site at full detail (150,000 triangles in the bench's flight into the
// row, where the view ray met the floor in front of it).
TEST(World, AStudioIsNeverFarLargerThanWhatTheEyeLooksAt) {
  const world::World& w = defaultWorld();
  const world::Station* row = w.station("row");
  const world::Station* campus = w.station("campus");
  ASSERT_NE(row, nullptr);
  ASSERT_NE(campus, nullptr);
  const auto hall = w.scene().worldBounds("hall0");
  ASSERT_TRUE(hall.has_value());
  // At the row's own view, looking at its target: the row.
  const glm::dvec3 rowEye = world::toPose(row->viewpoint).position;
  EXPECT_EQ(world::studioStation(w.stations(), rowEye, row->viewpoint.target), row);
  // Where the bench's flight into the row met the floor: the eye 4 m up in the hall, the floor
  // 10 m ahead along the hall.
  const glm::dvec3 eye(0.5 * (hall->min.x + hall->max.x), hall->min.y + 4.0,
                       hall->min.z + 0.1 * (hall->max.z - hall->min.z));
  const glm::dvec3 focus(eye.x, hall->min.y + 0.3, eye.z + 9.0);
  const double focus_m = glm::length(focus - eye);
  // The campus qualifies but for its size: its studio holds the focus, its framing distance is
  // within 3x of the eye's distance from its target.
  EXPECT_TRUE(glm::all(glm::greaterThanEqual(focus, campus->studioBounds.min)) &&
              glm::all(glm::lessThanEqual(focus, campus->studioBounds.max)));
  EXPECT_LT(std::abs(std::log(glm::length(eye - campus->viewpoint.target) /
                              campus->viewpoint.distance_m)),
            std::log(3.0));
  EXPECT_GT(campus->scale_m, world::MAX_STUDIO_SCALE_PER_FOCUS * focus_m);
  const world::Station* found = world::studioStation(w.stations(), eye, focus);
  EXPECT_NE(found, campus);
  if (found) {
    EXPECT_LE(found->scale_m, world::MAX_STUDIO_SCALE_PER_FOCUS * focus_m) << found->name;
  }
}
