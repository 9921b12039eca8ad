#include "app/ui/panels.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "sim/calc/compute.h"
#include "sim/engine/fault_spec.h"
#include "sim/engine/request.h"
#include "sim/engine/scenarios.h"
#include "sim/evaluate.h"
#include "sim/json_checker.h"
#include "sim/pixel_race.h"
#include "world/tour/tour.h"

namespace app {
namespace {

using Json = nlohmann::json;
using Pointer = Json::json_pointer;
using sim::contains;
using sim::joined;

constexpr size_t MAX_ROWS = 32;
constexpr size_t MAX_KNOBS = 8;
constexpr size_t MAX_SEGMENTS = 8;
constexpr size_t MAX_CHOICES = 16;
constexpr size_t MAX_SETS = 16;
constexpr size_t MAX_BUTTONS = 6;
constexpr double MAX_RACE_SIDE_PX = 1e6;

// Sections of sim::evaluateScenario, and the race figures this file computes.
const std::vector<std::string>& evaluationSections() {
  static const std::vector<std::string> names = {"hardware",   "memory", "compute", "parallelism",
                                                 "collective", "power",  "cost",    "comparison"};
  return names;
}

const std::vector<std::string>& raceKeys() {
  static const std::vector<std::string> names = {
      "pixels",    "cpu_lanes",    "cpu_clock_Hz",     "cpu_pixels_per_s", "cpu_frame_s",
      "gpu_lanes", "gpu_clock_Hz", "gpu_pixels_per_s", "gpu_frame_s",      "gpu_speedup"};
  return names;
}

// Reads one document; the first error wins and names file:line (pointer).
class PanelParser : sim::JsonChecker {
 public:
  explicit PanelParser(const sim::JsonFile& file) : JsonChecker(file) {}

  sim::Result<PanelSet> run() {
    PanelSet set;
    set.file = m_file.path;
    const Pointer root;
    if (!m_file.root.is_object()) return fail(root, "a panels file is a JSON object");
    if (!onlyFields(root, {"panels"})) return error();
    const Json* panels = field(root / "panels", Json::value_t::array, "an array");
    if (!panels) return error();
    for (size_t i = 0; i < panels->size(); ++i) {
      Panel panel;
      if (!readPanel(root / "panels" / i, panel)) return error();
      if (set.find(panel.id))
        return fail(root / "panels" / i / "id", "panel \"" + panel.id + "\" is listed twice");
      set.panels.push_back(std::move(panel));
    }
    for (const std::string& id : world::knownPanels()) {
      if (!set.find(id)) return fail(root / "panels", "panel \"" + id + "\" is missing");
    }
    return set;
  }

 private:
  sim::Result<PanelSet> fail(const Pointer& at, const std::string& message) {
    flag(at, message);
    return error();
  }
  sim::Result<PanelSet> error() const { return sim::Result<PanelSet>::failure(m_error); }

  // Every panel string is a label, title or name drawn on one line or two: short (hides
  // JsonChecker::text, so each string the parser reads is checked).
  bool text(const Pointer& at, std::string& out) {
    if (!JsonChecker::text(at, out)) return false;
    if (out.size() > MAX_PANEL_TEXT_BYTES)
      return flag(at, "is " + std::to_string(out.size()) + " bytes long, more than the " +
                          std::to_string(MAX_PANEL_TEXT_BYTES) + " a panel text may have");
    return true;
  }

  bool optionalText(const Pointer& at, std::string& out) { return !find(at) || text(at, out); }

  bool number(const Pointer& at, double& out) {
    const Json* value = field(at, Json::value_t::number_float, "a number");
    if (!value) return false;
    out = value->get<double>();
    if (!std::isfinite(out)) return flag(at, "must be a finite number");
    return true;
  }

  // "label" and the optional "label_de" (or title / title_de).
  bool panelText(const Pointer& at, const char* name, PanelText& out) {
    return text(at / name, out.en) && optionalText(at / (std::string(name) + "_de"), out.de);
  }

