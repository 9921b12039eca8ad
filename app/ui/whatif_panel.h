// What-if and faults from the UI (window mode, I toggles): change the running engine scenario
// (a built-in one, and its workload and fabric fields by dotted path, "path=value" as `dcwalk sim
// --set` does for the analytic scenarios) and inject or clear faults (link down, PFC storm, pump
// trip, straggler) at the current simulated time, or change the system (GB200 NVL72, DGX H100,
// DGX B200 ...: the world is rebuilt for it while the old one stays on screen). Each change is a
// SimCommand with the whole new request; the sim host applies it next frame (a new scenario or new
// fields from t = 0, a fault injected or cleared now on the running engine) and says what it did,
// or why it refused. After a change of scenario, system or fields the panel compares the previous
// run's key numbers with the current one's (app/ui/key_numbers.h, what `shot --compare` prints).
// The request logic is sim/engine/request.h; WhatIfPanel is its ImGui face.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/ui/key_numbers.h"
#include "app/ui/sim_command.h"
#include "app/ui/ui_layout.h"
#include "sim/engine/request.h"
#include "sim/result.h"

namespace app {

/// What the panel shows of the running simulation.
struct WhatIfState {
  const sim::engine::EngineRequest& request;  // what runs (SimHost::request)
  uint64_t generation = 0;                    // of the engine running it
  double time_s = 0;                          // simulated now
  const std::string& notice;                  // the host's last word on a command ...
  bool noticeIsError = false;                 // ... and whether it refused one
  uint64_t noticeSerial = 0;
  std::string rebuilding;  // the system the world is being rebuilt for ("" none)
  // The running engine's snapshot and the catalog, for the key numbers of the comparison with
  // the previous run (nullptr: none taken).
  const sim::engine::Snapshot* snapshot = nullptr;
  const sim::Catalog* catalog = nullptr;
};

/// One run of the comparison: its system for people ("DGX H100") and scenario, and its key
/// numbers at simulated time `time_s` (the previous run's as last shown).
struct WhatIfRun {
  std::string system, scenario;
  KeyNumbers numbers;
  double time_s = 0;
};
/// "Compare with the previous": the run before the visitor's last change of scenario, system or
/// fields in the panel (a fault or a scrub is the same run) and the one running.
struct WhatIfComparison {
  WhatIfRun previous, current;
};
/// A row of the comparison's table: the number's name (ui_text key) and both runs' values with
/// their units ("—" where a run has none).
struct WhatIfComparisonRow {
  const char* nameKey;
  std::string previous, current;
};
std::vector<WhatIfComparisonRow> comparisonRows(const WhatIfComparison& comparison);

/// A system the world draws (world/builders/system_layout.h) and its name for people.
struct SystemName {
  const char* id;  // catalog systems.<id>, the value of cluster.system
  const char* name;
};
/// The systems the what-if panel offers, in the order shown.
const std::vector<SystemName>& whatIfSystems();
/// `running` on system `systemId`: its scenario, faults and other fields, the system replaced.
sim::engine::EngineRequest withSystem(const sim::engine::EngineRequest& running,
                                      const std::string& systemId);

/// A field's name for people and the unit its value is in ("" for none): "Tensor parallel
/// (GPUs per group)" for workload.training.tp. Every engine field path has one (tested).
struct FieldName {
  const char* path;
  const char* en;
  const char* de;
  const char* unit;
};
const FieldName* engineFieldName(std::string_view path);

/// The ImGui panel. It shows the request that runs; when something else changes it (a tour
/// step, a scrub) it follows.
class WhatIfPanel {
 public:
  void toggle() { m_open = !m_open; }
  bool open() const { return m_open; }
  /// Draws the panel when open (between UiLayer::beginFrame and endFrame); what the visitor asks
  /// for goes into `commands`.
  void draw(const WhatIfState& state, const ScreenRect& region, const std::string& language,
            std::vector<SimCommand>& commands);
  /// What the system combo does when `systemId` is picked: asks for the running request on it.
  void chooseSystem(const std::string& systemId, const std::string& language,
                    std::vector<SimCommand>& commands);
  /// The panel's comparison, once the visitor changed scenario, system or fields here (until a
  /// change from elsewhere, the tour's, ends it).
  std::optional<WhatIfComparison> comparison() const;

 private:
  void follow(const WhatIfState& state);
  /// Whether `request` is another run than the one shown: another scenario, system or fields (a
  /// fault or a scrub is the same run).
  bool isAnotherRun(const sim::engine::EngineRequest& request) const;
  /// Takes the running engine's key numbers as the current run's.
  void takeNumbers(const WhatIfState& state);
  void drawComparison(const std::string& language);
  void refillFields();
  /// The system combo, and "rebuilding the world for ..." while the host waits for it.
  void drawSystemChoice(const WhatIfState& state, const std::string& language,
                        std::vector<SimCommand>& commands);
  void ask(std::vector<SimCommand>& commands, sim::engine::EngineRequest request, bool resumeNow,
           const std::string& done);

  bool m_open = false;
  uint64_t m_generation = 0;  // of the engine m_request below runs on
  uint64_t m_noticeSerial = 0;
  sim::engine::EngineRequest m_request;
  std::vector<std::string> m_fieldText;  // by sim::engine::engineFieldPaths(), the edit boxes
  int m_faultKind = 2;                   // pump trip
  int m_faultTarget = 0;
  float m_faultSeverity = 0;
  std::string m_message;
  bool m_messageIsError = false;
  WhatIfRun m_current;                  // the running engine's numbers (scenario "": none yet)
  std::optional<WhatIfRun> m_previous;  // the run before the visitor's last change
  bool m_askedAnotherRun = false;       // this panel asked for another run, not yet running
};

}  // namespace app
