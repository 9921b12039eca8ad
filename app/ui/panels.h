// Chapter simulator panels as data (assets/panels.json): each panel lists rows (outputs of
// sim::evaluateScenario by their "section.key"), knobs (scenario --set paths a visitor may change)
// and an optional stacked bar against a capacity. One generic engine evaluates a panel for a
// scenario and knob values with the same evaluation `dcwalk sim` prints, so a panel shows exactly
// the CLI's numbers. The pixel race (chapter 1) adds "race.*" rows computed here from catalog
// figures (pixels / (lanes x clock)). Pure logic: no Vulkan, no ImGui.
//
// File format: {"panels": [{"id", "title", "title_de"?, "sets"?: ["path=value"], "race"?: {"cpu",
// "width_px", "height_px"}, "rows": [{"label", "label_de"?, "key"}], "knobs"?: [{"label",
// "label_de"?, "path", "value_key"?, "min", "max", "step", "log"?} or {..., "choices": [...]}],
// "bar"?: {"label", "label_de"?, "over_label"?, "over_label_de"?, "capacity", "segments":
// [{"label", "label_de"?, "key" or "remainder_of"}]}, "roofline"?: {"peak", "bandwidth",
// "points": [{"label", "label_de"?, "intensity"}]}, "verdict"?: a row's key or "bar",
// "buttons"?: [{"id", "label", "label_de"?, and "inject": "KIND[:TARGET][,severity=X]" or
// "engine_scenario": NAME}]}]}. A knob whose field may be 0 = "from the catalog" names in
// "value_key" the output that shows its effective value. The verdict is the panel's one line
// that tells the chapter (the booth's headline, the engineer's first row); a button is a control
// of the running simulation (a fault injected now, or another engine scenario from t = 0).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/basis.h"
#include "sim/catalog.h"
#include "sim/engine/engine_desc.h"
#include "sim/format.h"
#include "sim/json_file.h"
#include "sim/result.h"
#include "sim/scenario.h"

namespace app {

/// Text in English with an optional German variant ("" = use the English one).
struct PanelText {
  std::string en;
  std::string de;

  /// The text for `language` ("de" or anything else for English).
  const std::string& in(std::string_view language) const;
};

struct PanelRow {
  PanelText label;
  std::string key;  // "memory.weights_per_gpu_bytes" or "race.gpu_frame_s"
};

/// A what-if control: a number slider, or a choice among strings when `choices` is not empty
/// (its value is then the index of the choice).
struct PanelKnob {
  PanelText label;
  std::string path;      // a scenario --set path, e.g. "workload.batch"
  std::string valueKey;  // evaluation output holding the effective value ("" = read the field)
  double min = 0;
  double max = 1;
  double step = 1;
  bool log = false;
  std::vector<std::string> choices;
  // The time engine's field the knob also sets (sim/engine/request.h, e.g.
  // "workload.training.pp"): a change restarts the running engine with it, so the world shows
  // what the panel computes. "" = the calculator's alone.
  std::string engine;
};

struct PanelBarSegment {
  PanelText label;
  std::string key;        // an output in bytes (or any unit shared with the capacity)
  std::string remainder;  // or: this total minus the other segments ("" = use key)
};

/// A stacked bar of segments against a capacity; over capacity = "out of memory".
struct PanelBar {
  PanelText label;
  PanelText overLabel;  // shown when over capacity ("OUT OF MEMORY"); "" = "OVER CAPACITY"
  std::string capacityKey;
  std::vector<PanelBarSegment> segments;
};

/// A roofline: attainable FLOP/s = min(peak, bandwidth x intensity), with points at the
/// intensities of what the scenario runs (prefill, decode ...).
struct Roofline {
  std::string peakKey;       // an output in FLOP/s
  std::string bandwidthKey;  // an output in B/s
  struct Point {
    PanelText label;
    std::string intensityKey;  // an output in FLOP/B
  };
  std::vector<Point> points;
};

/// Chapter 1: CPU vs GPU over one frame, at lanes x clock pixel operations per second.
struct PixelRace {
  std::string cpu;  // catalog cpus.<id>; the GPU is the scenario's (hardware.gpu)
  double width_px = 3840;
  double height_px = 2160;
};

/// A control of the running simulation: a fault injected at the current time (kind, target and
/// severity; its start is "now") or another engine scenario run from t = 0.
struct PanelButton {
  std::string id;
  PanelText label;
  std::optional<sim::engine::FaultDesc> inject;
  std::string engineScenario;
};

struct Panel {
  std::string id;  // one of world::knownPanels()
  PanelText title;
  std::vector<std::string> sets;  // fixed "path=value" overrides applied before the knobs
  std::vector<PanelRow> rows;
  std::vector<PanelKnob> knobs;
  std::optional<PanelBar> bar;
  std::optional<PixelRace> race;
  std::optional<Roofline> roofline;
  std::string verdict;  // a row key, or "bar" ("" = none)
  std::vector<PanelButton> buttons;
  std::string where;  // "file:line (pointer)"
};

struct PanelSet {
  std::filesystem::path file;
  std::vector<Panel> panels;  // in file order