  // A "section.key" of the evaluation, or a race figure when the panel has a race.
  bool outputKey(const Pointer& at, bool hasRace, std::string& out) {
    if (!text(at, out)) return false;
    const size_t dot = out.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == out.size())
      return flag(at, "\"" + out + "\" is not a \"section.key\" output name");
    const std::string section = out.substr(0, dot), name = out.substr(dot + 1);
    if (section == "race") {
      if (!hasRace) return flag(at, "race figures need a \"race\" in the panel");
      if (!contains(raceKeys(), name))
        return flag(at, "unknown race key \"" + name + "\" (known: " + joined(raceKeys()) + ")");
      return true;
    }
    if (!contains(evaluationSections(), section))
      return flag(at, "unknown section \"" + section +
                          "\" (known: " + joined(evaluationSections()) + ", race)");
    return true;
  }

  bool readPanel(const Pointer& at, Panel& panel) {
    panel.where = m_file.where(at);
    if (!field(at, Json::value_t::object, "an object")) return false;
    if (!onlyFields(at, {"id", "title", "title_de", "sets", "race", "rows", "knobs", "bar",
                         "roofline", "verdict", "buttons"}))
      return false;
    if (!text(at / "id", panel.id)) return false;
    if (!contains(world::knownPanels(), panel.id))
      return flag(at / "id", "unknown panel \"" + panel.id +
                                 "\" (known: " + joined(world::knownPanels()) + ")");
    if (!panelText(at, "title", panel.title)) return false;
    if (find(at / "sets") && !readSets(at / "sets", panel.sets)) return false;
    if (find(at / "race")) {
      panel.race.emplace();
      if (!readRace(at / "race", *panel.race)) return false;
    }
    const bool hasRace = panel.race.has_value();
    const Json* rows = field(at / "rows", Json::value_t::array, "an array");
    if (!rows) return false;
    if (rows->empty() || rows->size() > MAX_ROWS)
      return flag(at / "rows", "needs 1 to " + std::to_string(MAX_ROWS) + " rows");
    for (size_t i = 0; i < rows->size(); ++i) {
      const Pointer r = at / "rows" / i;
      PanelRow row;
      if (!field(r, Json::value_t::object, "an object") ||
          !onlyFields(r, {"label", "label_de", "key"}) || !panelText(r, "label", row.label) ||
          !outputKey(r / "key", hasRace, row.key))
        return false;
      panel.rows.push_back(std::move(row));
    }
    if (find(at / "knobs")) {
      const Json* knobs = field(at / "knobs", Json::value_t::array, "an array");
      if (!knobs) return false;
      if (knobs->size() > MAX_KNOBS)
        return flag(at / "knobs", "more than " + std::to_string(MAX_KNOBS) + " knobs");
      for (size_t i = 0; i < knobs->size(); ++i) {
        PanelKnob knob;
        if (!readKnob(at / "knobs" / i, knob)) return false;
        panel.knobs.push_back(std::move(knob));
      }
    }
    if (find(at / "roofline")) {
      panel.roofline.emplace();
      if (!readRoofline(at / "roofline", *panel.roofline)) return false;
    }
    if (find(at / "bar")) {
      panel.bar.emplace();
      if (!readBar(at / "bar", hasRace, *panel.bar)) return false;
    }
    if (find(at / "verdict")) {
      if (!text(at / "verdict", panel.verdict)) return false;
      const bool isRow = std::any_of(panel.rows.begin(), panel.rows.end(),
                                     [&](const PanelRow& r) { return r.key == panel.verdict; });
      if (panel.verdict == "bar" ? !panel.bar : !isRow)
        return flag(at / "verdict", "\"" + panel.verdict +
                                        "\" is neither one of the panel's row keys nor \"bar\" "
                                        "(with a bar)");
    }
    if (find(at / "buttons")) {
      const Json* buttons = field(at / "buttons", Json::value_t::array, "an array");
      if (!buttons) return false;
      if (buttons->size() > MAX_BUTTONS)
        return flag(at / "buttons", "more than " + std::to_string(MAX_BUTTONS) + " buttons");
      for (size_t i = 0; i < buttons->size(); ++i) {
        PanelButton button;
        if (!readButton(at / "buttons" / i, button)) return false;
        for (const PanelButton& other : panel.buttons)
          if (other.id == button.id)
            return flag(at / "buttons" / i / "id", "button \"" + button.id + "\" twice");
        panel.buttons.push_back(std::move(button));
      }
    }
    return true;
  }

