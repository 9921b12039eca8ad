// The time controls and the training-step timeline (window mode, T toggles): play/pause, one
// engine step, slower/faster, a scrub slider over the time simulated so far, and the current step
// as coloured phase segments (pipeline, DP all-reduce, optimizer) with a cursor, plus what the
// pipeline phase is made of. While the simulation catches up to a scrub, the slider and the
// clock show where it is going, not where the old engine stands. A measured timeline (--trace)
// shows the traced step and the measured vs modelled lines under it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/ui/sim_command.h"
#include "app/ui/timeline.h"
#include "app/ui/ui_layout.h"

namespace app {

struct TimeState {
  double time_s = 0;  // the engine on screen
  double speed = 1;
  bool paused = false;
  double scrubMax_s = 0;       // the furthest simulated time so far
  bool catchingUp = false;     // a scrub or a change in the past is being caught up ...
  double catchUpTarget_s = 0;  // ... to this time
  double catchUpProgress = 1;  // 0..1
  bool controls = true;        // false: the step alone (a headless frame has no one to click)
};

/// The scrub slider's range: the furthest time simulated in the run on screen. Another run
/// (SimHost::run: a chapter's new simulation from t = 0) starts it again, so its grab does not
/// sit mid-track under the last run's furthest time.
class ScrubRange {
 public:
  /// The range after a frame of run `run` at `time_s` (the time the controls show).
  double update(uint64_t run, double time_s);

 private:
  uint64_t m_run = 0;
  double m_max_s = 0;
};

/// The time the controls show: the catch-up's target while there is one, else the engine's.
double shownTime_s(const TimeState& state);

/// Draws the panel in `region` (between UiLayer::beginFrame and endFrame), in `language`; what
/// the visitor clicks goes into `commands` (pause, step, slower/faster, scrub).
void drawTimeline(const Timeline& timeline, const TimeState& state, const ScreenRect& region,
                  const std::string& language, std::vector<SimCommand>& commands);

}  // namespace app
