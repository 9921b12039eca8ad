// The triangle budget holds whatever models users bring: with every compute tray replaced by a
// heavy model, frames stay within 150,000 triangles at the rack and row stations and along the
// SM -> campus flight (and go over without the budget), the trays largest on screen are the
// ones opened, and the built-in world's frames do not change.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "tests/world/world_test_fixture.h"
#include "world/builders/builders.h"

namespace {

using worldtest::cameraAt;
using worldtest::defaultWorld;

constexpr uint64_t TRIANGLE_BUDGET = 150000;  // architecture.md: any frame, software Vulkan
constexpr uint64_t NO_BUDGET = UINT64_MAX;

// The heavy model: a box of `size` (the proportions of the part it replaces, so that it fills
// it) centred on the origin, each face cut into DIVISIONS x DIVISIONS quads of two triangles.
constexpr uint32_t DIVISIONS = 64;
constexpr uint64_t HEAVY_TRIANGLES = 6ull * DIVISIONS * DIVISIONS * 2;  // 49,152

const char* const LADDER[] = {"sm",  "die",    "hbm",  "package", "tray",  "rack",
                              "row", "fabric", "hall", "cooling", "campus"};

world::ImportedModel heavyBox(const glm::vec3& size) {
  world::ImportedModel model;
  model.source = "heavy_box.gltf";
  world::ImportedMesh mesh;
  mesh.data.name = "heavy box";
  const glm::vec3 normals[6] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
  for (const glm::vec3& n : normals) {
    // Two axes across the face, chosen so that u x v = n (counter-clockwise seen from outside).
    const glm::vec3 u = std::abs(n.y) > 0.5f ? glm::vec3(0, 0, n.y) : glm::vec3(-n.z, 0, n.x);
    const glm::vec3 v = glm::cross(n, u);
    const uint32_t base = static_cast<uint32_t>(mesh.data.vertices.size());
    for (uint32_t j = 0; j <= DIVISIONS; ++j) {
      for (uint32_t i = 0; i <= DIVISIONS; ++i) {
        const float a = float(i) / DIVISIONS - 0.5f, b = float(j) / DIVISIONS - 0.5f;
        const glm::vec3 p = size * (0.5f * n + a * u + b * v);
        mesh.data.vertices.push_back(
            {{p.x, p.y, p.z}, {n.x, n.y, n.z}, {float(i) / DIVISIONS, float(j) / DIVISIONS}});
      }
    }
    for (uint32_t j = 0; j < DIVISIONS; ++j) {
      for (uint32_t i = 0; i < DIVISIONS; ++i) {
        const uint32_t k = base + j * (DIVISIONS + 1) + i;
        const uint32_t right = k + 1, up = k + DIVISIONS + 1, diagonal = up + 1;
        mesh.data.indices.insert(mesh.data.indices.end(), {k, right, diagonal, k, diagonal, up});
      }
    }
  }
  mesh.material = 0;
  model.meshes.push_back(std::move(mesh));
  model.materials.emplace_back();
  model.instances.emplace_back();  // identity
  model.bounds = world::computeBounds(model);
  return model;
}

// The default campus with `component` drawn as a heavy box of `size`.
std::unique_ptr<world::World> worldWithHeavy(const std::string& component, const glm::vec3& size) {
  world::WorldDesc desc;
  desc.componentModels.push_back(
      {component, std::make_shared<const world::ImportedModel>(heavyBox(size))});
  auto created = world::World::create(worldtest::dims(), desc);
  if (!created) {
    ADD_FAILURE() << created.error();
    std::abort();
  }
  return std::move(*created);
}

// Every compute tray (18 per rack, the hero's open one aside) a heavy box.
world::World& heavyWorld() {
  static const std::unique_ptr<world::World> w = [] {
    const world::Dimensions& dims = worldtest::dims();
    return worldWithHeavy(world::component::COMPUTE_TRAY,
                          glm::vec3(dims.meters("compute_tray.width"),
                                    dims.number("compute_tray.height_u") * dims.rackUnit_m(),
                                    dims.meters("compute_tray.depth")));
  }();
  return *w;
}

// Every rack but the hero rack a heavy box: the row station opens racks, not trays.
world::World& heavyRackWorld() {
  static const std::unique_ptr<world::World> w = [] {
    const world::Dimensions& dims = worldtest::dims();
    return worldWithHeavy(world::component::RACK, glm::vec3(dims.meters("nvl72_rack.width"),
                                                            dims.meters("nvl72_rack.height"),
                                                            dims.meters("nvl72_rack.depth")));
  }();
  return *w;
}

world::FrameStats frame(world::World& w, const world::Camera& camera, uint64_t budget,
                        world::RenderList& list) {
  world::FrameDesc desc;
  desc.triangleBudget = budget;
  return w.buildRenderList(camera, desc, list);
}

// The compute tray prototypes (every tray but the hero's; one per rack build), now heavy boxes.
std::vector<world::PrototypeId> heavyTrays(const world::World& w) {
  std::vector<world::PrototypeId> trays;
  for (uint32_t i = 0; i < w.scene().prototypeCount(); ++i) {
    if (w.scene().prototype({i}).component == world::component::COMPUTE_TRAY) trays.push_back({i});
  }
  return trays;
}

}  // namespace

