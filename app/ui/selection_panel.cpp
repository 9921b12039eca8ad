#include "app/ui/selection_panel.h"

#include <algorithm>
#include <cstdio>

#include <imgui.h>

#include "app/ui/panels.h"
#include "app/ui/ui_layer.h"
#include "app/ui/ui_text.h"
#include "app/ui/widgets.h"

namespace app {
namespace {

// The live numbers' names in the UI's language.
std::string metricName(const std::string& label, const std::string& language) {
  const std::string key = "selection." + label;
  const char* text = uiText(key, language);
  return key == text ? label : std::string(text);
}

}  // namespace

std::string formatWithUnit(double value, const std::string& unit) {
  // Into SI and the key suffix formatQuantity reads.
  if (unit == "W") return sim::formatQuantity(value, "x_W");
  if (unit == "kW") return sim::formatQuantity(value * 1e3, "x_W");
  if (unit == "%") return sim::formatQuantity(value / 100.0, "x_fraction");
  if (unit == "°C") return sim::formatQuantity(value, "x_C");
  if (unit == "GB/s") return sim::formatQuantity(value * 1e9, "x_Bps");
  return sim::formatQuantity(value, "x") + (unit.empty() ? "" : "\u00a0" + unit);
}

void SelectionPanel::update(const std::optional<world::PickHit>& hit, const world::World& world,
                            const sim::engine::Snapshot& snapshot, const sim::Catalog& catalog) {
  if (!hit) {
    m_info = {};
    m_history.clear();
    return;
  }
  if (hit->path != m_info.path) {
    m_history.clear();
    m_lastTime_s = -1;
  }
  m_info = world::describeSelection(*hit, world, snapshot, catalog);
  // One sample per simulated moment: a paused simulation does not fill the plot with copies.
  const double now_s = snapshot.time_s;
  if (!m_info.live.empty() && now_s != m_lastTime_s) {
    m_history.push_back(float(m_info.live.front().value));
    if (m_history.size() > HISTORY) m_history.erase(m_history.begin());
    m_lastTime_s = now_s;
  }
}

bool SelectionPanel::draw(const ScreenRect& region, const std::string& language) const {
  if (!active() || emptyRect(region)) return false;
  const float em = ImGui::GetFontSize();
  placeInRegion(region, 1.0f, 0.0f, region[2] - region[0]);
  ImGui::Begin("##selection", nullptr, panelWindowFlags());
  const float width = ImGui::GetContentRegionAvail().x;
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  ImGui::TextUnformatted(m_info.title.c_str());
  ImGui::TextDisabled("%s", m_info.path.c_str());
  if (m_info.mirrored) ImGui::TextDisabled("%s", uiText("selection.mirrored", language));
  ImGui::Separator();
  for (const world::SelectionMetric& m : m_info.live) {
    ImGui::TextUnformatted(metricName(m.label, language).c_str());
    ImGui::SameLine(width * 0.6f);
    ImGui::TextUnformatted(formatWithUnit(m.value, m.unit).c_str());
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::TextUnformatted(withValue(uiText("panel.basis", language), "derived").c_str());
      ImGui::TextUnformatted(
          withValue(uiText("panel.source", language), "dcwalk engine snapshot").c_str());
      ImGui::EndTooltip();
    }
  }
  if (!m_history.empty()) {
    const auto [lo, hi] = std::minmax_element(m_history.begin(), m_history.end());
    const std::string& unit = m_info.live.front().unit;
    const std::string overlay = metricName(m_info.live.front().label, language) + ": " +
                                formatWithUnit(*lo, unit) + " – " + formatWithUnit(*hi, unit);
    // The label above the plot: ImGui's overlay would write it across the line.
    ImGui::TextDisabled("%s", overlay.c_str());
    ImGui::PlotLines("##history", m_history.data(), int(m_history.size()), 0, nullptr,
                     std::min(0.0f, *lo), std::max(*hi, *lo + 1e-3f), ImVec2(width, em * 3.5f));
    recordControl(overlay, "history");
  }
  if (!m_info.specs.empty()) {
    ImGui::Separator();
    ImGui::TextDisabled("%s", uiText("selection.catalog", language));
    for (const world::SelectionFigure& f : m_info.specs) {
      const std::string name = f.key.substr(f.key.rfind('.') + 1);
      ImGui::TextUnformatted(name.c_str());
      ImGui::SameLine(width * 0.6f);
      ImGui::TextUnformatted(sim::formatQuantity(f.value, f.key).c_str());
      if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(em * 30.0f);
        ImGui::TextUnformatted(
            withValue(uiText("panel.basis", language), sim::basisName(f.basis)).c_str());
        ImGui::TextWrapped("%s", withValue(uiText("panel.source", language), f.source).c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
      }
    }
  }
  ImGui::Separator();
  ImGui::TextDisabled("%s", uiText("selection.clear", language));
  ImGui::PopTextWrapPos();
  ImGui::End();
  return true;
}

}  // namespace app
