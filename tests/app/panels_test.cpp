// Chapter simulator panels as data: the shipped assets/panels.json names every known panel once;
// malformed panel files are refused naming file:line; knobs snap to their steps; bars, the pixel
// race and units are computed and formatted as an independent calculation here says.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <string>

#include "app/ui/panels.h"
#include "sim/catalog.h"
#include "sim/evaluate.h"
#include "sim/scenario.h"
#include "tests/common/paths.h"
#include "tests/common/shipped_catalog.h"
#include "world/tour/tour.h"

namespace fs = std::filesystem;

namespace {

fs::path shippedPanelsFile() {
  return testpaths::sourceDir() / "assets" / "panels.json";
}

const sim::Catalog& catalog() {
  return testcatalog::shipped();
}

const app::PanelSet& shipped() {
  static const app::PanelSet set = [] {
    auto loaded = app::loadPanels(shippedPanelsFile());
    EXPECT_TRUE(loaded.ok()) << loaded.error();
    return loaded.ok() ? *loaded : app::PanelSet{};
  }();
  return set;
}

sim::ScenarioDesc scenario(const std::string& name) {
  auto s = sim::loadScenario(name);
  EXPECT_TRUE(s.ok()) << s.error();
  return s.ok() ? *s : sim::ScenarioDesc{};
}

// A panels file with every known panel, the first one's body replaced by `firstPanel`.
std::string panelsText(const std::string& firstPanel) {
  std::string text = "{\n  \"panels\": [\n    " + firstPanel;
  for (size_t i = 1; i < world::knownPanels().size(); ++i) {
    text += ",\n    {\"id\": \"" + world::knownPanels()[i] +
            "\", \"title\": \"t\", \"rows\": [{\"label\": \"l\", \"key\": \"hardware.gpu\"}]}";
  }
  return text + "\n  ]\n}\n";
}

const std::string GOOD_FIRST =
    R"({"id": "pixel_race", "title": "t", "rows": [{"label": "l", "key": "hardware.gpu"}]})";

// Writes `text` to a temporary file and loads it.
sim::Result<app::PanelSet> loadText(const std::string& name, const std::string& text) {
  const fs::path path = fs::temp_directory_path() /
                        ("dcwalk_panels_" + std::to_string(::getpid()) + "_" + name + ".json");
  std::ofstream(path) << text;
  auto result = app::loadPanels(path);
  fs::remove(path);
  return result;
}

// Loads a file whose first panel is `firstPanel`; expects a refusal naming `line` and `needle`.
void expectRefused(const std::string& name, const std::string& firstPanel, int line,
                   const std::string& needle) {
  auto result = loadText(name, panelsText(firstPanel));
  ASSERT_FALSE(result.ok()) << name;
  EXPECT_NE(result.error().find(".json:" + std::to_string(line)), std::string::npos)
      << name << ": " << result.error();
  EXPECT_NE(result.error().find(needle), std::string::npos) << name << ": " << result.error();
}

}  // namespace

TEST(Panels, ShippedFileHasExactlyTheKnownPanels) {
  const app::PanelSet& set = shipped();
  ASSERT_EQ(set.panels.size(), world::knownPanels().size());
  std::set<std::string> ids;
  for (const app::Panel& p : set.panels) ids.insert(p.id);
  for (const std::string& id : world::knownPanels()) {
    const app::Panel* panel = set.find(id);
    ASSERT_NE(panel, nullptr) << id;
    EXPECT_FALSE(panel->title.en.empty()) << id;
    EXPECT_FALSE(panel->title.de.empty()) << id;
    EXPECT_FALSE(panel->rows.empty()) << id;
  }
  EXPECT_EQ(ids.size(), world::knownPanels().size());
  EXPECT_EQ(app::panelsFile().filename(), "panels.json");
}

TEST(Panels, MinimalFileLoads) {
  auto result = loadText("minimal", panelsText(GOOD_FIRST));
  ASSERT_TRUE(result.ok()) << result.error();
  EXPECT_EQ(result->panels.size(), world::knownPanels().size());
  EXPECT_EQ(result->panels[0].rows[0].key, "hardware.gpu");
}

