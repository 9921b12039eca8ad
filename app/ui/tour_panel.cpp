#include "app/ui/tour_panel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/ui/panel_view.h"
#include "app/ui/ui_text.h"
#include "sim/scenario.h"

namespace app {

sim::Result<TourPanel> TourPanel::load(const sim::Catalog& catalog) {
  auto panels = loadPanels(panelsFile());
  if (!panels) return sim::Result<TourPanel>::failure(panels.error());
  TourPanel panel;
  panel.m_catalog = &catalog;
  panel.m_panels = std::move(*panels);
  return panel;
}

void TourPanel::follow(const world::TourFrame& frame, const std::string& language,
                       uint64_t generation) {
  m_generation = generation;
  m_fill.generation = generation;
  const Panel* panel = m_panels.find(frame.panel);
  if (!panel) {
    m_panel = nullptr;
    m_view = {};
    m_fill = {};
    m_fill.generation = generation;
    return;
  }
  const bool changed = panel != m_panel || frame.scenario != m_scenario;
  if (changed) {
    m_panel = panel;
    m_scenario = frame.scenario;
    m_base = sim::loadScenario(m_scenario);  // read once; knob changes re-evaluate it
    m_knobs = defaultKnobValues(*panel);
  }
  if (changed || language != m_language) evaluate(language);
}

void TourPanel::draw(const PanelDrawDesc& desc, const RunningSim& sim,
                     std::vector<SimCommand>& commands) {
  if (!m_panel) return;
  const PanelInput input = drawPanel(m_view, m_knobs, desc);
  if (input.knobsChanged) {
    evaluate(desc.language);
    if (auto command = engineCommand(sim, desc.language)) commands.push_back(std::move(*command));
  }
  if (input.button) {
    if (auto command = buttonCommand(*input.button, sim, desc.language))
      commands.push_back(std::move(*command));
  }
}

std::optional<SimCommand> TourPanel::buttonCommand(size_t index, const RunningSim& sim,
                                                   const std::string& language) const {
  if (index >= m_view.buttons.size()) return std::nullopt;
  const PanelButtonView& button = m_view.buttons[index];
  if (!button.engineScenario.empty()) {
    return SimCommand::restart(
        {button.engineScenario, {}, {}}, false,
        withValue(uiText("notice.running", language), button.engineScenario));
  }
  if (!button.inject) return std::nullopt;
  const sim::engine::FaultDesc& f = *button.inject;
  auto faults =
      sim::engine::injectFault(sim.request.faults, f.kind, f.target, f.severity, sim.time_s);
  if (!faults) return std::nullopt;
  return SimCommand::restart(
      {sim.request.scenario, sim.request.overrides, *faults}, true,
      withValue(uiText("notice.injected", language), faultLabel(faults->back(), language)));
}

void TourPanel::setKnob(size_t index, double value, const std::string& language) {
  if (index >= m_knobs.size()) return;
  m_knobs[index] = value;
  evaluate(language);
}

std::optional<SimCommand> TourPanel::engineCommand(const RunningSim& sim,
                                                   const std::string& language) const {
  if (!m_panel) return std::nullopt;
  // The running request with each engine knob's field set anew (the others kept).
  std::vector<std::string> overrides = sim.request.overrides;
  for (const std::string& assignment : engineAssignments(*m_panel, m_knobs)) {
    const std::string path = assignment.substr(0, assignment.find('='));
    std::erase_if(overrides, [&](const std::string& o) { return o.rfind(path + "=", 0) == 0; });
    overrides.push_back(assignment);
  }
  if (overrides == sim.request.overrides) return std::nullopt;
  return SimCommand::restart({sim.request.scenario, overrides, sim.request.faults}, true,
                             withValue(uiText("notice.running", language), sim.request.scenario));
}

world::ComputeShares rooflineShares(const RooflineView& roofline,
                                    const RooflineView::Point& point) {
  world::ComputeShares shares;
  if (roofline.peak_flops > 0) shares.tensor = point.attainable_flops / roofline.peak_flops;
  if (roofline.bandwidth_Bps > 0 && point.intensity_flops_per_byte > 0) {
    shares.hbm = point.attainable_flops / point.intensity_flops_per_byte / roofline.bandwidth_Bps;
  }
  shares.tensor = std::clamp(shares.tensor, 0.0, 1.0);
  shares.hbm = std::clamp(shares.hbm, 0.0, 1.0);
  return shares;
}

std::optional<world::ComputeShares> TourPanel::rooflineGlow(double eventTime_s) const {
  if (!m_view.roofline || m_view.roofline->points.empty()) return std::nullopt;
  const auto& points = m_view.roofline->points;
  const double t = std::isfinite(eventTime_s) ? std::max(0.0, eventTime_s) : 0.0;
  const size_t i = size_t(t / ROOFLINE_PHASE_S) % points.size();
  return rooflineShares(*m_view.roofline, points[i]);
}

std::vector<world::DiePhase> TourPanel::rooflinePhases() const {
  std::vector<world::DiePhase> out;
  if (!m_view.roofline) return out;
  for (const RooflineView::Point& p : m_view.roofline->points)
    out.push_back({p.label, rooflineShares(*m_view.roofline, p)});
  return out;
}

std::vector<world::ValueBar> TourPanel::valueBars() const {
  std::vector<world::ValueBar> out;
  if (!m_view.verdict) return out;
  const PanelRowView* verdict = m_view.value(m_view.verdict->key);
  if (!verdict) return out;
  const std::string& key = verdict->key;
  // "_per_million_tokens_usd" (appended, not "_" + substr: GCC 12 warns -Wrestrict on that)
  std::string quantity(1, '_');
  quantity += key.substr(key.find('.') + 1);
  auto firstWord = [](const std::string& label) { return label.substr(0, label.find(' ')); };
  bool chosen = false;
  for (const PanelRowView& row : m_view.rows) {
    if (row.key.rfind("comparison.", 0) != 0 || row.key.size() <= quantity.size() ||
        row.key.compare(row.key.size() - quantity.size(), quantity.size(), quantity) != 0)
      continue;
    world::ValueBar bar{firstWord(row.label) + "  " + row.text, row.value, false};
    bar.chosen = !chosen && std::abs(row.value - verdict->value) <= 1e-9 * std::abs(verdict->value);
    chosen = chosen || bar.chosen;
    out.push_back(std::move(bar));
  }
  if (out.empty()) return out;
  if (!chosen) {
    const PanelRowView* name = m_view.value("hardware.gpu");
    out.push_back({(name ? name->text : firstWord(verdict->label)) + "  " + verdict->text,
                   verdict->value, true});
  }
  return out;
}

std::optional<world::PixelRaceDesc> TourPanel::pixelRace() const {
  if (!m_view.race) return std::nullopt;
  world::PixelRaceDesc race;
  race.left.frame_s = m_view.race->cpuFrame_s;
  race.right.frame_s = m_view.race->gpuFrame_s;
  if (const PanelRowView* cpu = m_view.value("race.cpu_lanes")) {
    race.left.lanes = cpu->value;
    race.left.label = withValue(uiText("race.cpu_lanes", m_language), cpu->text);
  }
  if (const PanelRowView* gpu = m_view.value("race.gpu_lanes")) {
    race.right.lanes = gpu->value;
    race.right.label = withValue(uiText("race.gpu_lanes", m_language), gpu->text);
  }
  return race;
}

std::optional<world::PixelRaceDesc> TourPanel::tensorRace() const {
  const PanelRowView* gpu = m_view.value("hardware.gpu");
  if (!gpu || !m_catalog) return std::nullopt;
  const std::string at = "gpus." + gpu->text + ".";
  const sim::Quantity* lanes = m_catalog->find(at + "fp32_lanes_per_sm");
  const sim::Quantity* tensor = m_catalog->find(at + "tensor_flops_per_cycle_per_sm_bf16");
  const sim::Quantity* cores = m_catalog->find(at + "tensor_cores_per_sm");
  if (!lanes || !tensor || !cores || !(lanes->value > 0) || !(tensor->value > 0))
    return std::nullopt;
  // The same work at the same clock: each side's time is 1 / its FLOP per clock.
  const double cuda = 2.0 * lanes->value;
  world::PixelRaceDesc race;
  race.left = {
      1.0 / cuda, lanes->value, 0,
      withValue(uiText("race.cuda_cores", m_language), sim::formatQuantity(cuda, "count"))};
  race.right = {1.0 / tensor->value, cores->value, TILE_STAMPS,
                withValue(uiText("race.tensor_cores", m_language),
                          sim::formatQuantity(tensor->value, "count"))};
  return race;
}

void TourPanel::evaluate(const std::string& language) {
  m_language = language;
  const auto& scenario = m_base;
  if (!scenario) {
    // Tours are checked against the built-in scenarios on load; this is a file gone bad since.
    m_view = {};
    m_view.id = m_panel->id;
    m_view.title = m_panel->title.in(language);
    m_view.error = scenario.error();
    m_fill = {};
    return;
  }
  m_view = evaluatePanel(*m_panel, *scenario, m_knobs, *m_catalog, language);
  m_fill = {};
  m_fill.generation = m_generation;
  if (m_view.bar) {
    for (const auto& segment : m_view.bar->segments) m_fill.segments_bytes.push_back(segment.value);
    m_fill.capacity_bytes = m_view.bar->capacity;
  }
}

}  // namespace app
