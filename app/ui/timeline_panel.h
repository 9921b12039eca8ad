// The time controls and the training-step timeline (window mode, T toggles): play/pause, one
// engine step, slower/faster, a scrub slider over the time simulated so far, and the current step
// as coloured phase segments (pipeline, DP all-reduce, optimizer) with a cursor, plus what the
// pipeline phase is made of.
#pragma once

#include <optional>

#include "app/ui/timeline.h"

namespace app {

/// What the visitor asked for this frame.
struct TimeRequest {
  bool togglePause = false;
  bool step = false;
  double speedFactor = 1.0;       // multiply the sim speed by this (slower 1/2, faster 2)
  std::optional<double> scrub_s;  // rerun to this simulated time
};

struct TimeState {
  double time_s = 0;
  double speed = 1;
  bool paused = false;
  double scrubMax_s = 0;  // the furthest simulated time so far
};

/// Draws the panel at the top centre; call between UiLayer::beginFrame and endFrame.
TimeRequest drawTimeline(const Timeline& timeline, const TimeState& state);

}  // namespace app