TEST(Panels, MalformedFilesAreRefusedWithFileAndLine) {
  // The first panel is on line 3 of panelsText.
  expectRefused("unknown_field", R"({"id": "pixel_race", "title": "t", "colour": 1, "rows": []})",
                3, "unknown field \"colour\"");
  expectRefused("unknown_id", R"({"id": "pixel_rase", "title": "t", "rows": []})", 3,
                "unknown panel \"pixel_rase\"");
  expectRefused(
      "unknown_section",
      R"({"id": "pixel_race", "title": "t", "rows": [{"label": "l", "key": "memry.fits"}]})", 3,
      "unknown section \"memry\"");
  expectRefused("not_dotted",
                R"({"id": "pixel_race", "title": "t", "rows": [{"label": "l", "key": "fits"}]})", 3,
                "not a \"section.key\"");
  expectRefused(
      "race_without_race",
      R"({"id": "pixel_race", "title": "t", "rows": [{"label": "l", "key": "race.pixels"}]})", 3,
      "need a \"race\"");
  expectRefused(
      "unknown_race_key",
      R"({"id": "pixel_race", "title": "t", "race": {"cpu": "xeon_8480", "width_px": 4, "height_px": 2}, "rows": [{"label": "l", "key": "race.pixel"}]})",
      3, "unknown race key \"pixel\"");
  expectRefused(
      "fractional_pixels",
      R"({"id": "pixel_race", "title": "t", "race": {"cpu": "x", "width_px": 4.5, "height_px": 2}, "rows": [{"label": "l", "key": "race.pixels"}]})",
      3, "whole number of pixels");
  expectRefused("no_rows", R"({"id": "pixel_race", "title": "t", "rows": []})", 3, "needs 1 to");
  expectRefused(
      "unknown_knob_path",
      R"({"id": "pixel_race", "title": "t", "rows": [{"label": "l", "key": "hardware.gpu"}], "knobs": [{"label": "k", "path": "workload.batchh", "min": 1, "max": 2, "step": 1}]})",
      3, "unknown scenario field \"workload.batchh\"");
  expectRefused(
      "unknown_engine_field",
      R"({"id": "pixel_race", "title": "t", "rows": [{"label": "l", "key": "hardware.gpu"}], "knobs": [{"label": "k", "path": "workload.batch", "engine": "workload.training.ppp", "min": 1, "max": 2, "step": 1}]})",
      3, "unknown engine field \"workload.training.ppp\"");
  expectRefused(
      "knob_needs_value_key",
      R"({"id": "pixel_race", "title": "t", "rows": [{"label": "l", "key": "hardware.gpu"}], "knobs": [{"label": "k", "path": "facility.pue", "min": 1, "max": 2, "step": 0.1}]})",
      3, "value_key");
  expectRefused(
      "knob_max_below_min",
      R"({"id": "pixel_race", "title": "t", "rows": [{"label": "l", "key": "hardware.gpu"}], "knobs": [{"label": "k", "path": "workload.batch", "min": 8, "max": 2, "step": 1}]})",
      3, "above \"min\"");
  expectRefused(
      "bad_choice",
      R"({"id": "pixel_race", "title": "t", "rows": [{"label": "l", "key": "hardware.gpu"}], "knobs": [{"label": "k", "path": "workload.kind", "choices": ["inference", "trainin"]}]})",
      3, "workload.kind");
  expectRefused(
      "bad_set",
      R"({"id": "pixel_race", "title": "t", "sets": ["workload.batch=many"], "rows": [{"label": "l", "key": "hardware.gpu"}]})",
      3, "must be an integer");
  expectRefused(
      "segment_key_and_remainder",
      R"({"id": "pixel_race", "title": "t", "rows": [{"label": "l", "key": "hardware.gpu"}], "bar": {"label": "b", "capacity": "hardware.gpu_hbm_capacity_bytes", "segments": [{"label": "s", "key": "memory.weights_bytes", "remainder_of": "memory.weights_bytes"}]}})",
      3, "exactly one of");

  // Missing and repeated panels, and broken JSON.
  auto missing = loadText("missing", "{\n  \"panels\": [\n    " + GOOD_FIRST + "\n  ]\n}\n");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find(".json:2"), std::string::npos) << missing.error();
  EXPECT_NE(missing.error().find("panel \"sm_firehose\" is missing"), std::string::npos)
      << missing.error();
  std::string twice = panelsText(GOOD_FIRST);
  twice.insert(twice.find(GOOD_FIRST) + GOOD_FIRST.size(), ",\n    " + GOOD_FIRST);
  auto repeated = loadText("repeated", twice);
  ASSERT_FALSE(repeated.ok());
  EXPECT_NE(repeated.error().find(".json:4"), std::string::npos) << repeated.error();
  EXPECT_NE(repeated.error().find("listed twice"), std::string::npos) << repeated.error();
  auto broken = loadText("broken", "{\n  \"panels\": [\n    {\"id\": }\n]}");
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.error().find(":3"), std::string::npos) << broken.error();
  auto absent = app::loadPanels(fs::temp_directory_path() / "dcwalk_no_such_panels.json");
  EXPECT_FALSE(absent.ok());
}

