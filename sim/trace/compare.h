// Measured vs modelled: a rank's measured step (or whole trace) beside the training model's
// predicted step for the same scenario (sim::calc::trainingStep, what `dcwalk sim` and the engine
// run), as shares of the step, and the largest gap named in words ("exposed communication 27.6 %
// measured vs 3.1 % modelled"). The goodput finale's question, asked of the user's own job.
#pragma once

#include <string>
#include <vector>

#include "sim/calc/training.h"
#include "sim/trace/breakdown.h"

namespace sim::trace {

/// One step as shares of its length (each in [0, 1]; they sum to 1).
struct StepShares {
  double step_s = 0;
  double compute = 0;               ///< GPU computing (communication under it included)
  double exposedCommunication = 0;  ///< communication nothing computes under
  double idle = 0;                  ///< nothing on the GPU (pipeline bubble, gaps)
  double other = 0;                 ///< memcpy/memset alone
};

/// The measured shares: compute_s, exposed_communication_s and idle_s over the span; other is
/// the rest (memcpy/memset with nothing else running). All 0 for an empty span.
StepShares measuredShares(const Breakdown& b);

/// The model's shares of `step` (microBatches: the job's per-step micro-batches): idle = the
/// 1F1B bubble (pipeline_s - m x slot_s); exposed communication = m x (the stage's layers x
/// (TP + CP collectives) + PP sends) + the exposed DP collective; compute = the rest (the
/// layers' math, the head, the optimizer). Other = 0: the model keeps no copies of its own.
StepShares modelledShares(const calc::TrainingStep& step, int microBatches);

struct ShareGap {
  std::string quantity;  ///< "compute", "exposed communication", "idle"
  double measured = 0, modelled = 0;
};

/// The three quantities, largest absolute gap first.
std::vector<ShareGap> shareGaps(const StepShares& measured, const StepShares& modelled);

/// "exposed communication 27.6 % measured vs 3.1 % modelled": the largest gap.
std::string gapText(const StepShares& measured, const StepShares& modelled);

}  // namespace sim::trace