TEST(TriangleBudget, DefaultIsTheArchitecturesBudget) {
  EXPECT_EQ(world::FrameDesc{}.triangleBudget, TRIANGLE_BUDGET);
}

TEST(TriangleBudget, ATrayCountsItsModelsTriangles) {
  // Counted once at build: each replaced tray is the model (one mesh, one instance).
  const std::vector<world::PrototypeId> trays = heavyTrays(heavyWorld());
  ASSERT_FALSE(trays.empty());
  for (const world::PrototypeId tray : trays) {
    ASSERT_EQ(heavyWorld().scene().prototype(tray).parts.size(), 1u);
    EXPECT_EQ(heavyWorld().scene().fullTriangles(tray), HEAVY_TRIANGLES);
    const world::MeshId mesh = heavyWorld().scene().prototype(tray).parts[0].mesh;
    EXPECT_EQ(heavyWorld().meshes().mesh(mesh).triangleCount(), HEAVY_TRIANGLES);
  }
}

// `name`'s frame in `w` with and without the budget: within it, and over it without it when
// `overWithout`.
void expectStationWithinBudget(world::World& w, const char* name, bool overWithout) {
  world::RenderList list;
  const world::Station* s = w.station(name);
  ASSERT_NE(s, nullptr) << name;
  const world::FrameStats unlimited = frame(w, cameraAt(*s), NO_BUDGET, list);
  EXPECT_EQ(unlimited.triangles, list.triangleCount(w.meshes())) << name;
  EXPECT_EQ(unlimited.heldBack, 0u) << name;
  const world::FrameStats budgeted = frame(w, cameraAt(*s), TRIANGLE_BUDGET, list);
  EXPECT_EQ(budgeted.triangles, list.triangleCount(w.meshes())) << name;
  EXPECT_LE(budgeted.triangles, TRIANGLE_BUDGET) << name;
  EXPECT_GT(budgeted.instances, 0u) << name;
  if (overWithout) {
    EXPECT_GT(unlimited.triangles, TRIANGLE_BUDGET) << name;
    EXPECT_GT(budgeted.heldBack, 0u) << name;
  }
  std::printf("%s: %llu triangles, %u held back (%llu without the budget)\n", name,
              (unsigned long long)budgeted.triangles, budgeted.heldBack,
              (unsigned long long)unlimited.triangles);
}

TEST(TriangleBudget, RackAndRowStationsStayWithinBudgetWithHeavyTrays) {
  // Heavy trays fill the rack views (over the budget without it); the tray station's studio
  // shows its hero tray alone (built-in, never replaced), and at the row they are too small on
  // screen to open.
  expectStationWithinBudget(heavyWorld(), "tray", false);
  expectStationWithinBudget(heavyWorld(), "rack", true);
  expectStationWithinBudget(heavyWorld(), "rack_back", true);
  expectStationWithinBudget(heavyWorld(), "row", false);
}

TEST(TriangleBudget, RowAndHallStationsStayWithinBudgetWithHeavyRacks) {
  expectStationWithinBudget(heavyRackWorld(), "row", true);
  expectStationWithinBudget(heavyRackWorld(), "hall", false);
  expectStationWithinBudget(heavyRackWorld(), "campus", false);
}

