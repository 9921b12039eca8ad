// What the engine exposes each step: the per-id hot arrays, the aggregate row and read-only
// views of the cold description, as one plain struct (sim/engine/engine.h fills it). Everything
// outside sim/ that shows the simulation reads this, never the engine itself.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "sim/engine/cluster.h"
#include "sim/engine/engine_desc.h"
#include "sim/engine/figures.h"
#include "sim/engine/inference.h"
#include "sim/engine/training.h"

namespace sim::engine {

enum class TrainingPhase : uint8_t { Pipeline, DataParallel, Optimizer };

/// One row of the aggregate time series (also the snapshot's aggregates).
struct Aggregates {
  double time_s = 0;
  double campusIt_W = 0;  // modelled fabric + mirrored racks
  double fabricIt_W = 0;  // modelled fabric only
  double facility_W = 0;  // campus IT + overhead
  double pue = 0;
  double meanGpuPower_W = 0;  // job (or serving) GPUs of the modelled fabric
  double maxJunction_C = 0;
  double maxLoop_C = 0;          // hottest CDU loop
  double minClock = 1;           // lowest throttle clock share
  double goodput = 0;            // useful progress rate / fault-free rate, this step
  double goodputCumulative = 0;  // fault-free seconds of work done so far / elapsed seconds
  double tokensPerSecond = 0;    // training tokens/s of the last step, or output tokens/s
  double trainingSteps = 0;      // completed
  double lastStepTime_s = 0;
  double phase = 0;  // TrainingPhase as a number; 3 = inference
  double maxLinkUtilisation = 0;
  double pausedSwitches = 0;
  double queued = 0;           // inference: waiting requests
  double active = 0;           // inference: sequences decoding
  double meanTtft_s = 0;       // inference: of first tokens produced this step
  double tpot_s = 0;           // inference: mean time per output token
  double meanKvOccupancy = 0;  // inference: share of KV capacity in use
};

/// What the rest of the program reads of the engine: per-id arrays of the current state, the
/// aggregates, where the training step is, and read-only views of the cold description (counts,
/// specs, the training or inference plan). Valid until the next step() (or until the engine is
/// replaced); the world syncs from one per frame and keeps no pointer into it.
struct Snapshot {
  std::span<const float> gpuUtilisation;  // by GpuId: tensor-core busy share
  std::span<const float> gpuPower_W;
  std::span<const float> gpuJunction_C;
  std::span<const float> gpuColdPlate_C;  // coolant leaving the GPU's cold plate
  std::span<const float> gpuHbm_Bps;
  std::span<const float> gpuKvOccupancy;  // inference: the replica's KV share; 0 in training
  // By GpuId, 1 where a trace replay (sim/trace/replay.h) has no trace for the GPU: shown as "no
  // data", not as idle. Empty for the engine's own snapshots (every GPU has data).
  std::span<const uint8_t> gpuNoData;
  std::span<const float> linkUtilisation;  // by LinkId: busier direction / capacity
  std::span<const uint8_t> linkUp;
  std::span<const uint8_t> switchPaused;  // by SwitchId: PFC-paused
  std::span<const float> rackPower_W;     // by RackId
  // By RackId: the mean over the last completed training step (a service: the last second);
  // before the first ends, over the time so far. What a meter on the rack's feed reads.
  std::span<const float> rackMeanPower_W;
  std::span<const float> cduLoop_C;  // by CduId
  std::span<const float> cduFlowFraction;
  std::span<const float> cduClock;  // throttle clock share of the CDU's GPUs
  Aggregates aggregates;

  double time_s = 0;
  uint64_t steps = 0;
  const Cluster* cluster = nullptr;  // counts, specs, links (never null in a snapshot taken)
  const EngineFigures* figures = nullptr;
  const EngineDesc* desc = nullptr;

