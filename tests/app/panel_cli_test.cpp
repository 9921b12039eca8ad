// Each chapter's simulator panel shows the numbers `dcwalk sim` prints for the same settings:
// for every chapter of the shipped tour, its panel is evaluated in-process with each scenario the
// chapter uses, at the defaults and at non-default knob settings, and every row is compared with
// the real CLI's JSON (`dcwalk sim --scenario S --set ... --json`). The pixel race, computed by the
// panel engine from catalog figures, is compared with an independent calculation here.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "app/ui/panel_view.h"
#include "app/ui/panels.h"
#include "sim/catalog.h"
#include "sim/scenario.h"
#include "tests/common/cli.h"
#include "tests/common/paths.h"
#include "tests/common/shipped_catalog.h"
#include "world/tour/tour.h"

namespace {

using Json = nlohmann::json;

Json readJson(const std::filesystem::path& path) {
  std::ifstream in(path);
  Json j = Json::parse(in, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << path;
  return j;
}

const sim::Catalog& catalog() {
  return testcatalog::shipped();
}

// A chapter as the tour file states it: its panel and every scenario its steps use.
struct ChapterUse {
  std::string id;
  std::string panel;
  std::vector<std::string> scenarios;
};

// Read straight from the JSON (no world needed): chapter "scenario" is the default of its steps.
std::vector<ChapterUse> tourChapters() {
  const Json tour = readJson(testpaths::sourceDir() / "assets" / "tours" / "default.json");
  std::vector<ChapterUse> out;
  for (const Json& chapter : tour.at("chapters")) {
    ChapterUse use{chapter.at("id"), chapter.at("panel"), {}};
    const std::string fallback = chapter.value("scenario", std::string());
    std::set<std::string> seen;
    for (const Json& step : chapter.at("steps")) {
      const std::string s = step.value("scenario", fallback);
      if (!s.empty() && seen.insert(s).second) use.scenarios.push_back(s);
    }
    out.push_back(std::move(use));
  }
  return out;
}

// `dcwalk sim --json` for a scenario and the panel's --set assignments.
Json cliJson(const std::string& scenario, const std::vector<std::string>& sets) {
  std::string args = "sim --json --scenario " + scenario;
  for (const std::string& s : sets) args += " --set '" + s + "'";
  const testcli::CliRun run = testcli::dcwalk(args, false);
  EXPECT_EQ(run.status, 0) << args << "\n" << run.out;
  Json j = Json::parse(run.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << args;
  return j.is_discarded() ? Json::object() : j;
}

const Json* cliValue(const Json& cli, const std::string& dottedKey) {
  const size_t dot = dottedKey.find('.');
  const std::string section = dottedKey.substr(0, dot), key = dottedKey.substr(dot + 1);
  if (!cli.contains(section) || !cli.at(section).contains(key)) return nullptr;
  return &cli.at(section).at(key);
}

void expectSameNumber(double panel, double cli, const std::string& what) {
  EXPECT_NEAR(panel, cli, std::fabs(cli) * 1e-9) << what;
}

// Independent pixel race: pixels / (lanes x clock) from the catalog files themselves.
std::map<std::string, double> expectedRace(const app::PixelRace& race, const std::string& gpu) {
  const Json gpus = readJson(testpaths::sourceDir() / "assets" / "catalog" / "gpus.json");
  const Json& c = gpus.at("cpus").at(race.cpu);
  const Json& g = gpus.at("gpus").at(gpu);
  auto v = [](const Json& entry, const char* name) {
    return entry.at(name).at("value").get<double>();
  };
  std::map<std::string, double> e;
  e["pixels"] = race.width_px * race.height_px;
  e["cpu_lanes"] = v(c, "cores") * v(c, "avx512_fp32_lanes_per_core");
  e["cpu_clock_Hz"] = v(c, "base_clock_Hz");
  e["cpu_pixels_per_s"] = e["cpu_lanes"] * e["cpu_clock_Hz"];
  e["cpu_frame_s"] = e["pixels"] / e["cpu_pixels_per_s"];
  e["gpu_lanes"] = v(g, "sm_count") * v(g, "fp32_lanes_per_sm");
  e["gpu_clock_Hz"] = v(g, "max_clock_Hz");
  e["gpu_pixels_per_s"] = e["gpu_lanes"] * e["gpu_clock_Hz"];
  e["gpu_frame_s"] = e["pixels"] / e["gpu_pixels_per_s"];
  e["gpu_speedup"] = e["cpu_frame_s"] / e["gpu_frame_s"];
  return e;
}

// Knob settings to try: the defaults, then each knob alone at non-default values.
std::vector<std::vector<double>> knobSettings(const app::Panel& panel,
                                              const app::PanelView& defaults) {
  std::vector<std::vector<double>> out{app::defaultKnobValues(panel)};
  for (size_t i = 0; i < panel.knobs.size(); ++i) {
    const app::PanelKnob& knob = panel.knobs[i];
    std::vector<double> candidates;
    if (!knob.choices.empty()) {
      for (size_t c = 0; c < knob.choices.size(); ++c) candidates.push_back(double(c));
    } else {
      candidates = {knob.max,
                    knob.min + std::floor((knob.max - knob.min) / 3 / knob.step) * knob.step};
    }
    for (double value : candidates) {
      if (value == defaults.knobs[i].value) continue;
      std::vector<double> values = app::defaultKnobValues(panel);
      values[i] = value;
      out.push_back(values);
    }
  }
  return out;
}

struct Coverage {
  size_t comparisons = 0;
  size_t nonDefaultSettings = 0;
  bool vramOom = false;
};

// Evaluates one panel setting in-process and through the CLI; every row must agree.
void compareWithCli(const app::Panel& panel, const std::string& scenarioName,
                    const sim::ScenarioDesc& base, const std::vector<double>& values,
                    Coverage& coverage) {
  const app::PanelView view = app::evaluatePanel(panel, base, values, catalog());
  const std::vector<std::string> sets = app::panelAssignments(panel, values);
  std::string what = panel.id + " on " + scenarioName;
  for (const std::string& s : sets) what += " --set " + s;
  ASSERT_TRUE(view.error.empty()) << what << ": " << view.error;
  EXPECT_EQ(view.assignments, sets) << what;
  ASSERT_EQ(view.rows.size(), panel.rows.size()) << what;
  const Json cli = cliJson(scenarioName, sets);
  for (const app::PanelRowView& row : view.rows) {
    const std::string at = what + ": " + row.key;
    if (row.key.rfind("race.", 0) == 0) {
      const Json* gpu = cliValue(cli, "hardware.gpu");
      ASSERT_NE(gpu, nullptr) << at;
      const auto expected = expectedRace(*panel.race, gpu->get<std::string>());
      expectSameNumber(row.value, expected.at(row.key.substr(5)), at);
      ++coverage.comparisons;
      continue;
    }
    const Json* value = cliValue(cli, row.key);
    ASSERT_NE(value, nullptr) << at << " is not in the CLI output";
    if (value->is_boolean()) {
      EXPECT_TRUE(row.isFlag) << at;
      EXPECT_EQ(row.value, value->get<bool>() ? 1.0 : 0.0) << at;
    } else if (value->is_string()) {
      EXPECT_EQ(row.text, value->get<std::string>()) << at;
    } else {
      expectSameNumber(row.value, value->get<double>(), at);
    }
    ++coverage.comparisons;
  }
  if (view.bar) {
    const app::PanelBar& bar = *panel.bar;
    const double capacity = cliValue(cli, bar.capacityKey)->get<double>();
    expectSameNumber(view.bar->capacity, capacity, what + ": bar capacity");
    double sum = 0;
    for (size_t i = 0; i < bar.segments.size(); ++i) {
      const app::PanelBarSegment& s = bar.segments[i];
      if (!s.key.empty()) {
        const double v = cliValue(cli, s.key)->get<double>();
        expectSameNumber(view.bar->segments[i].value, v, what + ": segment " + s.key);
        sum += v;
      }
    }
    for (size_t i = 0; i < bar.segments.size(); ++i) {
      const app::PanelBarSegment& s = bar.segments[i];
      if (s.key.empty()) {
        const double total = cliValue(cli, s.remainder)->get<double>();
        EXPECT_NEAR(view.bar->segments[i].value, total - sum, total * 1e-9) << what;
        sum = total;
      }
    }
    EXPECT_EQ(view.oom, sum > capacity) << what;
    if (const Json* fits = cliValue(cli, "memory.fits")) {
      EXPECT_EQ(view.oom, !fits->get<bool>()) << what << ": the bar and memory.fits disagree";
      if (panel.id == "vram_budget" && view.oom) coverage.vramOom = true;
    }
  }
  // The knobs the visitor moved show the value the CLI was given.
  for (size_t i = 0; i < panel.knobs.size(); ++i) {
    if (std::isnan(values[i])) continue;
    if (panel.knobs[i].choices.empty()) {
      EXPECT_NEAR(view.knobs[i].value, values[i], panel.knobs[i].step * 1e-9) << what;
    } else {
      EXPECT_EQ(view.knobs[i].value, values[i]) << what;
    }
    ++coverage.nonDefaultSettings;
  }
}

}  // namespace

TEST(PanelCli, EveryChapterPanelShowsTheNumbersOfDcwalkSim) {
  auto panels = app::loadPanels(testpaths::sourceDir() / "assets" / "panels.json");
  ASSERT_TRUE(panels.ok()) << panels.error();
  const std::vector<ChapterUse> chapters = tourChapters();
  ASSERT_EQ(chapters.size(), 11u);  // ten chapters and the finale (docs/product.md)
  std::set<std::string> panelsSeen;
  Coverage coverage;
  for (const ChapterUse& chapter : chapters) {
    const app::Panel* panel = panels->find(chapter.panel);
    ASSERT_NE(panel, nullptr) << chapter.id;
    panelsSeen.insert(panel->id);
    ASSERT_FALSE(chapter.scenarios.empty()) << chapter.id;
    for (const std::string& scenarioName : chapter.scenarios) {
      auto base = sim::loadScenario(scenarioName);
      ASSERT_TRUE(base.ok()) << base.error();
      const app::PanelView defaults =
          app::evaluatePanel(*panel, *base, app::defaultKnobValues(*panel), catalog());
      ASSERT_TRUE(defaults.error.empty()) << chapter.id << ": " << defaults.error;
      const auto settings = knobSettings(*panel, defaults);
      if (!panel->knobs.empty()) {
        EXPECT_GT(settings.size(), 1u) << chapter.id;
      }
      for (const std::vector<double>& values : settings) {
        compareWithCli(*panel, scenarioName, *base, values, coverage);
      }
    }
  }
  EXPECT_EQ(panelsSeen.size(), world::knownPanels().size());
  EXPECT_GT(coverage.comparisons, 400u);  // 11 chapters, ~8 rows, several settings each
  EXPECT_GT(coverage.nonDefaultSettings, 20u);
  EXPECT_TRUE(coverage.vramOom) << "no vram_budget setting ran out of memory";
}

TEST(PanelCli, VramBudgetEndsInOutOfMemoryWhereTheCliSaysItDoesNotFit) {
  auto panels = app::loadPanels(testpaths::sourceDir() / "assets" / "panels.json");
  ASSERT_TRUE(panels.ok()) << panels.error();
  const app::Panel* vram = panels->find("vram_budget");
  ASSERT_NE(vram, nullptr);
  auto base = sim::loadScenario("llama70b-inference-h100");
  ASSERT_TRUE(base.ok()) << base.error();
  // Batch 64 with a 131,072-token context: 64 x (131,072 + 512) x 40 KiB of KV per GPU alone is
  // ~345 GB against 80 GB of HBM.
  std::vector<double> values = app::defaultKnobValues(*vram);
  values[0] = 64;
  values[1] = 131072;
  const app::PanelView view = app::evaluatePanel(*vram, *base, values, catalog());
  ASSERT_TRUE(view.error.empty()) << view.error;
  EXPECT_TRUE(view.oom);
  ASSERT_TRUE(view.bar.has_value());
  EXPECT_GT(view.bar->segments[1].value, 64.0 * (131072 + 512) * 40 * 1024 * 0.999);
  const Json cli = cliJson("llama70b-inference-h100", app::panelAssignments(*vram, values));
  EXPECT_FALSE(cli.at("memory").at("fits").get<bool>());
  EXPECT_GT(cli.at("memory").at("shortfall_bytes").get<double>(), 0.0);
  // And the default setting fits, on both sides.
  const app::PanelView fits =
      app::evaluatePanel(*vram, *base, app::defaultKnobValues(*vram), catalog());
  EXPECT_FALSE(fits.oom);
  EXPECT_TRUE(cliJson("llama70b-inference-h100", {}).at("memory").at("fits").get<bool>());
}

// The ImGui panel draws every chapter's view (and an out-of-memory one) headless without
// tripping ImGui's checks, and sizes the knob values to the panel.
TEST(PanelView, DrawsEveryPanelHeadless) {
  auto panels = app::loadPanels(testpaths::sourceDir() / "assets" / "panels.json");
  ASSERT_TRUE(panels.ok()) << panels.error();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(1920, 1080);
  io.DeltaTime = 1.0f / 60.0f;
  unsigned char* pixels = nullptr;
  int width = 0, height = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
  for (const ChapterUse& chapter : tourChapters()) {
    const app::Panel* panel = panels->find(chapter.panel);
    ASSERT_NE(panel, nullptr) << chapter.id;
    auto base = sim::loadScenario(chapter.scenarios.front());
    ASSERT_TRUE(base.ok()) << base.error();
    std::vector<double> values = app::defaultKnobValues(*panel);
    if (panel->id == "vram_budget") values[0] = 1024;  // out of memory
    const app::PanelView view = app::evaluatePanel(*panel, *base, values, catalog(), "de");
    ASSERT_TRUE(view.error.empty()) << view.error;
    std::vector<double> drawn;
    for (int frame = 0; frame < 2; ++frame) {
      ImGui::NewFrame();
      app::PanelDrawDesc desc;
      desc.language = "de";
      desc.details = true;  // every row too
      desc.region = {1920 - 700, 20, 1900, 1060};
      const app::PanelInput input = app::drawPanel(view, drawn, desc);
      EXPECT_FALSE(input.knobsChanged) << chapter.id;  // no input: nothing moved
      EXPECT_FALSE(input.button.has_value()) << chapter.id;
      ImGui::Render();
      // An auto-sized window is measured on its first frame and drawn from the second.
      if (frame == 1) {
        EXPECT_GT(ImGui::GetDrawData()->TotalVtxCount, 100) << chapter.id;
      }
    }
    EXPECT_EQ(drawn.size(), panel->knobs.size()) << chapter.id;
    for (double v : drawn) EXPECT_TRUE(std::isnan(v)) << chapter.id;
  }
  ImGui::DestroyContext();
}
