// What-if and faults from the UI (window mode, I toggles): change the running engine scenario
// (a built-in one, and its workload and fabric fields by dotted path, "path=value" as `dcwalk sim
// --set` does for the analytic scenarios) and inject or clear faults (link down, PFC storm, pump
// trip, straggler) at the current simulated time. Every change restarts the engine with the
// whole new description (the engine is deterministic, so a fault "now" is a rerun to now with
// the fault starting then); a refused value leaves the running engine as it was and says why.
// The logic is window-free (sim/engine/request.h, tests/app/whatif_test.cpp); WhatIfPanel is
// its ImGui face.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "app/session/session.h"
#include "sim/result.h"

namespace app {

/// Restarts the session's engine with `request` (startEngine: the session remembers it, so a
/// scrub reruns it, overrides included) and runs it to `resume_s`. On failure the running
/// engine stays.
sim::Result<bool> applyWhatIf(Session& session, const sim::engine::EngineRequest& request,
                              double resume_s);

/// The ImGui panel. It keeps the request the running engine was started from; when something
/// else restarts the engine (a tour step, a scrub) it follows the session again.
class WhatIfPanel {
 public:
  void toggle() { m_open = !m_open; }
  bool open() const { return m_open; }
  /// Draws the panel when open (between UiLayer::beginFrame and endFrame) and applies what the
  /// visitor asks for to `session`.
  void draw(Session& session);

 private:
  void follow(const Session& session);
  void refillFields();
  void apply(Session& session, sim::engine::EngineRequest request, double resume_s,
             const std::string& done);

  bool m_open = false;
  const sim::engine::Engine* m_engine = nullptr;  // the engine the request below started
  sim::engine::EngineRequest m_request;
  std::vector<std::string> m_fieldText;  // by sim::engine::engineFieldPaths(), the edit boxes
  int m_faultKind = 2;                   // pump trip
  int m_faultTarget = 0;
  float m_faultSeverity = 0;
  std::string m_message;
  bool m_messageIsError = false;
};

}  // namespace app
