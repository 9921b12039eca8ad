// One source of counts (issue 20): for every built-in scenario, each count the scene draws —
// racks (NVLink domains), compute trays and GPUs per domain, NVLink switch chips, leaf switches
// per row and their rails, spine and core switches, CDUs — equals the engine's. The expected
// figures are read from the engine's cluster (its NIC cables, leaf uplinks, rack-to-CDU map), the
// drawn ones by walking the scene's instances.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>
#include <string>

#include "sim/catalog.h"
#include "sim/engine/engine.h"
#include "sim/engine/request.h"
#include "sim/engine/scenarios.h"
#include "sim/scenario.h"
#include "tests/common/shipped_catalog.h"
#include "world/world.h"

namespace {

using sim::engine::Cluster;

bool startsWith(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

// Instances below `proto` (any depth) whose name passes `pick`, each counted once per path.
int countBelow(const world::Scene& scene, world::PrototypeId proto,
               const std::function<bool(const std::string&)>& pick) {
  int n = 0;
  for (const world::ChildInstance& child : scene.prototype(proto).children) {
    if (pick(child.name)) ++n;
    n += countBelow(scene, child.prototype, pick);
  }
  return n;
}

int countParts(const world::Scene& scene, world::PrototypeId proto, const char* prefix) {
  int n = 0;
  for (const world::Part& part : scene.prototype(proto).parts) n += startsWith(part.name, prefix);
  for (const world::ChildInstance& child : scene.prototype(proto).children)
    n += countParts(scene, child.prototype, prefix);
  return n;
}

// "spine12": the prefix and a number, nothing else.
bool numbered(const std::string& name, const char* prefix) {
  const size_t n = std::string(prefix).size();
  return startsWith(name, prefix) && name.size() > n &&
         name.find_first_not_of("0123456789", n) == std::string::npos;
}

bool isLeaf(const std::string& name) {
  return startsWith(name, "leaf") && name.find("_rail") != std::string::npos;
}

bool isGpu(const std::string& name) {
  const size_t under = name.find("_gpu");
  return under != std::string::npos &&
         (startsWith(name, "superchip") || startsWith(name, "baseboard"));
}

struct Case {
  std::string name;
  sim::engine::EngineDesc desc;
};

std::vector<Case> builtInScenarios(std::vector<std::string>& refused) {
  std::vector<Case> cases;
  for (const std::string& name : sim::engine::builtinScenarioNames())
    cases.push_back({name, *sim::engine::builtinScenario(name)});
  for (const auto& entry : std::filesystem::directory_iterator(sim::assetsDir() / "scenarios")) {
    if (entry.path().extension() != ".json") continue;
    auto scenario = sim::loadScenarioFile(entry.path());
    EXPECT_TRUE(scenario.ok()) << scenario.error();
    if (!scenario) continue;
    auto desc = sim::engine::engineDescFromScenario(*scenario);
    if (!desc) {  // the engine runs catalog GPUs only (an inline accelerator is the calculators')
      refused.push_back(entry.path().filename().string() + ": " + desc.error());
      continue;
    }
    cases.push_back({entry.path().stem().string(), *desc});
  }
  return cases;
}

void checkCounts(const Case& c, const sim::Catalog& catalog, const world::Dimensions& dims) {
  SCOPED_TRACE(c.name);
  auto engine = sim::engine::Engine::create(catalog, c.desc);
  ASSERT_TRUE(engine.ok()) << engine.error();
  const Cluster& cl = (*engine)->cluster();
  auto layout = world::layoutOf(cl, dims, dims.count("row.racks_per_su"));
  ASSERT_TRUE(layout.ok()) << layout.error();
  world::WorldDesc desc;
  desc.campus = world::campusOf(*layout, int(cl.campusRacks));
  auto built = world::World::create(dims, desc);
  ASSERT_TRUE(built.ok()) << built.error();
  const world::World& w = **built;
  const world::Scene& scene = w.scene();

  // Racks: one drawn NVLink domain per engine rack, campus-wide.
  ASSERT_EQ(w.racks().rackCount(), cl.campusRacks);
  // Inside the hero domain: trays, GPUs, NVLink switch chips.
  const auto hero = scene.resolve(w.racks().pathOfRack(0));
  ASSERT_TRUE(hero.has_value());
  const world::PrototypeId rack = hero->second;
  // Closed NVL72 trays are drawn shut; the open hero tray shows its GPUs.
  int trays = 0, gpusPerTray = 0;
  for (const world::ChildInstance& child : scene.prototype(rack).children) {
    if (!startsWith(child.name, "compute_tray")) continue;
    ++trays;
    gpusPerTray = std::max(gpusPerTray, countBelow(scene, child.prototype, isGpu));
  }
  EXPECT_EQ(uint32_t(gpusPerTray), cl.gpusPerTray);
  EXPECT_EQ(uint32_t(trays * gpusPerTray), cl.gpusPerRack);
  const sim::SystemSpec& sys = cl.specs.system;
  if (layout->chassis()) {
    EXPECT_EQ(countParts(scene, rack, "NVSwitch package"), sys.scaleUpSwitchChips);
  } else {
    const int switchTrays =
        countBelow(scene, rack, [](const std::string& n) { return startsWith(n, "switch_tray"); });
    EXPECT_EQ(switchTrays, sys.switchTrays);
    EXPECT_EQ(switchTrays * dims.count("switch_tray.switch_chips"), sys.scaleUpSwitchChips);
  }

  // Leaves by row: a leaf stands in the row of the first rack whose NICs land on it.
  std::vector<uint32_t> firstRack(cl.leaves, UINT32_MAX);
  for (uint32_t g = 0; g < cl.gpuCount(); ++g)
    firstRack[cl.gpuLeaf[g]] = std::min(firstRack[cl.gpuLeaf[g]], cl.gpus[g].rack.index);
  const auto& halls = w.racks().rowStarts();
  int fullRows = 0;
  for (size_t h = 0; h < halls.size(); ++h) {
    for (size_t r = 0; r + 1 < halls[h].size(); ++r) {
      const uint32_t a = halls[h][r], b = halls[h][r + 1];
      const auto row = scene.resolve("hall" + std::to_string(h) + "/row" + std::to_string(r));
      ASSERT_TRUE(row.has_value());
      const int leaves = countBelow(scene, row->second, isLeaf);
      const int cdus = countBelow(scene, row->second, [](const std::string& n) {
        return n == "cdu" || numbered(n, "cdu");
      });
      if (b > cl.racks || b - a < uint32_t(world::domainsPerRow(dims, *layout))) continue;
      ++fullRows;  // a whole row of modelled racks: drawn exactly as the engine wires it
      int expectedLeaves = 0;
      for (uint32_t first : firstRack) expectedLeaves += first >= a && first < b;
      EXPECT_EQ(leaves, expectedLeaves) << "hall " << h << " row " << r;
      std::set<uint32_t> engineCdus;
      for (uint32_t k = a; k < b; ++k) engineCdus.insert(cl.rackCdu[k]);
      EXPECT_EQ(size_t(cdus), engineCdus.size()) << "hall " << h << " row " << r;
    }
  }
  if (fullRows == 0) {
    // Less than a row modelled: row 0 is drawn as the mirrored racks' pattern: the engine's
    // rail groups and CDUs over a whole row.
    const uint32_t perRow = uint32_t(world::domainsPerRow(dims, *layout));
    const auto row = scene.resolve("hall0/row0");
    ASSERT_TRUE(row.has_value());
    const uint32_t groups = (perRow + cl.racksPerRailGroup - 1) / cl.racksPerRailGroup;
    EXPECT_EQ(uint32_t(countBelow(scene, row->second, isLeaf)), groups * cl.rails);
  }
  // Rails: the distinct rails of row 0's leaves are the engine's.
  std::set<std::string> rails;
  const auto row0 = scene.resolve("hall0/row0");
  ASSERT_TRUE(row0.has_value());
  countBelow(scene, row0->second, [&](const std::string& n) {
    const size_t at = n.find("_rail");
    if (startsWith(n, "leaf") && at != std::string::npos) rails.insert(n.substr(at));
    return false;
  });
  EXPECT_EQ(rails.size(), std::min<size_t>(cl.rails, size_t(layout->fabric.leavesPerRow)));

  // Spines and cores of the modelled fabric stand in hall 0.
  const auto fabric = scene.resolve("hall0/fabric");
  ASSERT_TRUE(fabric.has_value());
  auto tier = [&](const char* prefix) {
    return uint32_t(countBelow(scene, fabric->second,
                               [&](const std::string& n) { return numbered(n, prefix); }));
  };
  EXPECT_EQ(tier("spine"), cl.spines);
  EXPECT_EQ(tier("core"), cl.cores);
}

}  // namespace

TEST(SystemCounts, EverySceneCountIsTheEnginesForEveryBuiltInScenario) {
  const sim::Catalog* catalog = &testcatalog::shipped();
  auto dims = world::Dimensions::fromCatalog(*catalog);
  ASSERT_TRUE(dims.ok()) << dims.error();
  std::vector<std::string> refused;
  const std::vector<Case> cases = builtInScenarios(refused);
  ASSERT_GE(cases.size(), sim::engine::builtinScenarioNames().size() + 4);
  for (const Case& c : cases) checkCounts(c, *catalog, *dims);
  // Only the inline accelerator (mi300x given by figures) is not the engine's to run.
  for (const std::string& why : refused)
    EXPECT_NE(why.find("mixtral-inference-mi300x"), std::string::npos) << why;
}

TEST(SystemCounts, HeroLeafRackHoldsTheHeroRacksRailLeaves) {
  // The mismatch of issue 20: the engine's hero NVL72 rack lands its 72 NICs on 9 rail leaves;
  // the row's leaf rack must hold them (and the second rail group's 9).
  const sim::Catalog* catalog = &testcatalog::shipped();
  auto dims = world::Dimensions::fromCatalog(*catalog);
  auto engine =
      sim::engine::Engine::create(*catalog, *sim::engine::builtinScenario("training_405b"));
  ASSERT_TRUE(engine.ok());
  const Cluster& cl = (*engine)->cluster();
  std::set<uint32_t> heroLeaves;
  for (uint32_t g = 0; g < cl.gpusPerRack; ++g) heroLeaves.insert(cl.gpuLeaf[g]);
  EXPECT_EQ(heroLeaves.size(), 9u);  // 72 GPUs on 32-port leaf halves: 9 rails tile 4 racks
  auto layout = world::layoutOf(cl, *dims, dims->count("row.racks_per_su"));
  ASSERT_TRUE(layout.ok());
  world::WorldDesc desc;
  desc.campus = world::campusOf(*layout, int(cl.campusRacks));
  auto w = world::World::create(*dims, desc);
  ASSERT_TRUE(w.ok());
  const auto leafRack = (*w)->scene().resolve("hall0/row0/leaf_rack");
  ASSERT_TRUE(leafRack.has_value());
  EXPECT_EQ(countBelow((*w)->scene(), leafRack->second, isLeaf),
            18);  // 8 racks = 2 rail groups of 4 racks x 9 leaves
}
