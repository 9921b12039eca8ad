// An inference service's modelled iterations as per-rank GPU timelines
// (sim/trace/model_trace.h). ServingRecorder keeps, for the replicas asked for, what each did in
// every engine step of a window (sim::engine::ReplicaActivity: one prefill of the prompts admitted,
// then decode iterations of the running batch, and the time carried to the next step);
// servingRanks() draws each of those iterations back to back where the engine ran it, as a
// ProfilerStep of its own: per layer a GEMM, an attention kernel, the other kernels and the TP
// all-reduces, each in its share of the iteration the serving calculator gives
// (calc::iterationCost, the engine's own source; the fixed per-kernel floor counted with the
// other kernels). docs/trace.md "Writing the model's step".
#pragma once

#include <cstdint>
#include <vector>

#include "sim/engine/engine.h"
#include "sim/trace/model_trace.h"

namespace sim::trace {

/// What one replica did in one engine step.
struct ServingStepRecord {
  double start_s = 0, dt_s = 0;  ///< the engine step [start, start + dt)
  engine::ReplicaActivity activity{0, 0};
};

class ServingRecorder {
 public:
  /// Records `replicas` over the engine steps inside [from_s, until_s].
  ServingRecorder(double from_s, double until_s, std::vector<uint32_t> replicas);
  /// Call after every Engine::step().
  void observe(const engine::Engine& engine);
  const std::vector<uint32_t>& replicas() const { return m_replicas; }
  /// The records of replicas()[i], in time order.
  const std::vector<ServingStepRecord>& records(size_t i) const { return m_records[i]; }

 private:
  double m_from_s, m_until_s;
  std::vector<uint32_t> m_replicas;
  std::vector<std::vector<ServingStepRecord>> m_records;
};

/// The default ranks: the first GPU of replica 0, and of the slowest replica now (by the lowest
/// clock share of its GPUs, sim::trace::gpuSpeeds) when that is another.
std::vector<int64_t> defaultServingRanks(const engine::Engine& engine);

/// The recorded iterations of `ranks` (rank = replica x tp + GPU in the replica; each replica
/// recorded by `recorder`), one ModelRank each.
std::vector<ModelRank> servingRanks(const engine::Engine& engine, const ServingRecorder& recorder,
                                    const std::vector<int64_t>& ranks);

}  // namespace sim::trace
