// The selection panel's content (world/live/selection.h): a hero-rack GPU's and a rack's live
// numbers equal the engine's arrays, and their catalog figures come with the catalog's sources.
#include <cstdio>
#include <memory>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include <glm/glm.hpp>
#include "sim/catalog.h"
#include "sim/engine/engine.h"
#include "sim/engine/request.h"
#include "sim/engine/scenarios.h"
#include "sim/scenario.h"

#include "tests/common/shipped_catalog.h"
#include "tests/renderer/session_world.h"
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
    const sim::Catalog* catalog = &testcatalog::shipped();
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

bool holds(const world::Aabb& box, const glm::dvec3& p) {
  return glm::all(glm::greaterThanEqual(p, box.min)) && glm::all(glm::lessThanEqual(p, box.max));
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

// The pixel (x, y) of `point` seen by `camera` on a width x height screen.
glm::dvec2 pixelOf(const world::Camera& camera, const glm::dvec3& point, double w, double h) {
  const glm::dvec3 rel = point - camera.position();
  const double depth = glm::dot(rel, camera.forward());
  const double focal = 0.5 * h / std::tan(0.5 * camera.verticalFov_rad());
  return {0.5 * w + glm::dot(rel, camera.right()) / depth * focal - 0.5,
          0.5 * h - glm::dot(rel, camera.up()) / depth * focal - 0.5};
}

TEST(Selection, AClickOnAGpusCoverSelectsTheGpuInTheTrayAndRackViews) {
  // Issue 22: in the rack and tray views a click always landed on a cold plate or board; a GPU
  // could be picked only on the package view.
  Fixture& f = fixture();
  const world::FrameDesc frame{1280, 720};
  for (const char* station : {"tray", "rack"}) {
    SCOPED_TRACE(station);
    const world::Station* s = f.world->station(station);
    ASSERT_NE(s, nullptr);
    world::Camera camera;
    camera.setPose(world::toPose(s->viewpoint));
    // The hero tray's GPUs (tray 9, the station's), at the middle of each one's top.
    int gpus = 0, selected = 0;
    for (const world::HeroGpu& gpu : f.world->heroGpus()) {
      if (gpu.tray != 9) continue;
      ++gpus;
      glm::dvec3 top = gpu.bounds.center();
      top.y = gpu.bounds.max.y;
      const glm::dvec2 px = pixelOf(camera, top, frame.width_px, frame.height_px);
      if (px.x < 0 || px.y < 0 || px.x >= frame.width_px || px.y >= frame.height_px) continue;
      const auto plain = f.world->pick(camera, px.x, px.y, frame);
      const auto hit = world::pickForSelection(*f.world, camera, px.x, px.y, frame);
      ASSERT_TRUE(hit.has_value());
      const world::SelectionInfo info =
          world::describeSelection(*hit, *f.world, f.engine->snapshot(), f.catalog);
      EXPECT_EQ(info.kind, world::SelectionKind::Gpu) << (plain ? plain->part : "nothing");
      if (info.kind == world::SelectionKind::Gpu) ++selected;
      EXPECT_EQ(hit->path.rfind(gpu.path, 0), 0u) << hit->path;  // the package, or a die in it
    }
    EXPECT_EQ(gpus, 4);
    EXPECT_GE(selected, 1);
  }
}

TEST(Selection, TheBackdropIsEmptySpace) {
  // Issue 22: even the chip's backdrop was a "table top": nothing could ever be unselected.
  Fixture& f = fixture();
  const world::FrameDesc frame{1280, 720};
  const world::Station* die = f.world->station("die");
  ASSERT_NE(die, nullptr);
  world::Camera camera;
  camera.setPose(world::toPose(die->viewpoint));
  // A corner of the screen: beside the die, on the board it lies on.
  const auto plain = f.world->pick(camera, 5, 5, frame);
  ASSERT_TRUE(plain.has_value()) << "the board under the die is there";
  EXPECT_FALSE(world::pickForSelection(*f.world, camera, 5, 5, frame).has_value()) << plain->part;
  // The die itself, in the middle, is something.
  EXPECT_TRUE(world::pickForSelection(*f.world, camera, 640, 360, frame).has_value());
}

TEST(Selection, FramingShowsTheWholeSelectionFromOutsideIt) {
  // Issue 22: F flew into the selected rack's panel.
  Fixture& f = fixture();
  const world::Station* hall = f.world->station("hall");
  ASSERT_NE(hall, nullptr);
  world::Camera camera;
  camera.setPose(world::toPose(hall->viewpoint));
  for (uint32_t rack : {0u, 7u, 40u}) {
    SCOPED_TRACE(rack);
    world::PickHit hit;
    hit.path = f.world->racks().pathOfRack(rack) + "/door";
    hit.part = "door";
    const world::Aabb box = f.world->racks().rackBounds(rack);
    hit.worldBounds = world::Aabb{box.min, glm::dvec3(box.max.x, box.max.y, box.min.z + 0.01)};
    const world::OrbitPose pose = world::frameSelection(*f.world, hit, camera);
    const world::Pose eye = world::toPose(pose);
    EXPECT_LT(glm::length(pose.target - box.center()), 1e-9);  // the rack, not its door
    EXPECT_FALSE(glm::all(glm::greaterThanEqual(eye.position, box.min)) &&
                 glm::all(glm::lessThanEqual(eye.position, box.max)));
    // The whole rack in the 60-degree view: its bounding sphere fits.
    const double radius = 0.5 * glm::length(box.size());
    EXPECT_GE(pose.distance_m * std::sin(0.5 * camera.verticalFov_rad()), radius);
    // Nothing between the eye and the rack.
    const auto first = f.world->scene().pick(eye.position, box.center() - eye.position);
    ASSERT_TRUE(first.has_value());
    const glm::dvec3 c = first->worldBounds.center();
    EXPECT_TRUE(glm::all(glm::greaterThanEqual(c, box.min - 1e-6)) &&
                glm::all(glm::lessThanEqual(c, box.max + 1e-6)))
        << "first hit " << first->path;
  }
}

TEST(Selection, WhereTheCameraIsNamesTheSmallestThingAroundIt) {
  Fixture& f = fixture();
  const world::Aabb rack7 = f.world->racks().rackBounds(7);
  const world::Whereabouts inRack = world::locate(*f.world, rack7.center());
  EXPECT_EQ(inRack.kind, world::Whereabouts::Kind::Rack);
  EXPECT_EQ(inRack.index, 7u);
  const glm::dvec3 size = rack7.size();
  EXPECT_DOUBLE_EQ(inRack.scale_m, std::max({size.x, size.y, size.z}));
  const world::Station* sm = f.world->station("sm");
  const world::Whereabouts inSm = world::locate(*f.world, sm->bounds.center());
  EXPECT_EQ(inSm.kind, world::Whereabouts::Kind::Station);
  EXPECT_EQ(inSm.station, sm->title);
  EXPECT_DOUBLE_EQ(inSm.scale_m, sm->scale_m);
  const world::Whereabouts far = world::locate(*f.world, glm::dvec3(0, 5000, 0));
  EXPECT_EQ(far.kind, world::Whereabouts::Kind::Campus);
}

// "You are in" at each station's viewpoint: the station itself, or one with the same hero (the
// rack's back is the rack), and a size near the hero's own (within a factor of 2, where the
// place that holds the camera is a hundred times larger: the SM's tray, the die's rack) — both
// as a landed tour step says which studio it is in, and in free flight, the studio found from
// what the camera looks at (where the view ray meets the studio's hero first: from the rack's
// back the next row's rack stands in front, which only the tour's studio hides).
void expectEveryStationNamed(const world::World& w) {
  EXPECT_GE(w.stations().size(), 12u);  // the hero's seven, row to campus, the gallery's three
  for (const world::Station& s : w.stations()) {
    world::Camera camera;
    camera.setPose(world::toPose(s.viewpoint));
    const auto first = w.scene().pick(camera.position(), camera.forward());
    const bool seen = first && holds(s.studioBounds, first->worldBounds.center());
    for (const std::string& hint : {s.name, std::string()}) {
      if (hint.empty() && !seen) continue;
      const world::Whereabouts here = world::locate(w, camera.position(), camera.forward(), hint);
      const std::string at = "at " + s.name + (hint.empty() ? " (free flight)" : " (tour)");
      const world::Station* named = nullptr;
      for (const world::Station& t : w.stations())
        if (here.kind == world::Whereabouts::Kind::Station && t.title == here.station) named = &t;
      if (!named) {
        ADD_FAILURE() << at << ": no station but kind " << int(here.kind) << " " << here.index
                      << " \"" << here.station << "\" " << here.scale_m << " m";
        continue;
      }
      EXPECT_TRUE(named == &s || named->path == s.path) << at << ": \"" << here.station << "\"";
      EXPECT_GT(here.scale_m, 0.5 * s.scale_m) << at;
      EXPECT_LT(here.scale_m, 2.0 * s.scale_m) << at;
    }
  }
}

TEST(Selection, YouAreInNamesTheStationTheCameraLooksAt) {
  expectEveryStationNamed(*fixture().world);
}

// The same in a world of 8-GPU HGX systems (DGX H100: the system pulled out of its cabinet).
TEST(Selection, YouAreInNamesTheStationTheCameraLooksAtInAnHgxWorld) {
  Fixture& f = fixture();
  auto scenario =
      sim::loadScenarioFile(sim::assetsDir() / "scenarios" / "llama405b-training-16k-h100.json");
  ASSERT_TRUE(scenario) << scenario.error();
  auto desc = sim::engine::engineDescFromScenario(*scenario);
  ASSERT_TRUE(desc) << desc.error();
  auto engine = sim::engine::Engine::create(f.catalog, *desc);
  ASSERT_TRUE(engine) << engine.error();
  auto dims = world::Dimensions::fromCatalog(f.catalog);
  ASSERT_TRUE(dims) << dims.error();
  auto layout = world::layoutOf((*engine)->cluster(), *dims, dims->count("row.racks_per_su"));
  ASSERT_TRUE(layout) << layout.error();
  ASSERT_TRUE(layout->chassis());
  world::WorldDesc wd;
  wd.campus = world::campusOf(*layout, int((*engine)->cluster().campusRacks));
  auto w = world::World::create(*dims, wd);
  ASSERT_TRUE(w) << w.error();
  expectEveryStationNamed(**w);
}

// Inside a rack that is not the hero's, looking along its row: that rack (the row's studio the
// view may be in is larger than the rack that holds the camera).
TEST(Selection, YouAreInARackOfTheHallNamesThatRack) {
  Fixture& f = fixture();
  const world::Aabb rack12 = f.world->racks().rackBounds(12);
  for (const glm::dvec3& forward : {glm::dvec3(1, 0, 0), glm::dvec3(0, 0, -1)}) {
    const world::Whereabouts here = world::locate(*f.world, rack12.center(), forward);
    EXPECT_EQ(here.kind, world::Whereabouts::Kind::Rack);
    EXPECT_EQ(here.index, 12u);
    const glm::dvec3 size = rack12.size();
    EXPECT_DOUBLE_EQ(here.scale_m, std::max({size.x, size.y, size.z}));
  }
}

// In the hall (between its rows, in front of the first, at the gallery table) the camera is in
// hall 0, whose size is the hall's own, not the campus's.
TEST(Selection, ThePlaceInFrontOfTheFirstRowIsTheHall) {
  Fixture& f = fixture();
  const world::Station* rack = f.world->station("rack");
  const world::Station* hall = f.world->station("hall");
  ASSERT_TRUE(rack && hall);
  const world::Whereabouts here = world::locate(*f.world, world::toPose(rack->viewpoint).position);
  EXPECT_EQ(here.kind, world::Whereabouts::Kind::Hall);
  EXPECT_EQ(here.index, 0u);
  EXPECT_GT(here.scale_m, 0.5 * hall->scale_m);
  EXPECT_LT(here.scale_m, 2.0 * hall->scale_m);
  const world::Station* xeon = f.world->station("xeon_amx");
  ASSERT_TRUE(xeon);
  EXPECT_EQ(world::locate(*f.world, world::toPose(xeon->viewpoint).position).kind,
            world::Whereabouts::Kind::Hall);
}

}  // namespace