  /// The panel called `id`, or nullptr.
  const Panel* find(std::string_view id) const;
};

/// One shown number: the evaluation's value and its display text with a scaled unit.
struct PanelRowView {
  std::string label;
  std::string key;
  double value = 0;  // SI value as evaluated (flags: 1 or 0)
  bool isFlag = false;
  std::string text;  // "17.6 GB", "3.35 TB/s", "yes"
  std::optional<sim::Basis> basis;
  std::string source;  // catalog sources for figures computed here ("" = evaluation output)
};

struct PanelKnobView {
  std::string label;
  std::string path;
  double value = 0;  // effective value (choice knobs: index, -1 when not among the choices)
  std::string text;  // the value as shown
  double min = 0, max = 1, step = 1;
  bool log = false;
  std::vector<std::string> choices;
};

struct PanelBarSegmentView {
  std::string label;
  double value = 0;
  std::string text;
};

struct PanelBarView {
  std::string label;
  double capacity = 0;
  std::string capacityText;
  double total = 0;
  std::string totalText;
  std::vector<PanelBarSegmentView> segments;
  bool over = false;     // total > capacity
  std::string overText;  // what to say when over (the bar's "over_label")
};

struct PixelRaceView {
  double pixels = 0;
  double cpuFrame_s = 0;
  double gpuFrame_s = 0;
};

struct RooflineView {
  double peak_flops = 0;
  double bandwidth_Bps = 0;
  double ridge_flops_per_byte = 0;  // peak / bandwidth: where the roof bends
  struct Point {
    std::string label;
    double intensity_flops_per_byte = 0;
    double attainable_flops = 0;  // min(peak, bandwidth x intensity)
    bool memoryBound = false;     // left of the ridge
  };
  std::vector<Point> points;
};

/// The panel's one line that tells the chapter: "Fits: no", "84.9 / 80 GB — OUT OF MEMORY".
struct PanelVerdictView {
  std::string text;
  bool warning = false;  // over capacity, or a flag that is false
  std::string key;       // the row it reads ("bar": the memory bar)
};

struct PanelButtonView {
  std::string id;
  std::string label;
  std::optional<sim::engine::FaultDesc> inject;
  std::string engineScenario;
};

/// Everything a panel window draws, for one scenario and one set of knob values.
struct PanelView {
  std::string id;
  std::string title;
  std::string scenario;  // scenario name
  std::vector<PanelRowView> rows;
  std::vector<PanelKnobView> knobs;
  std::optional<PanelBarView> bar;
  std::optional<PixelRaceView> race;
  std::optional<RooflineView> roofline;
  std::optional<PanelVerdictView> verdict;
  std::vector<PanelButtonView> buttons;
  // Every evaluation output and race figure as shown (what narration placeholders read).
  std::vector<PanelRowView> values;
  bool oom = false;                      // the bar is over capacity
  std::string error;                     // "" = evaluated; else why not (rows may then be empty)
  std::vector<std::string> assignments;  // the "path=value" overrides applied, in order

  /// The value of output `key` ("memory.fits", "race.gpu_frame_s"), or nullptr.
  const PanelRowView* value(std::string_view key) const;
};

/// Longest string a panels file may hold (labels, titles, keys, --set paths), bytes of UTF-8:
/// five times the longest shipped (49); each is drawn on a line or two of a panel.
inline constexpr size_t MAX_PANEL_TEXT_BYTES = 256;

/// Parses a panels document; unknown fields, ids, sections, race keys or --set paths fail with
/// file:line (pointer). Every id of world::knownPanels() must appear, and no other.
sim::Result<PanelSet> parsePanels(const sim::JsonFile& file);
/// Reads and parses a panels file.
sim::Result<PanelSet> loadPanels(const std::filesystem::path& path);
/// assets/panels.json.
std::filesystem::path panelsFile();

/// Knob values for a panel: NaN everywhere = the scenario's own values.
std::vector<double> defaultKnobValues(const Panel& panel);
/// The "path=value" overrides for `knobValues` (fixed sets first; NaN knobs are left out),
/// exactly what `dcwalk sim --set` takes. Values are clamped and snapped to the knob's steps.
std::vector<std::string> panelAssignments(const Panel& panel,
                                          const std::vector<double>& knobValues);
/// The engine overrides of the knobs that name an engine field and have been turned
/// ("workload.training.pp=8", sim::engine::EngineRequest::overrides), in knob order.
std::vector<std::string> engineAssignments(const Panel& panel,
                                           const std::vector<double>& knobValues);
/// Evaluates `panel` on `base` with `knobValues` (see defaultKnobValues) by sim::evaluateScenario.
PanelView evaluatePanel(const Panel& panel, const sim::ScenarioDesc& base,
                        const std::vector<double>& knobValues, const sim::Catalog& catalog,
                        std::string_view language = "en");

}  // namespace app