TEST(TriangleBudget, FlightFromSmToCampusStaysWithinBudgetWithHeavyTrays) {
  world::RenderList list;
  uint64_t worstBudgeted = 0, worstUnlimited = 0;
  std::string worstAt;
  for (size_t leg = 0; leg + 1 < std::size(LADDER); ++leg) {
    const world::Station* a = heavyWorld().station(LADDER[leg]);
    const world::Station* b = heavyWorld().station(LADDER[leg + 1]);
    ASSERT_TRUE(a && b);
    const world::FlyTo flight(a->viewpoint, b->viewpoint);
    for (int i = 0; i <= 30; ++i) {
      world::Camera camera;
      camera.setPose(flight.sample(flight.duration_s() * i / 30.0));
      const uint64_t budgeted = frame(heavyWorld(), camera, TRIANGLE_BUDGET, list).triangles;
      EXPECT_GT(list.instances.size(), 0u) << LADDER[leg] << " step " << i;
      if (budgeted > worstBudgeted) {
        worstBudgeted = budgeted;
        worstAt =
            std::string(LADDER[leg]) + " -> " + LADDER[leg + 1] + " step " + std::to_string(i);
      }
      worstUnlimited =
          std::max(worstUnlimited, frame(heavyWorld(), camera, NO_BUDGET, list).triangles);
    }
  }
  EXPECT_LE(worstBudgeted, TRIANGLE_BUDGET) << "worst frame: " << worstAt;
  EXPECT_GT(worstUnlimited, TRIANGLE_BUDGET);
  std::printf("heavy trays, flight SM -> campus: worst frame %llu triangles (%llu unlimited)\n",
              (unsigned long long)worstBudgeted, (unsigned long long)worstUnlimited);
}

TEST(TriangleBudget, TraysLargestOnScreenOpenFirst) {
  // At the rack station, with room for only a few heavy trays: every tray of the hero row that
  // is in view and large enough to open but stays closed is no larger on screen than the smallest
  // one opened.
  const world::World& w = heavyWorld();
  const world::Station* rackStation = w.station("rack");
  ASSERT_NE(rackStation, nullptr);
  const world::Camera camera = cameraAt(*rackStation);
  world::RenderList list;
  const world::FrameStats stats = frame(heavyWorld(), camera, TRIANGLE_BUDGET, list);

  const std::vector<world::PrototypeId> heavy = heavyTrays(w);
  ASSERT_FALSE(heavy.empty());
  const float openPixels = w.scene().prototype(heavy[0]).lod.openPixels;
  std::vector<world::MeshId> heavyMeshes;
  for (const world::PrototypeId id : heavy) {
    heavyMeshes.push_back(w.scene().prototype(id).parts[0].mesh);
    EXPECT_EQ(w.scene().prototype(id).lod.openPixels, openPixels);
  }
  // The trays of the hero rack (the studio's hero: its neighbours are not drawn), in world space.
  std::vector<world::Aabb> trays;
  const auto row = w.scene().resolve(rackStation->studioPath);
  ASSERT_TRUE(row);
  auto collectTrays = [&](auto& self, world::PrototypeId id, const glm::dmat4& m) -> void {
    const world::Prototype& proto = w.scene().prototype(id);
    if (proto.component == world::component::COMPUTE_TRAY) {
      trays.push_back(world::transformAabb(m, proto.bounds));
      return;
    }
    for (const world::ChildInstance& child : w.scene().prototype(id).children) {
      self(self, child.prototype, m * child.local);
    }
  };
  collectTrays(collectTrays, row->second, row->first);
  ASSERT_GE(trays.size(), 17u);  // every compute tray but the hero's open one

  // The opened trays: each heavy-box instance sits at its tray's centre (the model is centred).
  std::vector<bool> opened(trays.size(), false);
  for (const world::DrawBatch& batch : list.batches) {
    if (std::find(heavyMeshes.begin(), heavyMeshes.end(), batch.mesh) == heavyMeshes.end()) {
      continue;
    }
    for (uint32_t k = 0; k < batch.instanceCount; ++k) {
      const gpu::Instance& inst = list.instances[batch.firstInstance + k];
      const glm::dvec3 at = camera.position() + glm::dvec3(inst.row0.w, inst.row1.w, inst.row2.w);
      bool matched = false;
      for (size_t t = 0; t < trays.size(); ++t) {
        if (glm::length(trays[t].center() - at) < 1e-3) opened[t] = matched = true;
      }
      EXPECT_TRUE(matched) << "a heavy tray outside the hero rack opened";
    }
  }

  // Projected bounding radius (px) and whether the centre lies well inside the view.
  const double focal = 0.5 * 720.0 / std::tan(0.5 * camera.verticalFov_rad());
  auto pixels = [&](const world::Aabb& b) {
    return 0.5 * glm::length(b.size()) / glm::length(b.center() - camera.position()) * focal;
  };
  auto inView = [&](const world::Aabb& b) {
    const glm::dvec3 rel = b.center() - camera.position();
    const double depth = glm::dot(rel, camera.forward());
    if (depth <= 0) return false;
    const double x = glm::dot(rel, camera.right()) / depth * focal;
    const double y = glm::dot(rel, camera.up()) / depth * focal;
    return std::abs(x) < 0.45 * 1280.0 && std::abs(y) < 0.45 * 720.0;
  };
  double smallestOpened = 1e300;
  uint32_t openedCount = 0;
  for (size_t t = 0; t < trays.size(); ++t) {
    if (!opened[t]) continue;
    ++openedCount;
    smallestOpened = std::min(smallestOpened, pixels(trays[t]));
  }
  ASSERT_GT(openedCount, 0u);
  EXPECT_LE(openedCount * HEAVY_TRIANGLES, TRIANGLE_BUDGET);
  uint32_t heldInView = 0;
  for (size_t t = 0; t < trays.size(); ++t) {
    if (opened[t] || !inView(trays[t]) || pixels(trays[t]) < openPixels) continue;
    ++heldInView;
    EXPECT_LE(pixels(trays[t]), smallestOpened) << "tray " << t << " held back";
  }
  EXPECT_GT(heldInView, 0u);
  EXPECT_GE(stats.heldBack, heldInView);
}

