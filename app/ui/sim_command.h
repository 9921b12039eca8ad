// The commands that UI panels, keys and tour steps return for the simulation. The sim host
// (app/session/sim_host.h), the one owner of the engine, applies them at the start of the next
// frame; nothing else touches the engine.
#pragma once

#include <string>

#include "sim/engine/request.h"

namespace app {

/// A change to the simulation, applied at the start of the next frame.
struct SimCommand {
  enum class Kind {
    Restart,  // run `request`, from t = 0 (resumeNow false) or caught up to the current time
    Scrub,    // the current request at simulated time `value` (s)
    Step,     // to the next training phase, at most SimHost::STEP_NUDGE_S of simulated time
    SetPaused,
    TogglePause,
    ScaleSpeed,  // speed x `value`
    RunTo,       // headless: run the engine to time `value` (s) at once
    RunFor,      // headless: run the engine `value` more seconds at once
  };
  Kind kind = Kind::Step;
  sim::engine::EngineRequest request;  // Restart
  bool resumeNow = false;              // Restart: keep the current time
  bool designed = false;               // Restart: the tour's simulation for a step (follow)
  double value = 0;                    // Scrub: time (s); SetPaused: 0/1; ScaleSpeed: factor
  std::string done;                    // what the host reports once it took effect

  static SimCommand restart(sim::engine::EngineRequest request, bool resumeNow,
                            std::string done = {}) {
    SimCommand c = of(Kind::Restart, 0);
    c.request = std::move(request);
    c.resumeNow = resumeNow;
    c.done = std::move(done);
    return c;
  }
  /// A tour step's designed simulation: `request` from t = 0, unless it is the designed
  /// simulation of the step before (then what the visitor injected or changed since stays), or
  /// what runs already. Replacing it says which of the visitor's changes it cleared (SimNotice).
  static SimCommand follow(sim::engine::EngineRequest request, std::string chapter = {}) {
    SimCommand c = restart(std::move(request), false, std::move(chapter));
    c.designed = true;
    return c;
  }
  static SimCommand scrub(double t_s) { return of(Kind::Scrub, t_s); }
  static SimCommand step() { return of(Kind::Step, 0); }
  static SimCommand setPaused(bool paused) { return of(Kind::SetPaused, paused ? 1.0 : 0.0); }
  static SimCommand togglePause() { return of(Kind::TogglePause, 0); }
  static SimCommand scaleSpeed(double factor) { return of(Kind::ScaleSpeed, factor); }
  static SimCommand runTo(double t_s) { return of(Kind::RunTo, t_s); }
  static SimCommand runFor(double dt_s) { return of(Kind::RunFor, dt_s); }

 private:
  static SimCommand of(Kind kind, double value) {
    SimCommand c;
    c.kind = kind;
    c.value = value;
    return c;
  }
};

}  // namespace app
