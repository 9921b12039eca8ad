#include "app/ui/whatif_panel.h"

#include <cmath>

#include <cstdio>

#include <imgui.h>

#include "app/ui/ui_layer.h"
#include "app/ui/ui_text.h"
#include "app/ui/widgets.h"
#include "sim/engine/scenarios.h"

namespace app {

using sim::engine::FaultDesc;
using sim::engine::FaultKind;

namespace {

constexpr FieldName FIELD_NAMES[] = {
    {"workload.kind", "Workload", "Last", ""},
    {"workload.training.model", "Model", "Modell", ""},
    {"workload.training.precision", "Number format", "Zahlenformat", ""},
    {"workload.training.tp", "Tensor parallel", "Tensor-parallel", "GPUs"},
    {"workload.training.pp", "Pipeline stages", "Pipeline-Stufen", ""},
    {"workload.training.dp", "Data-parallel replicas", "Datenparallele Kopien", ""},
    {"workload.training.ep", "Expert parallel", "Experten-parallel", "GPUs"},
    {"workload.training.zero_stage", "ZeRO stage", "ZeRO-Stufe", "0–3"},
    {"workload.training.seq_len_tokens", "Sequence length", "Sequenzlänge", "tokens"},
    {"workload.training.micro_batch", "Micro-batch", "Mikro-Batch", "sequences"},
    {"workload.training.micro_batches", "Micro-batches per step", "Mikro-Batches je Schritt", ""},
    {"workload.training.virtual_stages", "Virtual stages per GPU", "Virtuelle Stufen je GPU", ""},
    {"workload.inference.model", "Model", "Modell", ""},
    {"workload.inference.weights", "Weights format", "Gewichtsformat", ""},
    {"workload.inference.kv_cache", "KV cache format", "KV-Cache-Format", ""},
    {"workload.inference.math", "Math format", "Rechenformat", ""},
    {"workload.inference.tp", "Tensor parallel", "Tensor-parallel", "GPUs"},
    {"workload.inference.replicas", "Replicas", "Kopien", "0 = all GPUs"},
    {"workload.inference.max_batch", "Largest batch", "Größter Batch", "sequences"},
    {"workload.inference.prompt_tokens", "Prompt length", "Promptlänge", "tokens"},
    {"workload.inference.output_tokens", "Answer length", "Antwortlänge", "tokens"},
    {"workload.inference.arrival_rate_per_replica_per_s", "Requests per replica",
     "Anfragen je Kopie", "1/s"},
    {"cluster.system", "Rack system", "Rack-System", ""},
    {"cluster.switch", "Network switch", "Netz-Switch", ""},
    {"cluster.rail_optimized", "Rail-optimized fabric", "Rail-optimiertes Netz", ""},
};

// Every system the world has a drawing of (an NVL72 rack, or an HGX chassis with catalog
// dimensions); another system given as a field is refused by the host, naming why.
const std::vector<SystemName> SYSTEMS = {{"gb200_nvl72", "GB200 NVL72"},
                                         {"dgx_h100", "DGX H100"},
                                         {"hgx_h200", "HGX H200"},
                                         {"dgx_b200", "DGX B200"}};

// The system `request` runs on, for people: "DGX H100" (its id when the panel has no name for it).
std::string systemNameOf(const sim::engine::EngineRequest& request) {
  const auto desc = sim::engine::engineDescOf(request);
  const std::string id = desc ? sim::engine::engineFieldValue(*desc, "cluster.system") : "";
  for (const SystemName& s : SYSTEMS)
    if (id == s.id) return s.name;
  return id;
}

// "Tensor parallel (GPUs)".
std::string fieldLabel(const std::string& path, const std::string& language) {
  const FieldName* name = engineFieldName(path);
  if (!name) return path;
  std::string label = language == "de" ? name->de : name->en;
  if (*name->unit) label += std::string(" (") + name->unit + ")";
  return label;
}

}  // namespace

// --- the panel ---

void WhatIfPanel::follow(const WhatIfState& state) {
  if (state.noticeSerial != m_noticeSerial) {  // the host took or refused a command
    m_noticeSerial = state.noticeSerial;
    m_message = state.notice;
    m_messageIsError = state.noticeIsError;
    if (state.noticeIsError) m_askedAnotherRun = false;  // refused: the run goes on
  }
  if (state.generation != m_generation || state.request != m_request) {
    // A new engine, by this panel or something else (the tour, a scrub): show what runs. Another
    // scenario, system or fields the visitor asked for here is compared with the run before; one
    // the tour brings ends the comparison (it is no longer the visitor's what-if).
    if (isAnotherRun(state.request)) {
      if (m_askedAnotherRun && !m_current.scenario.empty()) {
        m_previous = m_current;
      } else {
        m_previous.reset();
      }
      m_askedAnotherRun = false;
    }
    m_generation = state.generation;
    m_request = state.request;
    refillFields();
  }
  takeNumbers(state);
}

void WhatIfPanel::takeNumbers(const WhatIfState& state) {
  if (!state.snapshot || !state.catalog) return;
  m_current.system = systemNameOf(m_request);
  m_current.scenario = m_request.scenario;
  m_current.numbers = keyNumbersFor(m_request.scenario, *state.catalog, *state.snapshot);
  m_current.time_s = state.time_s;
}

std::optional<WhatIfComparison> WhatIfPanel::comparison() const {
  if (!m_previous) return std::nullopt;
  return WhatIfComparison{*m_previous, m_current};
}

std::vector<WhatIfComparisonRow> comparisonRows(const WhatIfComparison& comparison) {
  static constexpr const char* NAMES[] = {"whatif.compare.step", "whatif.compare.tokens",
                                          "whatif.compare.power", "whatif.compare.cost"};
  std::vector<WhatIfComparisonRow> rows;
  for (KeyNumber which : KEY_NUMBERS) {
    std::string previous = keyNumberText(comparison.previous.numbers, which);
    std::string current = keyNumberText(comparison.current.numbers, which);
    if (previous.empty() && current.empty()) continue;  // neither run has it
    rows.push_back({NAMES[size_t(which)], previous.empty() ? "—" : std::move(previous),
                    current.empty() ? "—" : std::move(current)});
  }
  return rows;
}

void WhatIfPanel::drawComparison(const std::string& language) {
  const std::optional<WhatIfComparison> c = comparison();
  if (!c) return;
  const std::string header = std::string(uiText("whatif.compare", language)) + "###compare";
  if (!ImGui::CollapsingHeader(header.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (ImGui::BeginTable("##compare", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
    // Each column is headed by its run: the system, and the scenario when the two differ.
    const bool scenarios = c->previous.scenario != c->current.scenario;
    const WhatIfRun* runs[] = {&c->previous, &c->current};
    const char* heads[] = {"whatif.compare.previous", "whatif.compare.now"};
    ImGui::TableNextRow();
    for (int k = 0; k < 2; ++k) {
      ImGui::TableSetColumnIndex(k + 1);
      ImGui::TextDisabled("%s", withValue(uiText(heads[k], language), runs[k]->system).c_str());
      if (scenarios) ImGui::TextDisabled("%s", runs[k]->scenario.c_str());
    }
    for (const WhatIfComparisonRow& row : comparisonRows(*c)) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(uiText(row.nameKey, language));
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(row.previous.c_str());
      ImGui::TableSetColumnIndex(2);
      ImGui::TextUnformatted(row.current.c_str());
    }
    ImGui::EndTable();
  }
  // Basis: whose figures they are (the panel runs built-ins: the engine's) and of which moment.
  const std::string basis =
      withValue(uiText("whatif.compare.basis", language), secondsText(c->previous.time_s));
  ImGui::TextDisabled("%s", withValue(basis, secondsText(c->current.time_s)).c_str());
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
  m_askedAnotherRun = m_askedAnotherRun || isAnotherRun(request);
  commands.push_back(SimCommand::restart(std::move(request), resumeNow, done));
}

void WhatIfPanel::chooseSystem(const std::string& systemId, const std::string& language,
                               std::vector<SimCommand>& commands) {
  const char* name = systemId.c_str();
  for (const SystemName& s : SYSTEMS)
    if (systemId == s.id) name = s.name;
  ask(commands, withSystem(m_request, systemId), false,
      withValue(uiText("notice.running", language), name));
}

bool WhatIfPanel::isAnotherRun(const sim::engine::EngineRequest& request) const {
  return request.scenario != m_request.scenario || request.overrides != m_request.overrides;
}

const std::vector<SystemName>& whatIfSystems() {
  return SYSTEMS;
}

sim::engine::EngineRequest withSystem(const sim::engine::EngineRequest& running,
                                      const std::string& systemId) {
  // The faults stay (the host refuses one whose target the new cluster lacks).
  sim::engine::EngineRequest request{running.scenario, {}, running.faults};
  for (const std::string& o : running.overrides)
    if (o.rfind("cluster.system=", 0) != 0) request.overrides.push_back(o);
  request.overrides.push_back("cluster.system=" + systemId);
  return request;
}

const FieldName* engineFieldName(std::string_view path) {
  for (const FieldName& f : FIELD_NAMES)
    if (path == f.path) return &f;
  return nullptr;
}

void WhatIfPanel::drawSystemChoice(const WhatIfState& state, const std::string& language,
                                   std::vector<SimCommand>& commands) {
  // The system of the request that runs: its override, else the scenario's own.
  const auto desc = sim::engine::engineDescOf(m_request);
  const std::string running = desc ? sim::engine::engineFieldValue(*desc, "cluster.system") : "";
  const std::string label = std::string(uiText("whatif.system", language)) + "###system";
  if (ImGui::BeginCombo(label.c_str(), systemNameOf(m_request).c_str())) {
    for (const SystemName& s : SYSTEMS) {
      if (ImGui::Selectable(s.name, running == s.id) && running != s.id)
        chooseSystem(s.id, language, commands);
    }
    ImGui::EndCombo();
  }
  if (!state.rebuilding.empty()) {
    ImGui::TextDisabled("%s",
                        withValue(uiText("whatif.rebuilding", language), state.rebuilding).c_str());
  }
}

void WhatIfPanel::draw(const WhatIfState& state, const ScreenRect& region,
                       const std::string& language, std::vector<SimCommand>& commands) {
  follow(state);
  if (!m_open || emptyRect(region)) return;
  const double now_s = state.time_s;
  placeInRegion(region, 1.0f, 0.0f, region[2] - region[0]);
  ImGui::Begin("##whatif", nullptr, panelWindowFlags());
  const float width = ImGui::GetContentRegionAvail().x;
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  ImGui::TextUnformatted(uiText("whatif.title", language));
  ImGui::Separator();
  ImGui::PushItemWidth(width * 0.45f);
  // Scenario: a built-in engine scenario, restarted from t = 0.
  const std::vector<std::string> names = sim::engine::builtinScenarioNames();
  const std::string scenarioLabel =
      std::string(uiText("whatif.scenario", language)) + "###scenario";
  if (ImGui::BeginCombo(scenarioLabel.c_str(), m_request.scenario.c_str())) {
    for (const std::string& name : names) {
      if (ImGui::Selectable(name.c_str(), name == m_request.scenario) &&
          name != m_request.scenario) {
        ask(commands, sim::engine::EngineRequest{name, {}, m_request.faults}, false,
            withValue(uiText("notice.running", language), name));
      }
    }
    ImGui::EndCombo();
  }
  drawSystemChoice(state, language, commands);
  ImGui::PopItemWidth();
  drawComparison(language);

  // Faults first, above the fold: injected now (a rerun to now with the fault starting then),
  // cleared now; the host's answer under the button.
  ImGui::Separator();
  ImGui::TextDisabled("%s", uiText("whatif.faults", language));
  const char* kinds[] = {
      uiText("whatif.kind.link_down", language), uiText("whatif.kind.pfc_storm", language),
      uiText("whatif.kind.pump_trip", language), uiText("whatif.kind.straggler", language)};
  ImGui::PushItemWidth(width * 0.45f);
  ImGui::Combo((std::string(uiText("whatif.kind", language)) + "###kind").c_str(), &m_faultKind,
               kinds, 4);
  ImGui::InputInt((std::string(uiText("whatif.target", language)) + "###target").c_str(),
                  &m_faultTarget);
  ImGui::SliderFloat((std::string(uiText("whatif.severity", language)) + "###severity").c_str(),
                     &m_faultSeverity, 0.0f, 1.0f, "%.2f");
  ImGui::PopItemWidth();
  // The live time is the label only: the widget's ID stays "inject" while the time runs.
  if (stableButton(withValue(uiText("whatif.inject", language), secondsText(now_s)), "inject")) {
    if (m_faultTarget < 0) {
      m_message = uiText("whatif.target_negative", language);
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
            true,
            withValue(uiText("notice.injected", language), faultLabel(faults->back(), language)));
      }
    }
  }
  // The host's answer right under the button that asked, not below the fold.
  if (!m_message.empty()) {
    if (m_messageIsError) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
      ImGui::TextWrapped("%s", m_message.c_str());
      ImGui::PopStyleColor();
    } else {
      ImGui::TextWrapped("%s", m_message.c_str());
    }
  }
  for (size_t i = 0; i < m_request.faults.size(); ++i) {
    ImGui::PushID(int(i));
    ImGui::TextUnformatted(faultLabel(m_request.faults[i], language).c_str());
    ImGui::SameLine();
    if (stableSmallButton(uiText("whatif.clear", language), "clear")) {
      auto faults = sim::engine::clearFault(m_request.faults, i, now_s);
      if (faults) {
        ask(commands, sim::engine::EngineRequest{m_request.scenario, m_request.overrides, *faults},
            true, withValue(uiText("whatif.cleared", language), secondsText(now_s)));
      }
    }
    ImGui::PopID();
  }
  if (const auto desc = sim::engine::builtinScenario(m_request.scenario); desc) {
    for (const FaultDesc& f : desc->faults) {
      ImGui::TextDisabled(
          "%s", withValue(uiText("whatif.own", language), faultLabel(f, language)).c_str());
    }
  }
  // Fields: edit any, then apply them all (only those that differ from the scenario's own).
  ImGui::Separator();
  ImGui::PushItemWidth(width * 0.45f);
  ImGui::TextDisabled("%s", uiText("whatif.fields", language));
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
    // The path is the widget's identity; the label is for people. A field of a few values
    // (true or false, a number format, the workload's kind) is a list to pick from, not a box
    // to type into.
    const std::string label = fieldLabel(paths[i], language) + "###" + paths[i];
    if (const std::vector<std::string> choices = sim::engine::engineFieldChoices(paths[i]);
        !choices.empty()) {
      if (ImGui::BeginCombo(label.c_str(), m_fieldText[i].c_str())) {
        for (const std::string& choice : choices) {
          if (ImGui::Selectable(choice.c_str(), choice == m_fieldText[i])) m_fieldText[i] = choice;
        }
        ImGui::EndCombo();
      }
    } else {
      char buffer[128];
      std::snprintf(buffer, sizeof(buffer), "%s", m_fieldText[i].c_str());
      if (ImGui::InputText(label.c_str(), buffer, sizeof(buffer))) m_fieldText[i] = buffer;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", paths[i].c_str());
  }
  if (stableButton(uiText("whatif.apply", language), "apply")) {
    const auto base = sim::engine::builtinScenario(m_request.scenario);
    sim::engine::EngineRequest request{m_request.scenario, {}, m_request.faults};
    for (size_t i = 0; i < paths.size(); ++i) {
      if (base && m_fieldText[i] != sim::engine::engineFieldValue(*base, paths[i])) {
        request.overrides.push_back(paths[i] + "=" + m_fieldText[i]);
      }
    }
    ask(commands, std::move(request), false, uiText("whatif.applied", language));
  }
  ImGui::SameLine();
  if (stableButton(uiText("whatif.reset", language), "reset_fields")) refillFields();

  ImGui::PopItemWidth();
  ImGui::PopTextWrapPos();
  ImGui::End();
}

}  // namespace app
