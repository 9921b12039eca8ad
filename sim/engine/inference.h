// An inference service: replicas of one model (TP inside an NVLink domain), requests arriving
// as a seeded Poisson process, a bounded queue, continuous batching (finished sequences free
// their slot and KV at once, waiting ones join at the next iteration), prefill then decode.
// Iteration times and the KV capacity come from the serving calculator (sim/calc/serving.h, the
// same one `dcwalk sim` evaluates). State is flat per-replica arrays sized at creation; step() does
// not allocate.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/calc/serving.h"
#include "sim/engine/cluster.h"
#include "sim/engine/engine_desc.h"
#include "sim/specs.h"

namespace sim::engine {

struct InferencePlan {
  InferenceDesc desc;
  ModelSpec model;
  double params = 0;
  double weightsBytesPerReplica = 0;
  double kvBytesPerToken = 0;
  double kvCapacityTokensPerReplica = 0;  // HBM left after weights and reserve, in tokens
  calc::ServingDesc serving;              // one replica, for the iteration costs
  uint32_t replicas = 0;
  std::vector<uint32_t> replicaOfGpu;  // by GpuId; INVALID_INDEX when the GPU serves nobody
  std::vector<uint32_t> firstGpuOfReplica;
};

/// Sizes the service on `cluster`; errors name the offending InferenceDesc field.
Result<InferencePlan> planInference(const Catalog& catalog, const Cluster& cluster,
                                    const InferenceDesc& desc);

/// What one replica did in the last step.
struct ReplicaActivity {
  float prefillShare;  // of the step spent in prefill (compute-bound)
  float decodeShare;   // in decode (memory-bound)
  // The step's work as issued (a modelled trace draws it, sim/trace/serving_trace.h): one
  // prefill of `prefillSequences` prompts taking prefill_s, then `decodeIterations` iterations
  // of `decodeSequences` sequences holding `decodeKvTokens` of context, decode_s in all. The
  // work ends carry_s before the step's end (carry_s < 0: it runs on past it, a time debt).
  double prefill_s = 0;
  double decode_s = 0;
  double decodeKvTokens = 0;
  double carry_s = 0;
  uint32_t prefillSequences = 0;
  uint32_t decodeIterations = 0;
  uint32_t decodeSequences = 0;
};

class InferenceService {
 public:
  InferenceService() = default;
  InferenceService(const InferencePlan* plan, uint64_t seed);
  /// Points at `plan` (a copy of the one it was made for: Engine::clone).
  void rebind(const InferencePlan* plan) { m_plan = plan; }

  /// Advances every replica by dt; `speed[r]` is replica r's clock share (throttle, straggler).
  void step(double now_s, double dt_s, const std::vector<float>& speed);

  const std::vector<ReplicaActivity>& activity() const { return m_activity; }
  /// KV cache in use per replica as a share of its capacity.
  const std::vector<float>& kvOccupancy() const { return m_kvOccupancy; }

  // Totals since the start.
  uint64_t arrived = 0, rejected = 0, completed = 0;
  double outputTokens = 0;
  double ttftSum_s = 0;
  uint64_t ttftCount = 0;
  // Last step.
  double stepOutputTokens = 0;
  double stepTtftSum_s = 0;
  uint64_t stepTtftCount = 0;
  double meanTpot_s = 0;  // mean decode iteration time over busy replicas
  uint64_t queued = 0, active = 0;

  /// Folds the hot state into an FNV-1a hash.
  uint64_t hash(uint64_t h) const;

 private:
  double uniform(uint32_t replica);
  uint32_t poisson(uint32_t replica, double mean);

  const InferencePlan* m_plan = nullptr;
  uint32_t m_slots = 0, m_queueCap = 0;
  std::vector<uint64_t> m_rng;         // per replica
  std::vector<double> m_queueArrival;  // [replica x queueCap], ring buffer
  std::vector<uint32_t> m_queueHead, m_queueCount;
  std::vector<double> m_slotArrival;  // [replica x maxBatch]
  std::vector<float> m_slotContext;   // tokens held in KV
  std::vector<float> m_slotLeft;      // output tokens still to generate; 0 = free slot
  std::vector<uint8_t> m_slotFresh;   // admitted this step, first token not yet counted
  std::vector<uint32_t> m_activeCount;
  std::vector<double> m_kvTokens;
  std::vector<double> m_carry_s;  // decode time carried to the next step
  std::vector<ReplicaActivity> m_activity;
  std::vector<float> m_kvOccupancy;
};

}  // namespace sim::engine