// Issue 19: every string a panels file holds has a length limit (a label is drawn on a line).
TEST(Panels, LongTextsAreRefusedWithFileLineAndLength) {
  const std::string label(app::MAX_PANEL_TEXT_BYTES + 1, 'l');
  expectRefused("long_label",
                R"({"id": "pixel_race", "title": "t", "rows": [{"label": ")" + label +
                    R"(", "key": "hardware.gpu"}]})",
                3, std::to_string(app::MAX_PANEL_TEXT_BYTES + 1) + " bytes long");
  const std::string fits(app::MAX_PANEL_TEXT_BYTES, 'l');
  auto result = loadText("longest_label",
                         panelsText(R"({"id": "pixel_race", "title": "t", "rows": [{"label": ")" +
                                    fits + R"(", "key": "hardware.gpu"}]})"));
  EXPECT_TRUE(result.ok()) << result.error();
}

TEST(Panels, UnitsFollowTheKeySuffix) {
  using sim::formatQuantity;
  EXPECT_EQ(sim::formatQuantity(80e9, "hardware.gpu_hbm_capacity_bytes"), "80 GB");
  EXPECT_EQ(sim::formatQuantity(17638426624.0, "memory.weights_per_gpu_bytes"), "17.6 GB");
  EXPECT_EQ(sim::formatQuantity(1.4e12, "memory.weights_bytes"), "1.4 TB");
  EXPECT_EQ(sim::formatQuantity(327680, "memory.kv_cache_bytes_per_token"), "328 kB/token");
  EXPECT_EQ(sim::formatQuantity(3.35e12, "hardware.gpu_hbm_bandwidth_Bps"), "3.35 TB/s");
  EXPECT_EQ(sim::formatQuantity(900e9, "hardware.gpu_scale_up_bidirectional_Bps"), "900 GB/s");
  EXPECT_EQ(sim::formatQuantity(1.31072e16, "hardware.cluster_injection_bps"), "13.1 Pb/s");
  EXPECT_EQ(sim::formatQuantity(989.4e12, "hardware.gpu_dense_flops"), "989 TFLOP/s");
  EXPECT_EQ(sim::formatQuantity(2.5e15, "hardware.gpu_dense_flops"), "2.5 PFLOP/s");
  EXPECT_EQ(sim::formatQuantity(295.343, "hardware.gpu_ridge_flops_per_byte"), "295 FLOP/B");
  EXPECT_EQ(sim::formatQuantity(0.0061666, "compute.tpot_s"), "6.17 ms");
  EXPECT_EQ(sim::formatQuantity(2.92, "compute.ttft_s"), "2.92 s");
  EXPECT_EQ(sim::formatQuantity(4.76e-5, "collective.ring_latency_term_s"), "47.6 µs");
  EXPECT_EQ(sim::formatQuantity(248e-9, "race.gpu_frame_s"), "248 ns");
  EXPECT_EQ(sim::formatQuantity(2318596.02, "compute.training_time_s"), "26.8 days");
  EXPECT_EQ(sim::formatQuantity(5189.19, "compute.continuous_batching_tokens_per_s"),
            "5,189 tokens/s");
  EXPECT_EQ(sim::formatQuantity(162.16, "compute.tokens_per_s_per_sequence"), "162 tokens/s");
  EXPECT_EQ(sim::formatQuantity(132000, "power.rack_power_W"), "132 kW");
  EXPECT_EQ(sim::formatQuantity(36044800, "power.facility_power_W"), "36 MW");
  EXPECT_EQ(sim::formatQuantity(1.98e9, "race.gpu_clock_Hz"), "1.98 GHz");
  EXPECT_EQ(sim::formatQuantity(0.742, "cost.per_million_tokens_usd"), "$0.742");
  EXPECT_EQ(sim::formatQuantity(0.042260120203660996, "cost.per_million_tokens_usd"), "$0.0423");
  EXPECT_EQ(sim::formatQuantity(1.7328851557883427, "cost.per_gpu_hour_usd"), "$1.73");
  EXPECT_EQ(sim::formatQuantity(30000, "cost.gpu_price_usd"), "$30,000");
  EXPECT_EQ(sim::formatQuantity(245547602, "cost.total_per_year_usd"), "$246 M");
  EXPECT_EQ(sim::formatQuantity(85, "power.junction_temperature_C"), "85 °C");
  EXPECT_EQ(sim::formatQuantity(0.46875, "parallelism.interleaved_bubble_fraction"), "46.9 %");
  EXPECT_EQ(sim::formatQuantity(16384, "hardware.cluster_gpus"), "16,384");
  EXPECT_EQ(sim::formatQuantity(8294400, "race.pixels"), "8.29 M");
  EXPECT_EQ(sim::formatQuantity(1.2, "power.pue"), "1.2");
  EXPECT_EQ(sim::formatQuantity(9.33, "race.gpu_speedup"), "9.33×");
  EXPECT_EQ(sim::formatQuantity(1.56e13, "compute.training_tokens"), "15.6 T tokens");
  EXPECT_EQ(sim::formatQuantity(std::numeric_limits<double>::quiet_NaN(), "power.pue"), "–");
}