  bool readButton(const Pointer& at, PanelButton& button) {
    if (!field(at, Json::value_t::object, "an object") ||
        !onlyFields(at, {"id", "label", "label_de", "inject", "engine_scenario"}) ||
        !text(at / "id", button.id) || !panelText(at, "label", button.label))
      return false;
    const bool inject = find(at / "inject") != nullptr;
    if (inject == (find(at / "engine_scenario") != nullptr))
      return flag(at, "a button has exactly one of \"inject\" and \"engine_scenario\"");
    if (inject) {
      std::string spec;
      if (!text(at / "inject", spec)) return false;
      if (spec.find('@') != std::string::npos)
        return flag(at / "inject", "a button injects at the current time: no \"@START\"");
      // KIND[:TARGET][,severity=X] read as the command line's --fault, started at 0.
      const size_t comma = spec.find(',');
      const std::string withStart = comma == std::string::npos
                                        ? spec + "@0"
                                        : spec.substr(0, comma) + "@0" + spec.substr(comma);
      auto fault = sim::engine::parseFaultSpec(withStart);
      if (!fault) return flag(at / "inject", fault.error());
      button.inject = *fault;
      return true;
    }
    std::string name;
    if (!text(at / "engine_scenario", name)) return false;
    if (!contains(sim::engine::builtinScenarioNames(), name))
      return flag(at / "engine_scenario", "unknown engine scenario \"" + name + "\" (known: " +
                                              joined(sim::engine::builtinScenarioNames()) + ")");
    button.engineScenario = name;
    return true;
  }

  bool readSets(const Pointer& at, std::vector<std::string>& sets) {
    const Json* list = field(at, Json::value_t::array, "an array of \"path=value\"");
    if (!list) return false;
    if (list->size() > MAX_SETS)
      return flag(at, "more than " + std::to_string(MAX_SETS) + " overrides");
    for (size_t i = 0; i < list->size(); ++i) {
      std::string assignment;
      if (!text(at / i, assignment)) return false;
      sim::ScenarioDesc probe;
      auto applied = sim::applyOverride(probe, assignment);
      if (!applied) return flag(at / i, applied.error());
      sets.push_back(std::move(assignment));
    }
    return true;
  }

  bool readRace(const Pointer& at, PixelRace& race) {
    if (!field(at, Json::value_t::object, "an object")) return false;
    if (!onlyFields(at, {"cpu", "width_px", "height_px"})) return false;
    if (!text(at / "cpu", race.cpu)) return false;
    for (auto [name, target] :
         {std::pair{"width_px", &race.width_px}, std::pair{"height_px", &race.height_px}}) {
      if (!number(at / name, *target)) return false;
      if (*target < 1 || *target > MAX_RACE_SIDE_PX || *target != std::floor(*target))
        return flag(at / name, "must be a whole number of pixels from 1 to 1000000");
    }
    return true;
  }

