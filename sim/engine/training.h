// A training job's plan: the TP/PP/DP layout mapped onto real GPUs (TP inside an NVLink domain,
// PP across racks, DP across the fabric), the nominal durations of one step's phases on the 1F1B
// schedule, and the flows each phase puts on the fabric. Durations come from the training
// calculator (sim/calc/training.h, the same one `dcwalk sim` evaluates); the engine replays them
// in time and routes the DP, PP and EP traffic link by link.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/calc/training.h"
#include "sim/engine/cluster.h"
#include "sim/engine/engine_desc.h"
#include "sim/engine/routing.h"
#include "sim/specs.h"

namespace sim::engine {

inline constexpr uint8_t NOT_IN_JOB = 0xff;

struct StageWindow {
  double start_s = 0;  // from the start of the pipeline phase
  double end_s = 0;
  double busyFraction = 0;  // compute share inside the window
};

struct TrainingPlan {
  TrainingDesc desc;
  ModelSpec model;
  double params = 0;        // all parameters (weights, gradients, optimizer state)
  double activeParams = 0;  // parameters one token touches (FLOPs)
  double tokensPerStep = 0;
  double peak_flops = 0;    // dense peak at the job's precision
  calc::TrainingStep step;  // the calculator's step, parts included
  double forward_s = 0;     // one micro-batch, the busiest stage, compute only
  double backward_s = 0;
  double tpComm_s = 0;                // TP/SP (and CP) collectives of one micro-batch, scale-up
  double ppSend_s = 0;                // PP sends of one micro-batch (fwd + bwd), fabric alpha-beta
  double microBatchSlot_s = 0;        // forward + backward + TP + PP
  double pipeline_s = 0;              // m slots + the 1F1B bubble (without the EP all-to-alls)
  double bubbleFraction = 0;          // (p - 1) / (v m)
  double allToAllBytesPerGpu = 0;     // one EP dispatch + combine of one micro-batch and layer
  double allToAllAlphaBeta_s = 0;     // its alpha-beta time at the NIC rate
  double allToAllAlpha_s = 0;         // its latency term
  double allToAllsPerMicroBatch = 0;  // forward + backward, every MoE layer of the stage
  double gradientBytesPerGpu = 0;
  double dpRingBytesPerGpu = 0;   // bytes each GPU sends to its ring successor per step
  double dpAlphaBeta_s = 0;       // the DP reduce-scatter + all-gather by the collective model
  double dpAlpha_s = 0;           // its latency term alone
  double dpOverlap_s = 0;         // step time the DP collective hides behind (bubble, backward)
  double optimizer_s = 0;         // memory-bound pass over the per-GPU model state
  double nvlinkBytesPerStep = 0;  // TP traffic, all GPUs
  double ppFabricBytesPerStep = 0;
  double dpFabricBytesPerStep = 0;
  uint32_t jobGpus = 0;
  std::vector<uint8_t> stageOfGpu;  // by GpuId; NOT_IN_JOB for spare GPUs
  std::vector<uint32_t> gpuOfRank;  // [(stage x dp + replica) x tp + tpRank] -> GpuId index
  std::vector<StageWindow> stages;
  std::vector<Flow> dpFlows;        // ring successor flows, one per GPU
  std::vector<Flow> ppFlows;        // stage boundary flows, both directions
  std::vector<Flow> allToAllFlows;  // one EP all-to-all: every pair of each EP group

  /// DP time left on the critical path when the collective takes `dp_s`.
  double dpExposed_s(double dp_s) const { return std::max(0.0, dp_s - dpOverlap_s); }
  /// Nominal step time without congestion, throttling or faults (modelled DP collective).
  double nominalStep_s() const {
    return pipeline_s +
           desc.microBatches * (1.0 + bubbleFraction) * allToAllsPerMicroBatch *
               allToAllAlphaBeta_s +
           dpExposed_s(dpAlphaBeta_s) + optimizer_s;
  }
};

/// Plans `desc` on `cluster`; errors name the offending TrainingDesc field.
Result<TrainingPlan> planTraining(const Catalog& catalog, const Cluster& cluster,
                                  const TrainingDesc& desc);

}  // namespace sim::engine
