// The training step as a timeline: the phases one step goes through in order (pipeline, DP
// collective, optimizer) with their durations as the engine has them routed now, where the
// simulation is inside the step, and what the pipeline phase is made of (compute, TP all-reduces,
// PP sends, the 1F1B bubble). Faults show here: a link down lengthens the DP segment, a straggler
// or throttling the pipeline. Pure logic over the engine; the app draws it.
#pragma once

#include <string>
#include <vector>

#include "sim/engine/snapshot.h"

namespace app {

struct TimelineSegment {
  std::string label;  // "pipeline", "DP all-reduce", "optimizer"; "compute", "TP", "PP", "bubble"
  double duration_s = 0;
};

struct Timeline {
  bool training = false;                  // false: an inference service (no step to show)
  std::vector<TimelineSegment> phases;    // in the order a step runs them
  std::vector<TimelineSegment> pipeline;  // the pipeline phase's make-up (sums to its duration)
  double step_s = 0;                      // sum of the phases: the step as routed now
  double cursor_s = 0;                    // where the simulation is inside the step
  size_t currentPhase = 0;                // index into phases
  double lastStep_s = 0;                  // the last completed step's measured time (0: none yet)
  double faultFreeStep_s = 0;             // the same job without faults or congestion changes
};

/// The timeline of `engine`'s current training step.
Timeline timelineOf(const sim::engine::Snapshot& snapshot);

}  // namespace app