TEST(Selection, AClickOnlyMeetsWhatTheFrameDrew) {
  // Issue 38, item 2: in the isolated-rack view a click on the empty background selected a
  // hidden neighbour ("Rack 2"): the click's ray ignored the studio the frame was drawn in.
  // At every station, on a grid of clicks over the whole view, what a click selects is what the
  // drawn frame shows there (the part itself, or the hero GPU under the cover it hit), and a
  // click where the frame shows nothing selects nothing.
  Fixture& f = fixture();
  world::FrameDesc frame{1280, 720};
  int clicks = 0;
  for (const world::Station& s : f.world->stations()) {
    SCOPED_TRACE(s.name);
    world::Camera camera;
    camera.setPose(world::toPose(s.viewpoint));
    frame.studio = s.name;
    world::RenderList list;
    f.world->buildRenderList(camera, frame, list);
    for (int y = 10; y < 720; y += 40) {
      for (int x = 10; x < 1280; x += 40) {
        const auto drawn = f.world->pick(camera, x, y, frame);
        const auto hit = world::pickForSelection(*f.world, camera, x, y, frame);
        if (!hit) continue;
        ++clicks;
        ASSERT_TRUE(drawn.has_value()) << "(" << x << ", " << y << ") selected " << hit->path;
        if (hit->part != "GPU package") {
          EXPECT_EQ(hit->path, drawn->path);
        }
      }
    }
  }
  EXPECT_GT(clicks, 1000);
}