  bool readKnob(const Pointer& at, PanelKnob& knob) {
    if (!field(at, Json::value_t::object, "an object")) return false;
    if (!onlyFields(at, {"label", "label_de", "path", "value_key", "min", "max", "step", "log",
                         "choices", "engine"}))
      return false;
    if (!panelText(at, "label", knob.label) || !text(at / "path", knob.path)) return false;
    const auto* scenarioField = sim::findScenarioField(knob.path);
    if (!scenarioField)
      return flag(at / "path", "unknown scenario field \"" + knob.path +
                                   "\" (see docs/sim.md for the settable paths)");
    if (find(at / "value_key") && !outputKey(at / "value_key", false, knob.valueKey)) return false;
    if (find(at / "engine")) {
      if (!text(at / "engine", knob.engine)) return false;
      if (!contains(sim::engine::engineFieldPaths(), knob.engine))
        return flag(at / "engine", "unknown engine field \"" + knob.engine + "\"");
    }
    if (knob.valueKey.empty() && scenarioField->fromCatalog)
      return flag(at, "the value of \"" + knob.path +
                          "\" may come from the catalog: name the output showing it in "
                          "\"value_key\"");
    if (find(at / "choices")) {
      if (find(at / "min") || find(at / "max") || find(at / "step") || find(at / "log"))
        return flag(at, "a knob has either \"choices\" or \"min\"/\"max\"/\"step\"/\"log\"");
      const Json* choices = field(at / "choices", Json::value_t::array, "an array of strings");
      if (!choices) return false;
      if (choices->size() < 2 || choices->size() > MAX_CHOICES)
        return flag(at / "choices", "needs 2 to " + std::to_string(MAX_CHOICES) + " choices");
      for (size_t i = 0; i < choices->size(); ++i) {
        std::string choice;
        if (!text(at / "choices" / i, choice)) return false;
        sim::ScenarioDesc probe;
        auto applied = sim::applyOverride(probe, knob.path + "=" + choice);
        if (!applied) return flag(at / "choices" / i, applied.error());
        knob.choices.push_back(std::move(choice));
      }
      return true;
    }
    if (!number(at / "min", knob.min) || !number(at / "max", knob.max) ||
        !number(at / "step", knob.step))
      return false;
    if (knob.max <= knob.min) return flag(at / "max", "must be above \"min\"");
    if (knob.step <= 0 || knob.step > knob.max - knob.min)
      return flag(at / "step", "must be above 0 and at most max - min");
    if (find(at / "log")) {
      const Json* value = field(at / "log", Json::value_t::boolean, "true or false");
      if (!value) return false;
      knob.log = value->get<bool>();
      if (knob.log && knob.min <= 0) return flag(at / "min", "a log knob needs min > 0");
    }
    for (double v : {knob.min, knob.max}) {
      sim::ScenarioDesc probe;
      auto applied = sim::applyOverride(probe, knob.path + "=" + sim::significant(v, 15));
      if (!applied) return flag(at, applied.error());
    }
    return true;
  }

  bool readRoofline(const Pointer& at, Roofline& roofline) {
    if (!field(at, Json::value_t::object, "an object") ||
        !onlyFields(at, {"peak", "bandwidth", "points"}) ||
        !outputKey(at / "peak", false, roofline.peakKey) ||
        !outputKey(at / "bandwidth", false, roofline.bandwidthKey))
      return false;
    const Json* points = field(at / "points", Json::value_t::array, "an array");
    if (!points) return false;
    if (points->empty() || points->size() > MAX_SEGMENTS)
      return flag(at / "points", "needs 1 to " + std::to_string(MAX_SEGMENTS) + " points");
    for (size_t i = 0; i < points->size(); ++i) {
      const Pointer p = at / "points" / i;
      Roofline::Point point;
      if (!field(p, Json::value_t::object, "an object") ||
          !onlyFields(p, {"label", "label_de", "intensity"}) ||
          !panelText(p, "label", point.label) ||
          !outputKey(p / "intensity", false, point.intensityKey))
        return false;
      roofline.points.push_back(std::move(point));
    }
    return true;
  }