TEST(Panels, KnobsSnapToTheirStepsAndBecomeSetAssignments) {
  const app::Panel* vram = shipped().find("vram_budget");
  ASSERT_NE(vram, nullptr);
  ASSERT_EQ(vram->knobs.size(), 3u);
  std::vector<double> values = app::defaultKnobValues(*vram);
  EXPECT_TRUE(app::panelAssignments(*vram, values).empty());
  values[0] = 63.6;  // batch: step 1 -> 64
  values[1] = 1e9;   // context beyond max -> clamped to max
  values[2] = 2;     // tp choice index 2 -> "4"
  const std::vector<std::string> sets = app::panelAssignments(*vram, values);
  ASSERT_EQ(sets.size(), 3u);
  EXPECT_EQ(sets[0], "workload.batch=64");
  EXPECT_EQ(sets[1], "workload.prompt_tokens=" + std::to_string(int(vram->knobs[1].max)));
  EXPECT_EQ(sets[2], "workload.tp=4");
  EXPECT_TRUE(app::engineAssignments(*vram, values).empty());  // the calculator's alone
  // Chapter 9's layout knobs also set the engine's fields; untouched ones are left out.
  const app::Panel* layout = shipped().find("parallelism");
  ASSERT_NE(layout, nullptr);
  std::vector<double> turned = app::defaultKnobValues(*layout);
  EXPECT_TRUE(app::engineAssignments(*layout, turned).empty());
  for (size_t i = 0; i < layout->knobs.size(); ++i)
    if (layout->knobs[i].path == "workload.pp") turned[i] = 1;  // choice 1 of 2, 4, 8, 16
  EXPECT_EQ(app::engineAssignments(*layout, turned),
            std::vector<std::string>{"workload.training.pp=4"});
  const app::Panel* tco = shipped().find("tco");
  ASSERT_NE(tco, nullptr);
  ASSERT_FALSE(tco->sets.empty());
  EXPECT_EQ(app::panelAssignments(*tco, app::defaultKnobValues(*tco)), tco->sets);
}

