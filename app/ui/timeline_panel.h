// The time controls and the training-step timeline (window mode, T toggles): play/pause, one
// engine step, slower/faster, a scrub slider over the time simulated so far, and the current step
// as coloured phase segments (pipeline, DP all-reduce, optimizer) with a cursor, plus what the
// pipeline phase is made of.
#pragma once

#include <vector>

#include "app/ui/sim_command.h"
#include "app/ui/timeline.h"

namespace app {

struct TimeState {
  double time_s = 0;
  double speed = 1;
  bool paused = false;
  double scrubMax_s = 0;  // the furthest simulated time so far
};

/// Draws the panel at the top centre (between UiLayer::beginFrame and endFrame); what the visitor
/// clicks goes into `commands` (pause, step, slower/faster, scrub).
void drawTimeline(const Timeline& timeline, const TimeState& state,
                  std::vector<SimCommand>& commands);

}  // namespace app