  bool readBar(const Pointer& at, bool hasRace, PanelBar& bar) {
    if (!field(at, Json::value_t::object, "an object")) return false;
    if (!onlyFields(at,
                    {"label", "label_de", "over_label", "over_label_de", "capacity", "segments"}))
      return false;
    bar.overLabel.en = "OVER CAPACITY";
    if (find(at / "over_label") && !panelText(at, "over_label", bar.overLabel)) return false;
    if (!panelText(at, "label", bar.label) || !outputKey(at / "capacity", hasRace, bar.capacityKey))
      return false;
    const Json* segments = field(at / "segments", Json::value_t::array, "an array");
    if (!segments) return false;
    if (segments->empty() || segments->size() > MAX_SEGMENTS)
      return flag(at / "segments", "needs 1 to " + std::to_string(MAX_SEGMENTS) + " segments");
    size_t remainders = 0;
    for (size_t i = 0; i < segments->size(); ++i) {
      const Pointer s = at / "segments" / i;
      PanelBarSegment segment;
      if (!field(s, Json::value_t::object, "an object") ||
          !onlyFields(s, {"label", "label_de", "key", "remainder_of"}) ||
          !panelText(s, "label", segment.label))
        return false;
      const bool hasKey = find(s / "key") != nullptr;
      if (hasKey == (find(s / "remainder_of") != nullptr))
        return flag(s, "a segment needs exactly one of \"key\" and \"remainder_of\"");
      if (hasKey ? !outputKey(s / "key", hasRace, segment.key)
                 : !outputKey(s / "remainder_of", hasRace, segment.remainder))
        return false;
      if (!hasKey && ++remainders > 1)
        return flag(s / "remainder_of", "at most one segment is a remainder");
      bar.segments.push_back(std::move(segment));
    }
    return true;
  }
};

double snapped(const PanelKnob& knob, double value) {
  if (!knob.choices.empty())
    return std::clamp(std::round(value), 0.0, double(knob.choices.size() - 1));
  const double v = std::clamp(value, knob.min, knob.max);
  return std::clamp(knob.min + std::round((v - knob.min) / knob.step) * knob.step, knob.min,
                    knob.max);
}

void addError(PanelView& view, const std::string& message) {
  view.error += (view.error.empty() ? "" : "; ") + message;
}

}  // namespace

const std::string& PanelText::in(std::string_view language) const {
  return language == "de" && !de.empty() ? de : en;
}

const PanelRowView* PanelView::value(std::string_view key) const {
  for (const PanelRowView& v : values)
    if (v.key == key) return &v;
  return nullptr;
}

const Panel* PanelSet::find(std::string_view id) const {
  for (const Panel& p : panels)
    if (p.id == id) return &p;
  return nullptr;
}

sim::Result<PanelSet> parsePanels(const sim::JsonFile& file) {
  return PanelParser(file).run();
}

sim::Result<PanelSet> loadPanels(const std::filesystem::path& path) {
  auto file = sim::readJsonFile(path);
  if (!file) return sim::Result<PanelSet>::failure(file.error());
  return parsePanels(*file);
}

std::filesystem::path panelsFile() {
  return sim::assetsDir() / "panels.json";
}

std::vector<double> defaultKnobValues(const Panel& panel) {
  return std::vector<double>(panel.knobs.size(), std::numeric_limits<double>::quiet_NaN());
}

std::vector<std::string> panelAssignments(const Panel& panel,
                                          const std::vector<double>& knobValues) {
  std::vector<std::string> out = panel.sets;
  for (size_t i = 0; i < panel.knobs.size() && i < knobValues.size(); ++i) {
    if (std::isnan(knobValues[i])) continue;
    const PanelKnob& knob = panel.knobs[i];
    const double v = snapped(knob, knobValues[i]);
    out.push_back(knob.path + "=" +
                  (knob.choices.empty() ? sim::significant(v, 15) : knob.choices[size_t(v)]));
  }
  return out;
}

std::vector<std::string> engineAssignments(const Panel& panel,
                                           const std::vector<double>& knobValues) {
  std::vector<std::string> out;
  for (size_t i = 0; i < panel.knobs.size() && i < knobValues.size(); ++i) {
    const PanelKnob& knob = panel.knobs[i];
    if (knob.engine.empty() || std::isnan(knobValues[i])) continue;
    const double v = snapped(knob, knobValues[i]);
    out.push_back(knob.engine + "=" +
                  (knob.choices.empty() ? sim::significant(v, 15) : knob.choices[size_t(v)]));
  }
  return out;
}

