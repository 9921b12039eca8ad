#include "app/ui/selection_panel.h"

#include <algorithm>
#include <cstdio>

#include <imgui.h>

#include "app/ui/panel_view.h"

namespace app {

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

bool SelectionPanel::draw() const {
  if (!active()) return false;
  const ImGuiIO& io = ImGui::GetIO();
  const float em = ImGui::GetFontSize();
  const float width = em * PANEL_WIDTH_EM;
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - em, io.DisplaySize.y * 0.5f), 0,
                          ImVec2(1.0f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.85f);
  ImGui::Begin("##selection", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                   ImGuiWindowFlags_NoNav);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  ImGui::TextUnformatted(m_info.title.c_str());
  ImGui::TextDisabled("%s", m_info.path.c_str());
  if (m_info.mirrored) {
    ImGui::TextDisabled("beyond the modelled fabric: shows the modelled racks' average");
  }
  ImGui::Separator();
  ImGui::Dummy(ImVec2(width, 0.0f));
  for (const world::SelectionMetric& m : m_info.live) {
    ImGui::Text("%s", m.label.c_str());
    ImGui::SameLine(width * 0.6f);
    ImGui::Text("%.4g %s  (derived)", m.value, m.unit.c_str());
  }
  if (!m_history.empty()) {
    const auto [lo, hi] = std::minmax_element(m_history.begin(), m_history.end());
    char overlay[96];
    std::snprintf(overlay, sizeof(overlay), "%s: %.4g .. %.4g %s",
                  m_info.live.front().label.c_str(), *lo, *hi, m_info.live.front().unit.c_str());
    ImGui::PlotLines("##history", m_history.data(), int(m_history.size()), 0, overlay,
                     std::min(0.0f, *lo), std::max(*hi, *lo + 1e-3f), ImVec2(width, em * 4.0f));
  }
  if (!m_info.specs.empty()) {
    ImGui::Separator();
    ImGui::TextDisabled("catalog (point at a figure for its source)");
    for (const world::SelectionFigure& f : m_info.specs) {
      const std::string name = f.key.substr(f.key.rfind('.') + 1);
      ImGui::Text("%s", name.c_str());
      ImGui::SameLine(width * 0.6f);
      ImGui::Text("%.4g %s  (%s)", f.value, f.unit.c_str(),
                  std::string(sim::basisName(f.basis)).c_str());
      if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(em * 30.0f);
        ImGui::TextUnformatted(f.source.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
      }
    }
  }
  ImGui::PopTextWrapPos();
  ImGui::End();
  return true;
}

}  // namespace app
