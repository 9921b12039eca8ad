// Fill rate at the rack station, for every system the world draws: software Vulkan runs out of
// fragments before anything else (docs/performance.md), so the rack of each system is held to
// the fragment-shader invocations per pixel the station budget allows, a figure that, unlike a
// frame time, does not move with the machine's load. The DGX H100 rack once drew 122,220
// triangles at 8.3 invocations per pixel (the heatsink fins inside every closed chassis of its
// row) against the NVL72 rack's 5,904 at 1.0.
#include <cstdio>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "sim/catalog.h"
#include "sim/engine/engine.h"
#include "sim/engine/request.h"
#include "sim/scenario.h"
#include "tests/common/shipped_catalog.h"
#include "tests/renderer/fixtures.h"
#include "tests/renderer/session_world.h"
#include "world/world.h"

namespace {

// docs/performance.md, "World swap": a station's scene may cost at most 2 fragment-shader
// invocations per pixel (llvmpipe counts them per 4x4 block before the early depth test, so the
// figure is an upper bound on the shading work).
constexpr double MAX_FRAGMENTS_PER_PIXEL = 2.0;
constexpr VkExtent2D SIZE{1280, 720};

// The world of the analytic scenario `name` (assets/scenarios), built from its engine's cluster
// as a session builds it (app::worldPlanOf: layoutOf, campusOf).
std::unique_ptr<world::World> worldOf(const std::string& name) {
  const sim::Catalog* catalog = &testcatalog::shipped();
  auto scenario = sim::loadScenario(name);
  EXPECT_TRUE(scenario) << scenario.error();
  auto desc = sim::engine::engineDescFromScenario(*scenario);
  EXPECT_TRUE(desc) << desc.error();
  auto engine = sim::engine::Engine::create(*catalog, *desc);
  EXPECT_TRUE(engine) << engine.error();
  if (!catalog || !scenario || !desc || !engine) return nullptr;
  return fixtures::worldOfCluster((*engine)->cluster());
}

struct Fill {
  double fragmentsPerPixel = -1;
  uint64_t triangles = 0;
  uint32_t heldBack = 0;
};

// The scene of `station` as its still draws it (its studio named), measured by the renderer's
// pipeline-statistics query.
Fill fillAt(renderer::Renderer& r, world::World& w, const std::string& station) {
  const world::Station* s = w.station(station);
  EXPECT_NE(s, nullptr) << station;
  if (!s) return {};
  world::Camera camera;
  camera.setPose(world::toPose(s->viewpoint));
  world::FrameDesc frame{SIZE.width, SIZE.height};
  frame.studio = station;
  world::RenderList list;
  Fill fill;
  const world::FrameStats built = w.buildRenderList(camera, frame, list);
  fill.triangles = built.triangles;
  fill.heldBack = built.heldBack;
  r.setMeshes(w.meshes());
  r.setMeasureOverdraw(true);
  // A frame's queries are read when its slot in the ring comes round again: the same still,
  // drawn until the figures read back are one of its own.
  const uint64_t first = r.framesSubmitted();
  for (int i = 0; i < 4 && r.lastFrameStats().gpuFrameIndex <= first; ++i) {
    r.renderToPixels(list, nullptr, SIZE);
  }
  const renderer::FrameStats& stats = r.lastFrameStats();
  if (stats.fragmentInvocations >= 0 && stats.gpuFrameIndex >= first) {
    fill.fragmentsPerPixel = double(stats.fragmentInvocations) / (double(SIZE.width) * SIZE.height);
  }
  return fill;
}

}  // namespace