namespace {

using sim::Evaluation;

PanelRowView raceRow(const PanelRow& row, sim::PixelRaceFigures& race, std::string_view language) {
  PanelRowView r;
  r.label = row.label.in(language);
  r.key = row.key;
  const std::string name = row.key.substr(std::string_view("race.").size());
  r.value = race.values[name];
  r.text = sim::formatQuantity(r.value, row.key);
  if (auto it = race.provenance.find(name); it != race.provenance.end()) {
    r.basis = it->second.first;
    r.source = it->second.second;
  }
  return r;
}

// An evaluation output as a row; nullopt when the evaluation lacks it.
std::optional<PanelRowView> outputRow(const PanelRow& row, const Evaluation& evaluation,
                                      std::string_view language) {
  const sim::Output* out = evaluation.find(row.key);
  if (!out) return std::nullopt;
  PanelRowView r;
  r.label = row.label.in(language);
  r.key = row.key;
  if (const double* number = std::get_if<double>(&out->value)) {
    r.value = *number;
    r.text = sim::formatQuantity(*number, row.key);
  } else if (const bool* flag = std::get_if<bool>(&out->value)) {
    r.isFlag = true;
    r.value = *flag ? 1.0 : 0.0;
    r.text = *flag ? (language == "de" ? "ja" : "yes") : (language == "de" ? "nein" : "no");
  } else {
    r.value = std::numeric_limits<double>::quiet_NaN();
    r.text = std::get<std::string>(out->value);
  }
  return r;
}

// The knob at its effective value: the evaluated `value_key`, else the scenario field.
PanelKnobView knobView(const PanelKnob& knob, const Evaluation& evaluation,
                       const sim::ScenarioDesc& scenario, std::string_view language,
                       PanelView& view) {
  PanelKnobView k;
  k.label = knob.label.in(language);
  k.path = knob.path;
  k.min = knob.min;
  k.max = knob.max;
  k.step = knob.step;
  k.log = knob.log;
  k.choices = knob.choices;
  std::string current;
  double number = std::numeric_limits<double>::quiet_NaN();
  if (!knob.valueKey.empty()) {
    const sim::Output* out = evaluation.find(knob.valueKey);
    if (!out) {
      addError(view, knob.valueKey + " is not an output of scenario " + scenario.name);
    } else if (const double* n = std::get_if<double>(&out->value)) {
      number = *n;
    } else if (const std::string* text = std::get_if<std::string>(&out->value)) {
      current = *text;
    }
  } else if (const auto* field = sim::findScenarioField(knob.path)) {
    if (field->kind == sim::FieldKind::Text) {
      current = field->text(scenario);
    } else {
      number = field->number(scenario);
    }
  }
  if (knob.choices.empty()) {
    k.value = number;
    k.text = std::isnan(number) ? "" : sim::formatQuantity(number, knob.path);
    return k;
  }
  if (current.empty() && !std::isnan(number)) current = sim::significant(number, 15);
  auto it = std::find(knob.choices.begin(), knob.choices.end(), current);
  k.value = it == knob.choices.end() ? -1.0 : double(it - knob.choices.begin());
  k.text = current;
  return k;
}

PanelBarView barView(const PanelBar& spec, const Evaluation& evaluation,
                     std::string_view language) {
  PanelBarView bar;
  bar.label = spec.label.in(language);
  bar.overText = spec.overLabel.in(language);
  bar.capacity = evaluation.number(spec.capacityKey);
  double known = 0, total = std::numeric_limits<double>::quiet_NaN();
  for (const PanelBarSegment& s : spec.segments) {
    if (s.key.empty()) {
      total = evaluation.number(s.remainder);
    } else {
      known += evaluation.number(s.key);
    }
  }
  for (const PanelBarSegment& s : spec.segments) {
    const double value = s.key.empty() ? total - known : evaluation.number(s.key);
    bar.segments.push_back({s.label.in(language), value,
                            sim::formatQuantity(value, s.key.empty() ? s.remainder : s.key)});
    bar.total += value;
  }
  bar.capacityText = sim::formatQuantity(bar.capacity, spec.capacityKey);
  bar.totalText = sim::formatQuantity(bar.total, spec.capacityKey);
  bar.over = bar.total > bar.capacity;
  return bar;
}

}  // namespace

