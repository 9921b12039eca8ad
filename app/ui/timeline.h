// The training step as a timeline: the phases one step goes through in order (pipeline, DP
// collective, optimizer) with their durations as the engine has them routed now, where the
// simulation is inside the step, and what the pipeline phase is made of (compute, TP all-reduces,
// PP sends, the 1F1B bubble). Faults show here: a link down lengthens the DP segment, a straggler
// or throttling the pipeline. With --trace the same panel shows the traced job instead: the
// measured step (its ProfilerStep's GPU window) as compute, exposed communication, memcpy and
// idle from the trace's breakdown, and beside it the model's shares of the same scenario's step.
// Pure logic over the engine and the trace; the app draws it.
#pragma once

#include <string>
#include <vector>

#include "sim/engine/snapshot.h"
#include "sim/trace/breakdown.h"
#include "sim/trace/compare.h"
#include "sim/trace/rank_trace.h"

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
  double soFar_s = 0;                     // since the current step began
  bool held = false;      // the step is behind its routed phases (a pause, a stall, a slower clock)
  double lastStep_s = 0;  // the last completed step's measured time (0: none yet)
  double faultFreeStep_s = 0;  // the same job without faults or congestion changes
  // --trace: the phases are the measured step's overlapping shares (compute, exposed
  // communication, memcpy alone, idle: they sum to the step's GPU window), the pipeline row is
  // the compute's make-up (GEMM, attention, other kernels), and the comparison lines say how the
  // model's step of the same scenario differs.
  bool measured = false;
  int64_t stepNumber = -1;  // the ProfilerStep shown, -1: the whole trace
  int64_t rank = -1;        // the traced rank shown
  sim::trace::StepShares measuredShares;
  std::vector<std::string> comparison;  // empty without a model to compare with
};

/// The timeline of `engine`'s current training step.
Timeline timelineOf(const sim::engine::Snapshot& snapshot);

/// The measured timeline of `rank` at `local_ns` on the rank's own clock (ns from its first GPU
/// event): the ProfilerStep it is in (`perStep`: stepBreakdowns(rank), one per rank.steps), else
/// the whole trace (`whole`: breakdown(rank)).
Timeline traceTimelineOf(const sim::trace::RankTrace& rank,
                         const std::vector<sim::trace::Breakdown>& perStep,
                         const sim::trace::Breakdown& whole, int64_t local_ns);

/// The lines of measured vs modelled in `language`: a heading, the three shares side by side
/// (measured / modelled), then the largest gap named.
std::vector<std::string> comparisonLines(const sim::trace::StepShares& measured,
                                         const sim::trace::StepShares& modelled,
                                         const std::string& language);

}  // namespace app