TEST(Panels, VramBarSumsToTheEvaluatedNeedAndEndsInOom) {
  const app::Panel* vram = shipped().find("vram_budget");
  ASSERT_NE(vram, nullptr);
  const sim::ScenarioDesc base = scenario("llama70b-inference-h100");
  const app::PanelView fits =
      app::evaluatePanel(*vram, base, app::defaultKnobValues(*vram), catalog());
  ASSERT_TRUE(fits.error.empty()) << fits.error;
  ASSERT_TRUE(fits.bar.has_value());
  EXPECT_FALSE(fits.oom);
  // Llama 3.1 70B in BF16 over TP 8: 70,553,706,496 x 2 B / 8 weights per GPU (reference C.1).
  ASSERT_EQ(fits.bar->segments.size(), 3u);
  EXPECT_DOUBLE_EQ(fits.bar->segments[0].value, 70553706496.0 * 2.0 / 8.0);
  // KV per token 2 x 80 layers x 8 KV heads x 128 x 2 B; per GPU / 8; tokens = 32 x (2048 + 512).
  EXPECT_DOUBLE_EQ(fits.bar->segments[1].value, 2.0 * 80 * 8 * 128 * 2 / 8.0 * 32 * 2560);
  // The bar holds what the serving engine may take: its memory fraction of the usable HBM
  // (nvidia-smi's 81,559 MiB on an H100, not the marketed 80 GB).
  EXPECT_DOUBLE_EQ(fits.bar->capacity, catalog().find("gpus.h100_sxm.hbm_usable_bytes")->value *
                                           catalog().find("rules.serving_memory_fraction")->value);
  EXPECT_LT(fits.bar->total, fits.bar->capacity);
  EXPECT_EQ(fits.knobs[0].value, 32);    // the scenario's batch
  EXPECT_EQ(fits.knobs[1].value, 2048);  // its prompt
  EXPECT_EQ(fits.knobs[2].value, 3);     // tp 8 is choice 3
  EXPECT_EQ(fits.knobs[2].text, "8");

  std::vector<double> values = app::defaultKnobValues(*vram);
  values[0] = 1024;  // 1,024 x 2,560 tokens x 40 KiB per GPU = 107 GB of KV alone
  const app::PanelView oom = app::evaluatePanel(*vram, base, values, catalog(), "de");
  ASSERT_TRUE(oom.error.empty()) << oom.error;
  EXPECT_TRUE(oom.oom);
  EXPECT_TRUE(oom.bar->over);
  EXPECT_GT(oom.bar->total, 80e9);
  EXPECT_EQ(oom.title, vram->title.de);
  EXPECT_EQ(oom.bar->overText, vram->bar->overLabel.de);
  EXPECT_FALSE(oom.bar->overText.empty());
  EXPECT_EQ(oom.knobs[0].value, 1024);
}

TEST(Panels, PixelRaceIsPixelsOverLanesTimesClock) {
  const app::Panel* race = shipped().find("pixel_race");
  ASSERT_NE(race, nullptr);
  ASSERT_TRUE(race->race.has_value());
  const app::PanelView view = app::evaluatePanel(*race, scenario("llama70b-inference-h100"),
                                                 app::defaultKnobValues(*race), catalog());
  ASSERT_TRUE(view.error.empty()) << view.error;
  ASSERT_TRUE(view.race.has_value());
  // 3,840 x 2,160 pixels; Xeon 8480+: 56 cores x 2 AVX-512 FMA units x 16 FP32 lanes at 2.0 GHz;
  // H100 SXM: 132 SMs x 128 FP32 lanes at 1.98 GHz (reference A.1: 16,896 lanes).
  const double pixels = 3840.0 * 2160.0;
  EXPECT_EQ(view.race->pixels, 8294400.0);
  EXPECT_NEAR(view.race->cpuFrame_s, pixels / (56.0 * 2 * 16 * 2.0e9), 1e-18);
  EXPECT_NEAR(view.race->gpuFrame_s, pixels / (16896.0 * 1.98e9), 1e-18);
  bool sawSource = false;
  for (const app::PanelRowView& row : view.rows) {
    if (row.key == "race.gpu_lanes") {
      EXPECT_EQ(row.value, 16896.0);
    }
    if (row.key == "race.gpu_frame_s") {
      ASSERT_TRUE(row.basis.has_value());
      EXPECT_EQ(*row.basis, sim::Basis::Derived);
      sawSource = row.source.find("glennklockwood") != std::string::npos;
    }
  }
  EXPECT_TRUE(sawSource);
}