PanelView evaluatePanel(const Panel& panel, const sim::ScenarioDesc& base,
                        const std::vector<double>& knobValues, const sim::Catalog& catalog,
                        std::string_view language) {
  PanelView view;
  view.id = panel.id;
  view.title = panel.title.in(language);
  view.scenario = base.name;
  view.assignments = panelAssignments(panel, knobValues);
  sim::ScenarioDesc scenario = base;
  for (const std::string& assignment : view.assignments) {
    auto applied = sim::applyOverride(scenario, assignment);
    if (!applied) {
      addError(view, applied.error());
      return view;
    }
  }
  auto evaluation = sim::evaluateScenario(scenario, catalog);
  if (!evaluation) {
    addError(view, scenario.name + ": " + evaluation.error());
    return view;
  }
  sim::PixelRaceFigures race;
  if (panel.race) {
    const sim::Output* gpu = evaluation->find("hardware.gpu");
    const std::string* gpuId = gpu ? std::get_if<std::string>(&gpu->value) : nullptr;
    auto figures = sim::pixelRace(catalog, panel.race->cpu, gpuId ? *gpuId : "",
                                  panel.race->width_px, panel.race->height_px);
    if (figures) {
      race = std::move(*figures);
      view.race = PixelRaceView{race.values["pixels"], race.values["cpu_frame_s"],
                                race.values["gpu_frame_s"]};
    } else {
      addError(view, figures.error());
    }
  }
  for (const PanelRow& row : panel.rows) {
    if (row.key.rfind("race.", 0) == 0) {
      if (view.race) view.rows.push_back(raceRow(row, race, language));
    } else if (auto r = outputRow(row, *evaluation, language)) {
      view.rows.push_back(std::move(*r));
    } else {
      addError(view, row.key + " is not an output of scenario " + scenario.name);
    }
  }
  for (const sim::Output& out : evaluation->outputs) {
    if (auto v = outputRow({{}, out.section + "." + out.key}, *evaluation, language))
      view.values.push_back(std::move(*v));
  }
  if (view.race) {
    for (const std::string& key : raceKeys())
      view.values.push_back(raceRow({{}, "race." + key}, race, language));
  }
  for (const PanelKnob& knob : panel.knobs)
    view.knobs.push_back(knobView(knob, *evaluation, scenario, language, view));
  for (const PanelButton& b : panel.buttons)
    view.buttons.push_back({b.id, b.label.in(language), b.inject, b.engineScenario});
  if (panel.roofline) {
    RooflineView roof;
    roof.peak_flops = evaluation->number(panel.roofline->peakKey);
    roof.bandwidth_Bps = evaluation->number(panel.roofline->bandwidthKey);
    roof.ridge_flops_per_byte = sim::calc::ridgePoint(roof.peak_flops, roof.bandwidth_Bps);
    bool finite = std::isfinite(roof.ridge_flops_per_byte) && roof.peak_flops > 0;
    for (const Roofline::Point& p : panel.roofline->points) {
      RooflineView::Point point;
      point.label = p.label.in(language);
      point.intensity_flops_per_byte = evaluation->number(p.intensityKey);
      point.attainable_flops = sim::calc::attainableFlops(point.intensity_flops_per_byte,
                                                          roof.peak_flops, roof.bandwidth_Bps);
      point.memoryBound = point.intensity_flops_per_byte < roof.ridge_flops_per_byte;
      finite = finite && std::isfinite(point.intensity_flops_per_byte) &&
               point.intensity_flops_per_byte > 0;
      roof.points.push_back(std::move(point));
    }
    if (finite) {
      view.roofline = std::move(roof);
    } else {
      addError(view,
               "the roofline's figures are not all positive numbers in scenario " + scenario.name);
    }
  }
  if (panel.bar) {
    view.bar = barView(*panel.bar, *evaluation, language);
    if (!std::isfinite(view.bar->total) || !std::isfinite(view.bar->capacity)) {
      view.bar->over = false;
      addError(view, "the bar's figures are not all numbers in scenario " + scenario.name);
    }
    view.oom = view.bar->over;
  }
  if (panel.verdict == "bar" && view.bar) {
    const PanelBarView& bar = *view.bar;
    view.verdict = PanelVerdictView{
        bar.totalText + " / " + bar.capacityText + " — " +
            (bar.over ? bar.overText : std::string(language == "de" ? "passt" : "fits")),
        bar.over, "bar"};
  } else if (!panel.verdict.empty()) {
    for (const PanelRowView& row : view.rows) {
      if (row.key != panel.verdict) continue;
      view.verdict =
          PanelVerdictView{row.label + ": " + row.text, row.isFlag && row.value == 0.0, row.key};
    }
  }
  return view;
}

}  // namespace app