TEST(TriangleBudget, BuiltInWorldIsUnchangedByTheBudget) {
  // Its frames fit by design: the budget changes none of them.
  world::RenderList budgetedList, unlimitedList;
  std::vector<world::Camera> cameras;
  for (const world::Station& s : defaultWorld().stations()) cameras.push_back(cameraAt(s));
  for (size_t leg = 0; leg + 1 < std::size(LADDER); ++leg) {
    const world::FlyTo flight(defaultWorld().station(LADDER[leg])->viewpoint,
                              defaultWorld().station(LADDER[leg + 1])->viewpoint);
    for (int i = 1; i < 10; ++i) {
      cameras.emplace_back();
      cameras.back().setPose(flight.sample(flight.duration_s() * i / 10.0));
    }
  }
  for (size_t c = 0; c < cameras.size(); ++c) {
    const world::FrameStats budgeted =
        frame(defaultWorld(), cameras[c], TRIANGLE_BUDGET, budgetedList);
    const world::FrameStats unlimited = frame(defaultWorld(), cameras[c], NO_BUDGET, unlimitedList);
    EXPECT_EQ(budgeted.heldBack, 0u) << c;
    EXPECT_EQ(budgeted.triangles, unlimited.triangles) << c;
    EXPECT_EQ(budgeted.instances, unlimited.instances) << c;
    ASSERT_EQ(budgetedList.instances.size(), unlimitedList.instances.size()) << c;
    for (size_t i = 0; i < budgetedList.instances.size(); ++i) {
      EXPECT_EQ(budgetedList.instances[i].row0.w, unlimitedList.instances[i].row0.w) << c;
    }
  }
}

TEST(TriangleBudget, ATightBudgetHoldsTheBuiltInWorldToo) {
  // A third of what the rack station draws: some of the rack's trays stay closed, the frame fits.
  world::RenderList list;
  const world::Camera camera = cameraAt(*defaultWorld().station("rack"));
  const world::FrameStats full = frame(defaultWorld(), camera, NO_BUDGET, list);
  const uint64_t tight = full.triangles / 3;
  ASSERT_GT(tight, 0u);
  const world::FrameStats held = frame(defaultWorld(), camera, tight, list);
  EXPECT_LE(held.triangles, tight);
  EXPECT_EQ(held.triangles, list.triangleCount(defaultWorld().meshes()));
  EXPECT_GT(held.heldBack, 0u);
  EXPECT_GT(held.instances, 0u);
}

TEST(TriangleBudget, HeldBackFramesStillOutlineTheSelection) {
  // The second walk carries the selection: what is drawn of the hero rack is outlined, nothing
  // outside it is.
  world::World& w = heavyWorld();
  const world::Station* rack = w.station("rack");
  ASSERT_NE(rack, nullptr);
  const world::Camera camera = cameraAt(*rack);
  world::FrameDesc desc;
  desc.selectedPath = rack->path;
  world::RenderList list;
  const world::FrameStats stats = w.buildRenderList(camera, desc, list);
  ASSERT_GT(stats.heldBack, 0u);  // the budgeted walk made this list
  const world::Aabb bounds = *w.scene().worldBounds(rack->path);
  uint32_t outlined = 0;
  for (const gpu::Instance& inst : list.instances) {
    const glm::dvec3 at = camera.position() + glm::dvec3(inst.row0.w, inst.row1.w, inst.row2.w);
    const bool inside = glm::all(glm::greaterThanEqual(at, bounds.min - 1e-6)) &&
                        glm::all(glm::lessThanEqual(at, bounds.max + 1e-6));
    if (inst.params.z == 1.0f) {
      ++outlined;
      EXPECT_TRUE(inside);
    }
  }
  EXPECT_GT(outlined, 18u);  // at least the rack's trays, opened or held back
}