TEST(Panels, EvaluationFailuresAreReportedNotThrown) {
  const app::Panel* vram = shipped().find("vram_budget");
  ASSERT_NE(vram, nullptr);
  sim::ScenarioDesc base = scenario("llama70b-inference-h100");
  base.workload.model = "no_such_model";
  const app::PanelView view =
      app::evaluatePanel(*vram, base, app::defaultKnobValues(*vram), catalog());
  EXPECT_NE(view.error.find("workload.model"), std::string::npos) << view.error;
  EXPECT_TRUE(view.rows.empty());
  // A row whose key the evaluation lacks (a training-only key on an inference scenario).
  app::Panel panel = *vram;
  panel.rows.push_back({{"x", ""}, "compute.training_time_s"});
  const app::PanelView missing = app::evaluatePanel(panel, scenario("llama70b-inference-h100"),
                                                    app::defaultKnobValues(panel), catalog());
  EXPECT_NE(missing.error.find("compute.training_time_s"), std::string::npos) << missing.error;
}

TEST(Panels, RooflinePutsDecodeLeftOfTheRidgeAndPrefillOnTheRoof) {
  const app::Panel* panel = shipped().find("prefill_decode");
  ASSERT_NE(panel, nullptr);
  ASSERT_TRUE(panel->roofline.has_value());
  const app::PanelView view = app::evaluatePanel(*panel, scenario("llama70b-fp8-inference-b200"),
                                                 app::defaultKnobValues(*panel), catalog());
  ASSERT_TRUE(view.error.empty()) << view.error;
  ASSERT_TRUE(view.roofline.has_value());
  // The same evaluation `dcwalk sim` prints, read independently.
  auto evaluation = sim::evaluateScenario(scenario("llama70b-fp8-inference-b200"), catalog());
  ASSERT_TRUE(evaluation) << evaluation.error();
  const double peak = evaluation->number("hardware.gpu_dense_flops");
  const double bandwidth = evaluation->number("hardware.gpu_hbm_bandwidth_Bps");
  EXPECT_DOUBLE_EQ(view.roofline->ridge_flops_per_byte, peak / bandwidth);
  ASSERT_EQ(view.roofline->points.size(), 2u);
  const auto& prefill = view.roofline->points[0];
  const auto& decode = view.roofline->points[1];
  EXPECT_EQ(prefill.intensity_flops_per_byte,
            evaluation->number("compute.prefill_intensity_flops_per_byte"));
  EXPECT_EQ(decode.intensity_flops_per_byte,
            evaluation->number("compute.decode_intensity_flops_per_byte"));
  // Decode streams every weight per token: memory-bound, under the slope; prefill on the roof.
  EXPECT_TRUE(decode.memoryBound);
  EXPECT_DOUBLE_EQ(decode.attainable_flops, bandwidth * decode.intensity_flops_per_byte);
  EXPECT_FALSE(prefill.memoryBound);
  EXPECT_DOUBLE_EQ(prefill.attainable_flops, peak);
}

TEST(Panels, MalformedRooflineIsRefusedWithFileAndLine) {
  expectRefused(
      "roofline_without_points",
      R"({"id": "pixel_race", "title": "t", "rows": [{"label": "l", "key": "hardware.gpu"}], "roofline": {"peak": "hardware.gpu_dense_flops", "bandwidth": "hardware.gpu_hbm_bandwidth_Bps", "points": []}})",
      3, "needs 1 to 8 points");
  expectRefused(
      "roofline_bad_key",
      R"({"id": "pixel_race", "title": "t", "rows": [{"label": "l", "key": "hardware.gpu"}], "roofline": {"peak": "hardware.gpu_dense_flops", "bandwidth": "hbm", "points": [{"label": "x", "intensity": "compute.ttft_s"}]}})",
      3, "not a \"section.key\"");
}