  // Training (training == nullptr for an inference service).
  const TrainingPlan* training = nullptr;
  TrainingPhase phase = TrainingPhase::Pipeline;
  double phaseFraction = 0;              // share of the current phase done (0..1)
  double stepElapsed_s = 0;              // since the current training step began
  double lastStepTime_s = 0;             // of the last completed step
  double faultFreeStepTime_s = 0;        // routed DP collective, no throttling
  double pipelineTime_s = 0;             // the pipeline phase as routed now
  double dataParallelTime_s = 0;         // the DP collective on the fabric as routed now
  double dataParallelExposedTime_s = 0;  // the part of it the step waits for (its phase)
  // Each phase's duration at the job's clocks now (Engine::phaseDuration_s): what the step
  // advances by, a straggler's slower compute included. Indexed by TrainingPhase.
  std::array<double, 3> phaseDuration_s{};
  std::span<const double> dpLinkBytes;  // 2 x links, directional bytes of one step's DP collective
  std::span<const double> ppLinkBytes;  // 2 x links, one step's PP sends
  std::span<const double> allToAllLinkBytes;  // 2 x links, one EP all-to-all
  double nvlinkBytes = 0;                     // moved so far over NVLink (bytes)

  // Inference (nullptr for training).
  const InferencePlan* inference = nullptr;
};

/// "" when every figure of `snapshot` lies in its quantity's domain (sim/domain.h): its
/// aggregates, every per-id array (utilisations, KV and flow shares and clocks in [0, 1], powers
/// and bandwidths >= 0, temperatures above absolute zero) and the step times (>= 0; the DP and
/// pipeline times may be NEVER_S, a ring that cannot complete); else the first figure outside.
std::string checkSnapshot(const Snapshot& snapshot);

/// Which of the engine's rack powers: this instant's (it swings with the step's phases), or the
/// mean over the last step (rackMeanPower_W).
enum class PowerWindow : uint8_t { Now, StepMean };

/// IT power of campus racks [firstRack, endRack) (W): the racks the engine models as it has
/// them, every other rack at the mean of the modelled ones (the campus mirrors its modelled
/// fabric; docs/sim.md "Hall power").
double rackRangePower_W(const Snapshot& snapshot, uint32_t firstRack, uint32_t endRack,
                        PowerWindow window = PowerWindow::Now);

/// The whole campus's power (W): its racks' IT (rackRangePower_W over every campus rack) and
/// the facility's draw at that IT load (IT + the overhead at part load, as the aggregates').
struct CampusPower {
  double it_W = 0;
  double facility_W = 0;
};
CampusPower campusPower(const Snapshot& snapshot, PowerWindow window);

/// One rack's coolant now (docs/sim.md "Coolant temperatures along the loop"): its CDU, the CDU
/// pump's flow share, the rack's heat (all of its power goes into the water) and the water's
/// temperature at four points of the loop.
struct RackCoolant {
  uint32_t cdu = 0;         // CduId of the rack
  double flowFraction = 1;  // the CDU's pump flow, share of design
  double rackHeat_W = 0;
  double supply_C = 0;          // CDU heat-exchanger outlet = facility water inlet (zero approach)
  double rackOutlet_C = 0;      // the rack's return manifold
  double loopReturn_C = 0;      // mixed return to the CDU: the engine's loop temperature
  double facilityReturn_C = 0;  // facility water leaving the CDU towards the plant
};

/// The coolant of rack `rack` (every temperature the supply's when the engine models no rack).
RackCoolant rackCoolant(const Snapshot& snapshot, uint32_t rack);

/// Where a training step's time goes (docs/sim.md "Goodput: the step split"), seconds: the
/// busiest stage's compute, the communication the step waits for (TP and PP inside the pipeline,
/// the EP all-to-alls and routing as the fabric has them now, the exposed DP collective), the
/// 1F1B bubble, the optimizer, and what faults, throttling and congestion lost on top. `peak_s` is
/// the same step's model FLOPs at the GPUs' dense peak: the ghost a real step is measured against.
struct StepSplit {
  double peak_s = 0;
  double compute_s = 0;
  double communication_s = 0;
  double bubble_s = 0;
  double optimizer_s = 0;
  double lost_s = 0;
  double total_s = 0;  // the last completed step (or the nominal one before any): the parts' sum
};

/// The split of the last completed training step; all zero for an inference service.
StepSplit stepSplit(const Snapshot& snapshot);

}  // namespace sim::engine
