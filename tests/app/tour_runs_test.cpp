// Headless tour runs check what each step will simulate before rendering (issue 19): a chapter
// whose scenario preset is malformed, or whose fault names a target the cluster does not have,
// used to render with exit 0 and nothing on stderr.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/session/tour_session.h"
#include "sim/catalog.h"
#include "sim/engine/scenarios.h"
#include "sim/scenario.h"
#include "tests/common/cli.h"
#include "tests/common/shipped_catalog.h"
#include "world/tour/tour.h"

namespace {

namespace fs = std::filesystem;

// `text` between `open` and `close` (appended: GCC 12 warns, falsely, on "x" + string).
std::string between(std::string_view text, char open, char close) {
  std::string out(1, open);
  out.append(text).push_back(close);
  return out;
}

// A copy of the shipped assets (catalog, panels and scenarios linked, tours copied) that a test
// may break; DCWALK_ASSETS points dcwalk at it.
struct Assets {
  fs::path dir;
  explicit Assets(const std::string& name) {
    dir = fs::path(DCWALK_BINARY_DIR) / "tour-runs-test" / name;
    fs::remove_all(dir);
    fs::create_directories(dir / "scenarios");
    const fs::path shipped = sim::assetsDir();
    fs::create_directory_symlink(fs::absolute(shipped / "catalog"), dir / "catalog");
    fs::create_symlink(fs::absolute(shipped / "panels.json"), dir / "panels.json");
    fs::copy(shipped / "tours", dir / "tours", fs::copy_options::recursive);
    for (const auto& entry : fs::directory_iterator(shipped / "scenarios"))
      fs::create_symlink(fs::absolute(entry.path()), dir / "scenarios" / entry.path().filename());
  }
  testcli::CliRun tour(const std::string& chapter) const {
    return testcli::dcwalk("tour --headless --size 64x64 --chapter " + chapter + " --out '" +
                               (dir / "out").string() + "'",
                           true, "DCWALK_ASSETS='" + dir.string() + "'");
  }
  nlohmann::json defaultTour() const {
    std::ifstream in(dir / "tours" / "default.json");
    return nlohmann::json::parse(in);
  }
  void writeDefaultTour(const nlohmann::json& tour) const {
    std::ofstream(dir / "tours" / "default.json") << tour.dump(2);
  }
};

}  // namespace

TEST(TourRuns, AChapterWithAMalformedScenarioExitsTwoNamingFileAndChapter) {
  Assets assets("malformed-scenario");
  const std::string name = assets.defaultTour()["chapters"][0]["scenario"];
  fs::remove(assets.dir / "scenarios" / (name + ".json"));
  std::ofstream(assets.dir / "scenarios" / (name + ".json")) << "{\"cluster\": 7}\n";
  auto run = assets.tour("1");
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_NE(run.out.find("default.json:"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("chapter 1 \"serial_vs_parallel\""), std::string::npos) << run.out;
  EXPECT_NE(run.out.find(name + ".json"), std::string::npos) << run.out;
  EXPECT_FALSE(fs::exists(assets.dir / "out" / "contact-sheet.png"));
}

TEST(TourRuns, AFaultTargetTheClusterLacksExitsTwoNamingTheStep) {
  Assets assets("fault-target");
  nlohmann::json tour = assets.defaultTour();
  nlohmann::json& step = tour["chapters"][0]["steps"][0];
  step["engine_scenario"] = "training_405b";
  step["faults"] = {{{"kind", "pump_trip"}, {"start_s", 1}, {"target", 4294967295.0}}};
  assets.writeDefaultTour(tour);
  auto run = assets.tour("1");
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_NE(run.out.find("(/chapters/0/steps/0)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("4294967295"), std::string::npos) << run.out;
}

TEST(TourRuns, TheShippedTourPassesTheCheck) {
  const sim::Catalog* catalog = &testcatalog::shipped();
  world::TourReferences refs;
  auto file = sim::readJsonFile(world::toursDir() / "default.json");
  ASSERT_TRUE(file) << file.error();
  // Every name the shipped tour uses, as the references: this test checks what steps run.
  for (const auto& chapter : file->root["chapters"])
    for (const auto& step : chapter["steps"])
      if (step.contains("station")) refs.stations.push_back(step["station"]);
  refs.scenarios = sim::builtinScenarioNames();
  refs.engineScenarios = sim::engine::builtinScenarioNames();
  auto tour = world::parseTour(*file, refs);
  ASSERT_TRUE(tour) << tour.error();
  auto runs = app::checkTourRuns(*tour, *catalog);
  EXPECT_TRUE(runs) << runs.error();
}

// Issue 40 (old HEAD: exit 0, "{trace.bogus} {nope.key}" drawn raw in chapter 1's caption): an
// unknown placeholder is refused when the tour loads, naming the tour file, chapter, strings
// file, key and placeholder, before anything is rendered.
TEST(TourRuns, AnUnknownPlaceholderIsRefusedWhenTheTourLoads) {
  for (const char* placeholder : {"trace.bogus", "trace.measured.speed", "engine.nope",
                                  "catalog:gpus.h100_sxm.nope", "memory.nope"}) {
    Assets assets("placeholder");
    const fs::path strings = assets.dir / "tours" / "strings.de.json";
    auto texts = nlohmann::json::parse(std::ifstream(strings));
    const std::string key = assets.defaultTour()["chapters"][0]["steps"][0]["narration"][0];
    texts[key] = texts[key].get<std::string>() + " {" + placeholder + "}";
    std::ofstream(strings) << texts.dump(2);
    auto run = assets.tour("1");
    EXPECT_EQ(run.status, 2) << placeholder << "\n" << run.out;
    for (const std::string& words :
         {std::string("default.json:"), std::string("chapter 1 \"serial_vs_parallel\""),
          std::string("strings.de.json"), between(key, '"', '"'), between(placeholder, '{', '}')})
      EXPECT_NE(run.out.find(words), std::string::npos) << words << "\n" << run.out;
    EXPECT_FALSE(fs::exists(assets.dir / "out" / "contact-sheet.png"));
  }
}

// A chapter with a panel but no scenario showed ": no such scenario file ..." in the panel.
TEST(TourRuns, APanelWithoutAScenarioIsRefused) {
  Assets assets("panel-without-scenario");
  nlohmann::json tour = assets.defaultTour();
  tour["chapters"][0].erase("scenario");
  for (auto& step : tour["chapters"][0]["steps"]) step.erase("scenario");
  assets.writeDefaultTour(tour);
  auto run = assets.tour("1");
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_NE(run.out.find("needs a \"scenario\""), std::string::npos) << run.out;
}

TEST(TourRuns, TheShippedTourTextPassesTheCheck) {
  const sim::Catalog* catalog = &testcatalog::shipped();
  auto file = sim::readJsonFile(world::toursDir() / "default.json");
  ASSERT_TRUE(file) << file.error();
  world::TourReferences refs;
  for (const auto& chapter : file->root["chapters"])
    for (const auto& step : chapter["steps"])
      if (step.contains("station")) refs.stations.push_back(step["station"]);
  refs.scenarios = sim::builtinScenarioNames();
  refs.engineScenarios = sim::engine::builtinScenarioNames();
  auto bundle = world::loadTourBundle("default", refs);
  ASSERT_TRUE(bundle) << bundle.error();
  EXPECT_GE(bundle->languages.size(), 2u);
  auto text = app::checkTourText(*bundle, *catalog);
  EXPECT_TRUE(text) << text.error();
}