TEST(StationFill, EverySystemsRackStaysWithinTheFragmentBudget) {
  auto r = fixtures::makeHeadless();
  ASSERT_TRUE(r);
  const uint32_t before = vkutil::validationErrorCount();
  Fill nvl72;
  for (const char* scenario : {"llama405b-training-16k-gb200", "llama405b-training-16k-h100",
                               "llama70b-fp8-inference-b200", "llama8b-inference-h200"}) {
    SCOPED_TRACE(scenario);
    auto w = worldOf(scenario);
    ASSERT_TRUE(w);
    for (const char* station : {"rack", "rack_back"}) {
      SCOPED_TRACE(station);
      const Fill fill = fillAt(*r, *w, station);
      if (fill.fragmentsPerPixel < 0) GTEST_SKIP() << "the device has no pipeline statistics";
      EXPECT_LE(fill.fragmentsPerPixel, MAX_FRAGMENTS_PER_PIXEL);
      EXPECT_GT(fill.fragmentsPerPixel, 0.1);  // the rack is drawn at all
      if (std::string(scenario).find("gb200") != std::string::npos) {
        if (std::string(station) == "rack") nvl72 = fill;
        continue;
      }
      // An 8-GPU system's cabinet (four chassis, one open) is no more geometry than the NVL72
      // rack's 18 compute trays, 9 switch trays and power shelves, one tray open.
      EXPECT_LE(fill.triangles, nvl72.triangles);
    }
  }
  EXPECT_EQ(vkutil::validationErrorCount(), before);
}

// docs/performance.md, "Budgets": at most 150,000 triangles in any frame.
constexpr uint64_t MAX_TRIANGLES = 150'000;

// Stations not yet within the fragment budget (issue 33), each held to its figure measured at
// 1280x720 so that it cannot get worse unseen (llvmpipe's counts, rounded up by 0.05):
// - row: the hero row's open racks (their side panels, posts and manifolds) and six rows'
//   overhead pipes, over the closed racks of the rows behind;
// - fabric: the spine racks' side panels (seen through the 10 cm between racks) and ladder trays;
// - campus: the site's grass that shows, over most of the frame, under the buildings, yards and
//   plants on it, and their masts, pipes and lines (its hidden grass and fields are holes now).
const std::map<std::string, double> KNOWN_FRAGMENT_LIMITS = {
    {"row", 2.61}, {"fabric", 2.14}, {"campus", 2.27}};

// Every station of the bench's station path (the ladder, app/modes/bench_paths.cpp), as its still
// draws it: within the fragment and triangle budgets with nothing held back as a proxy (the
// triangle budget's walk leaves the smallest parts closed when a frame asks for more). The row
// once asked for 6.6 invocations per pixel and the hbm station for 7 (issue 33); the hbm station's
// last 1.4 above the budget were the substrate's top under the interposer and the interposer's
// under the dies and stacks, each covering most of the frame (now tops with holes, addBoxUnder).
TEST(StationFill, EveryStationOfTheStationPathStaysWithinTheBudgets) {
  auto r = fixtures::makeHeadless();
  auto w = fixtures::tourWorld();
  ASSERT_TRUE(r && w);
  const uint32_t before = vkutil::validationErrorCount();
  int measured = 0;
  std::printf("%-10s %9s %9s %5s\n", "station", "frag/px", "triangles", "held");
  for (const world::Station& s : w->stations()) {
    if (!s.onLadder) continue;
    SCOPED_TRACE(s.name);
    const Fill fill = fillAt(*r, *w, s.name);
    if (fill.fragmentsPerPixel < 0) GTEST_SKIP() << "the device has no pipeline statistics";
    std::printf("%-10s %9.2f %9llu %5u\n", s.name.c_str(), fill.fragmentsPerPixel,
                static_cast<unsigned long long>(fill.triangles), fill.heldBack);
    const auto known = KNOWN_FRAGMENT_LIMITS.find(s.name);
    EXPECT_LE(fill.fragmentsPerPixel,
              known == KNOWN_FRAGMENT_LIMITS.end() ? MAX_FRAGMENTS_PER_PIXEL : known->second);
    EXPECT_GT(fill.fragmentsPerPixel, 0.1);  // the station is drawn at all
    EXPECT_LE(fill.triangles, MAX_TRIANGLES);
    EXPECT_EQ(fill.heldBack, 0u);
    ++measured;
  }
  // The ladder (world/builders/stations.cpp): sm, die, hbm, package, tray, rack, row, fabric,
  // hall, cooling, campus.
  EXPECT_EQ(measured, 11);
  EXPECT_EQ(vkutil::validationErrorCount(), before);
}
