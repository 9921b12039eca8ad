// A training job's modelled steps as per-rank GPU timelines (sim/trace/model_trace.h).
//
// TrainingRecorder watches an Engine step by step (through its public API) and keeps, for each
// training step that completes, when it began, where its phases (pipeline, exposed DP collective,
// optimizer) ended and the state it ran with. trainingRanks() lays each recorded step out for the
// chosen ranks on the 1F1B schedule the engine models: a stage idles s forward slots before its
// first micro-batch and s backward slots after its last (the engine's StageWindow), the rest of
// the bubble after its warm-up forwards; every pass is its layers' GEMM, attention and other
// kernels with the TP collectives between them, its EP all-to-alls and its PP send; the DP
// reduce-scatter runs under the last backward pass and the all-gather under the first forward
// as far as they hide, the exposed rest after the rank's last backward; then the optimizer.
// Durations are the engine's: nominal kernel times at the GPU's own clock share, passes at the
// job's pace (the slowest GPU's), so a straggler's kernels are longer and the others wait.
// docs/trace.md "Writing the model's step".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/engine/engine.h"
#include "sim/result.h"
#include "sim/trace/model_trace.h"

namespace sim::trace {

/// A GPU running below full speed during a step: a straggler or a throttled CDU's GPU.
struct SlowGpu {
  uint32_t gpu = 0;
  double speed = 1;  ///< clock share, (0, 1)
};

/// One completed training step as the engine ran it (times on the engine's clock, seconds).
struct TrainingStepRecord {
  int64_t number = 0;  ///< 0 for the run's first step
  double start_s = 0, pipelineEnd_s = 0, dataParallelEnd_s = 0, end_s = 0;
  // The state at the step's end (a step during which it changed is drawn with it, stretched
  // phase by phase to the lengths the engine took).
  double rate = 1;            ///< the job's clock share (its slowest GPU's)
  double allToAll_s = 0;      ///< one EP all-to-all as routed
  double dataParallel_s = 0;  ///< the DP collective as routed (NEVER_S: cannot complete)
  double dataParallelExposed_s = 0;
  std::vector<SlowGpu> slowGpus;  ///< job GPUs below full speed, by GpuId
};

/// The clock share of every GPU of the engine now, by GpuId: an active straggler's severity (or
/// the catalog's default) and its CDU's throttle clock, whichever is lower.
std::vector<float> gpuSpeeds(const engine::Engine& engine);

class TrainingRecorder {
 public:
  /// Records the steps that begin at or after `from_s`: the first `maxSteps` of them (more are
  /// counted in overflow()), or with `keepLast` only the latest.
  TrainingRecorder(double from_s, size_t maxSteps, bool keepLast = false)
      : m_from_s(from_s), m_maxSteps(maxSteps), m_keepLast(keepLast) {}
  /// Call after every Engine::step() (and once before the first, at time 0).
  void observe(const engine::Engine& engine);
  const std::vector<TrainingStepRecord>& steps() const { return m_steps; }
  /// Steps of the window that were not kept (beyond maxSteps).
  size_t overflow() const { return m_overflow; }

 private:
  double m_from_s;
  size_t m_maxSteps;
  bool m_keepLast;
  size_t m_overflow = 0;
  int64_t m_ordinal = -1;         // completed steps x 3 + phase, at the last observation
  std::vector<double> m_entries;  // entry times of the open step's phases seen so far
  std::vector<TrainingStepRecord> m_steps;
};

/// Rank r's place in the job: Megatron's order (tp x cp fastest, then dp, then pp).
struct TrainingRankPlace {
  int stage = 0, replica = 0, inGroup = 0;  // inGroup: the rank inside its tp x cp group
};
TrainingRankPlace trainingRankPlace(const engine::TrainingPlan& plan, int64_t rank);

/// The default ranks: the first rank of every pipeline stage (replica 0), and the rank of the
/// slowest GPU of the recorded steps when it is none of those.
std::vector<int64_t> defaultTrainingRanks(const engine::TrainingPlan& plan,
                                          const std::vector<TrainingStepRecord>& steps);

/// The recorded steps laid out for `ranks` (each < plan.jobGpus), one ModelRank each.
std::vector<ModelRank> trainingRanks(const engine::Engine& engine,
                                     const std::vector<TrainingStepRecord>& steps,
                                     const std::vector<int64_t>& ranks);

}  // namespace sim::trace