TEST(Selection, EverySwitchOfTheFabricIsSelectableWithItsLiveNumbers) {
  // Issue 38, item 2: fabric switches could not be selected (a click gave a bare part). In the
  // world the app builds from the engine's cluster, a click on a spine at the fabric station and
  // on a leaf at the row's end selects that switch of the engine, with the load on its ports.
  Fixture& f = fixture();
  const sim::engine::Cluster& c = f.engine->cluster();
  auto w = fixtures::worldOfCluster(c);
  ASSERT_TRUE(w);
  const sim::engine::Snapshot s = f.engine->snapshot();
  std::set<std::string> tiers;
  for (const char* station : {"fabric", "row"}) {
    SCOPED_TRACE(station);
    const world::Station* st = w->station(station);
    ASSERT_NE(st, nullptr);
    world::Camera camera;
    camera.setPose(world::toPose(st->viewpoint));
    world::FrameDesc frame{1280, 720};
    frame.studio = station;
    world::RenderList list;
    w->buildRenderList(camera, frame, list);
    for (int y = 10; y < 720; y += 20) {
      for (int x = 10; x < 1280; x += 20) {
        const auto hit = world::pickForSelection(*w, camera, x, y, frame);
        if (!hit) continue;
        const world::SelectionInfo info = world::describeSelection(*hit, *w, s, f.catalog);
        if (info.kind != world::SelectionKind::Switch) continue;
        ASSERT_LT(info.index, c.switchCount());
        const sim::engine::Switch& sw = c.switches[info.index];
        tiers.insert(info.title.substr(0, info.title.find(' ')));
        // The switch's cables, found here from the cluster: ports and their busiest load.
        double busiest = 0;
        uint32_t ports = 0;
        for (uint32_t l = 0; l < c.linkCount(); ++l) {
          const sim::engine::Link& link = c.links[l];
          const bool mine =
              link.upper == info.index ||
              (link.tier != sim::engine::LinkTier::Endpoint && link.lower == info.index);
          if (!mine) continue;
          ++ports;
          busiest = std::max(busiest, double(s.linkUtilisation[l]));
        }
        ASSERT_EQ(info.live.size(), 4u);
        EXPECT_DOUBLE_EQ(info.live[0].value, 100.0 * busiest) << info.title;
        EXPECT_EQ(info.live[2].value, double(ports)) << info.title;
        EXPECT_GT(ports, 0u);
        EXPECT_LE(ports, uint32_t(c.specs.fabricSwitch.radix)) << info.title;
        if (sw.tier == sim::engine::SwitchTier::Leaf) {
          // A leaf at a row's end: one that NICs of that row's racks are cabled to (a rail's
          // leaf serves its rail group, which may reach past the row).
          unsigned hall = 0, row = 0;
          ASSERT_EQ(std::sscanf(hit->path.c_str(), "hall%u/row%u/", &hall, &row), 2) << hit->path;
          const std::vector<uint32_t>& rows = w->racks().rowStarts()[hall];
          ASSERT_LT(row + 1, rows.size());
          bool rowGpu = false;
          for (uint32_t g = rows[row] * c.gpusPerRack;
               g < std::min(rows[row + 1] * c.gpusPerRack, c.gpuCount()); ++g)
            rowGpu = rowGpu || c.gpuLeaf[g] == info.index;
          EXPECT_TRUE(rowGpu) << info.title << " at " << hit->path;
        }
        EXPECT_FALSE(info.specs.empty());
      }
    }
  }
  EXPECT_TRUE(tiers.count("Spine")) << "no spine switch selected at the fabric station";
  EXPECT_TRUE(tiers.count("Leaf")) << "no leaf switch selected at the row station";
}
