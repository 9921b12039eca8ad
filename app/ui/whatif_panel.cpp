#include "app/ui/whatif_panel.h"

#include <cmath>

#include <imgui.h>

#include "sim/engine/scenarios.h"

namespace app {

using sim::engine::FaultDesc;
using sim::engine::FaultKind;

// --- the panel ---

void WhatIfPanel::follow(const WhatIfState& state) {
  if (state.noticeSerial != m_noticeSerial) {  // the host took or refused a command
    m_noticeSerial = state.noticeSerial;
    m_message = state.notice;
    m_messageIsError = state.noticeIsError;
  }
  if (state.generation == m_generation && state.request == m_request) return;
  // A new engine, by this panel or something else (the tour, a scrub): show what runs.
  m_generation = state.generation;
  m_request = state.request;
  refillFields();
}

void WhatIfPanel::refillFields() {
  const auto desc = sim::engine::engineDescOf(m_request);
  m_fieldText.clear();
  for (const std::string& path : sim::engine::engineFieldPaths()) {
    m_fieldText.push_back(desc ? sim::engine::engineFieldValue(*desc, path) : std::string());
  }
}

void WhatIfPanel::ask(std::vector<SimCommand>& commands, sim::engine::EngineRequest request,
                      bool resumeNow, const std::string& done) {
  // Checked here too, so a bad field is refused with its path at once; the host checks again.
  if (auto desc = sim::engine::engineDescOf(request); !desc) {
    m_message = desc.error();
    m_messageIsError = true;
    return;
  }
  commands.push_back(SimCommand::restart(std::move(request), resumeNow, done));
}

void WhatIfPanel::draw(const WhatIfState& state, std::vector<SimCommand>& commands) {
  follow(state);
  if (!m_open) return;
  const double now_s = state.time_s;
  ImGui::SetNextWindowPos(ImVec2(20, 120), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(460, 560), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("What-if and faults", &m_open)) {
    ImGui::End();
    return;
  }
  // Scenario: a built-in engine scenario, restarted from t = 0.
  const std::vector<std::string> names = sim::engine::builtinScenarioNames();
  if (ImGui::BeginCombo("scenario", m_request.scenario.c_str())) {
    for (const std::string& name : names) {
      if (ImGui::Selectable(name.c_str(), name == m_request.scenario) &&
          name != m_request.scenario) {
        ask(commands, sim::engine::EngineRequest{name, {}, m_request.faults}, false,
            "Running " + name + " from t = 0");
      }
    }
    ImGui::EndCombo();
  }

  // Fields: edit any, then apply them all (only those that differ from the scenario's own).
  ImGui::Separator();
  ImGui::TextUnformatted("workload and fabric");
  const std::vector<std::string> paths = sim::engine::engineFieldPaths();
  // The running engine was started from m_request (follow() keeps them together).
  const auto running = sim::engine::engineDescOf(m_request);
  const bool training =
      running && sim::engine::engineFieldValue(*running, "workload.kind") == "training";
  m_fieldText.resize(paths.size());
  for (size_t i = 0; i < paths.size(); ++i) {
    const bool inference = paths[i].rfind("workload.inference.", 0) == 0;
    const bool trainingField = paths[i].rfind("workload.training.", 0) == 0;
    if ((training && inference) || (!training && trainingField)) continue;
    char buffer[128];
    std::snprintf(buffer, sizeof(buffer), "%s", m_fieldText[i].c_str());
    if (ImGui::InputText(paths[i].c_str(), buffer, sizeof(buffer))) m_fieldText[i] = buffer;
  }
  if (ImGui::Button("Apply (restart at t = 0)")) {
    const auto base = sim::engine::builtinScenario(m_request.scenario);
    sim::engine::EngineRequest request{m_request.scenario, {}, m_request.faults};
    for (size_t i = 0; i < paths.size(); ++i) {
      if (base && m_fieldText[i] != sim::engine::engineFieldValue(*base, paths[i])) {
        request.overrides.push_back(paths[i] + "=" + m_fieldText[i]);
      }
    }
    ask(commands, std::move(request), false, "Restarted with the new fields");
  }
  ImGui::SameLine();
  if (ImGui::Button("Reset fields")) refillFields();

  // Faults: injected now (a rerun to now with the fault starting then), cleared now.
  ImGui::Separator();
  ImGui::TextUnformatted("faults");
  const char* kinds[] = {"link_down", "pfc_storm", "pump_trip", "straggler"};
  ImGui::Combo("kind", &m_faultKind, kinds, 4);
  ImGui::InputInt("target id", &m_faultTarget);
  ImGui::SliderFloat("severity (0 = catalog)", &m_faultSeverity, 0.0f, 1.0f, "%.2f");
  char inject[64];
  // The live time is the label only: the widget's ID stays "inject" while the time runs.
  std::snprintf(inject, sizeof(inject), "Inject at t = %.2f s###inject", now_s);
  if (ImGui::Button(inject)) {
    if (m_faultTarget < 0) {
      m_message = "target id must be >= 0";
      m_messageIsError = true;
    } else {
      auto faults = sim::engine::injectFault(
          m_request.faults, FaultKind(m_faultKind), uint32_t(m_faultTarget),
          std::round(double(m_faultSeverity) * 100.0) / 100.0, now_s);
      if (!faults) {
        m_message = faults.error();
        m_messageIsError = true;
      } else {
        ask(commands, sim::engine::EngineRequest{m_request.scenario, m_request.overrides, *faults},
            true, "Injected " + sim::engine::faultSpecText(faults->back()));
      }
    }
  }
  for (size_t i = 0; i < m_request.faults.size(); ++i) {
    ImGui::PushID(int(i));
    ImGui::TextUnformatted(sim::engine::faultSpecText(m_request.faults[i]).c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("clear now")) {
      auto faults = sim::engine::clearFault(m_request.faults, i, now_s);
      if (faults) {
        ask(commands, sim::engine::EngineRequest{m_request.scenario, m_request.overrides, *faults},
            true, "Cleared at t = " + sim::engine::shortestText(now_s) + " s");
      }
    }
    ImGui::PopID();
  }
  if (const auto desc = sim::engine::builtinScenario(m_request.scenario); desc) {
    for (const FaultDesc& f : desc->faults) {
      ImGui::TextDisabled("%s (the scenario's own)", sim::engine::faultSpecText(f).c_str());
    }
  }
  if (!m_message.empty()) {
    ImGui::Separator();
    if (m_messageIsError) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
      ImGui::TextWrapped("%s", m_message.c_str());
      ImGui::PopStyleColor();
    } else {
      ImGui::TextWrapped("%s", m_message.c_str());
    }
  }
  ImGui::End();
}

}  // namespace app
