// The scenario engine: a fixed-step, deterministic simulation of one workload (training or
// inference) on one cluster, with faults injected at times and cleared. Hot per-step state lives
// in flat arrays keyed by id, apart from the cold Cluster; step() allocates nothing. A snapshot
// exposes those arrays (read them every frame) plus aggregates; the series keeps one aggregate
// row every `seriesEvery` steps for plots (writeSeries in sim/engine/series.h).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "sim/catalog.h"
#include "sim/engine/cluster.h"
#include "sim/engine/engine_desc.h"
#include "sim/engine/figures.h"
#include "sim/engine/inference.h"
#include "sim/engine/routing.h"
#include "sim/engine/snapshot.h"
#include "sim/engine/thermal.h"
#include "sim/engine/training.h"

namespace sim::engine {

/// The earliest simulated time at which fault lists `a` and `b` make the engine behave
/// differently (a fault in one only, from its start; the same fault cleared at another time, from
/// the earlier end); NEVER_S when they are the same faults.
double firstDifference_s(const std::vector<FaultDesc>& a, const std::vector<FaultDesc>& b);

/// Steps of `dt_s` that advanceTo(t_s) takes from t = 0: the first whole step that ends at or
/// after t_s (a time within 1e-9 of a step of the grid is on it). Every engine time input lands on
/// this grid; 0 for t_s <= 0.
uint64_t stepsUntil(double t_s, double dt_s);

class Engine {
 public:
  // The mean rack power's window (docs/sim.md "Step-mean power"): a training step, closed after
  // this many fault-free steps if the step stalls; a service's, this long.
  static constexpr double STALLED_WINDOW_STEPS = 2.0;
  static constexpr double SERVICE_POWER_WINDOW_S = 1.0;

  /// Builds the cluster, plans the workload and routes its flows; errors name the field. The
  /// engine holds ids into its own arrays, so it lives behind a pointer and never moves.
  static Result<std::unique_ptr<Engine>> create(const Catalog& catalog, const EngineDesc& desc);
  Engine& operator=(const Engine&) = delete;

  /// Advances one fixed step dt.
  void step();
  /// Steps until time() >= t_s, i.e. to step stepsUntil(t_s, dt).
  void advanceTo(double t_s);
  /// Schedules a fault (scenario, CLI or UI); it takes effect at its start time.
  void addFault(const FaultDesc& fault);
  /// Replaces the fault list with `faults`, keeping the state of every fault that stays (the
  /// same kind, target, start and severity). Refused, engine unchanged, when the lists differ
  /// before now (firstDifference_s < time_s()): such a change needs a run from earlier.
  Result<bool> replaceFaults(const std::vector<FaultDesc>& faults);
  /// A deep copy that runs on exactly as this engine would (checkpoints for reruns).
  std::unique_ptr<Engine> clone() const;

  Snapshot snapshot() const;
  double time_s() const { return m_time_s; }
  uint64_t stepCount() const { return m_steps; }
  const EngineDesc& desc() const { return m_desc; }
  const Cluster& cluster() const { return m_cluster; }
  const EngineFigures& figures() const { return m_figures; }
  /// The training plan, or nullptr for inference.
  const TrainingPlan* training() const { return m_training.jobGpus ? &m_training : nullptr; }
  /// The inference service, or nullptr for training.
  const InferenceService* inference() const {
    return m_inferencePlan.replicas ? &m_service : nullptr;
  }
  const InferencePlan* inferencePlan() const {
    return m_inferencePlan.replicas ? &m_inferencePlan : nullptr;
  }

  // Training state.
  TrainingPhase phase() const { return m_phase; }
  /// Share of the current phase done (0..1).
  double phaseFraction() const { return m_phaseFraction; }
  /// Seconds since the current training step began.
  double stepElapsed_s() const { return m_time_s - m_stepStart_s; }
  uint64_t completedSteps() const { return m_completedSteps; }
  double lastStepTime_s() const { return m_lastStepTime_s; }
  /// Tokens of completed training steps.
  double tokensTrained() const { return m_tokensDone; }
  /// Fault-free step time as the engine models it (routed DP collective, no throttling).
  double faultFreeStepTime_s() const { return m_faultFreeStep_s; }
  /// The DP collective's time on the fabric as routed now (busiest link + latency).
  double dataParallelTime_s() const { return m_dpTime_s; }
  /// The part of it the step waits for (the DataParallel phase's duration): what one pass of a
  /// micro-batch through the stage does not hide.
  double dataParallelExposedTime_s() const {
    return training() ? m_training.dpExposed_s(m_dpTime_s) : 0.0;
  }
  /// One EP all-to-all's time on the fabric as routed now (0 without EP).
  double allToAllTime_s() const { return m_a2aTime_s; }
  /// The pipeline phase's time as routed now (compute, TP, PP and EP all-to-alls, bubble).
  double pipelineTime_s() const { return m_pipeline_s; }
  /// How long `phase` takes at the job's clocks now: compute and NVLink run at the slowest
  /// straggler's or throttled CDU's clock share, the fabric's collectives do not (NEVER_S for a
  /// collective that cannot complete). The training step advances by exactly these durations.
  double phaseDuration_s(TrainingPhase phase) const;
  /// Directional per-link bytes of one EP all-to-all, as routed now.
  const std::vector<double>& allToAllLinkBytes() const { return m_a2aLoad; }
  /// Directional per-link bytes of one step's DP collective and PP sends, as routed now.
  const std::vector<double>& dpLinkBytes() const { return m_dpLoad; }
  const std::vector<double>& ppLinkBytes() const { return m_ppLoad; }
  const RouteTotals& dpRoute() const { return m_dpTotals; }
  const Router& router() const { return m_router; }

  // Per-link-class bytes moved so far.
  double nvlinkBytes() const { return m_nvlinkBytes; }
  double fabricBytes() const { return m_fabricBytes; }
  // Energy bookkeeping of the modelled fabric (for conservation checks).
  double itEnergy_J() const { return m_itEnergy_J; }
  double heatRemoved_J() const { return m_heatRemoved_J; }

  /// Rows of the aggregate series, oldest first: one every seriesEvery() steps from the first
  /// step on. When the desc's seriesCapacity is full, every other row is dropped and the interval
  /// doubles, so a run of any length keeps its start and stays evenly spaced (docs/sim.md).
  size_t seriesRows() const { return m_seriesCount; }
  const Aggregates& seriesRow(size_t i) const { return m_series[i]; }
  /// Steps between two rows of the series now.
  uint64_t seriesEvery() const { return m_seriesEvery; }

  /// FNV-1a hash of the hot state (determinism tests pin it).
  uint64_t stateHash() const;

 private:
  Engine() = default;
  Engine(const Engine&) = default;  // clone() only: it re-points the self-references
  void applyFaults();
  void reroute();
  void updatePause();
  void advanceTraining(double dt_s);
  void trainingPower();
  void inferencePower();
  void thermal(double dt_s);
  /// Adds this step's rack energy to the averaging window; closes it at the end of a training
  /// step (or a stalled one's STALLED_WINDOW_STEPS fault-free steps, a service's
  /// SERVICE_POWER_WINDOW_S) and publishes its mean power.
  void averagePower(double dt_s, bool stepEnded);
  /// Appends the aggregates to the series on its interval, halving it first when it is full.
  void recordSeries();
  void aggregate();
  double computeRate() const;
  double phaseDuration_s(TrainingPhase phase, double rate) const;

  EngineDesc m_desc;
  EngineFigures m_figures;
  Cluster m_cluster;
  Router m_router;
  TrainingPlan m_training;
  InferencePlan m_inferencePlan;
  InferenceService m_service;
  CoolingLoop m_loop;   // one CDU's secondary loop
  CoolingLoop m_plate;  // one GPU's cold plate, at its share of the CDU's design flow
  double m_otherRackLoad_W = 0;
  double m_designIt_W = 0;

  double m_time_s = 0;
  uint64_t m_steps = 0;

  // Faults.
  std::vector<uint8_t> m_faultActive;
  std::vector<double> m_faultClear_s;            // when each PFC storm's trigger cleared
  std::vector<std::vector<uint16_t>> m_pfcHops;  // per fault: hop distance from the origin
  std::vector<uint32_t> m_bfsQueue;
  std::vector<float> m_gpuSpeed;  // straggler share by GpuId
  uint32_t m_pausedSwitches = 0;

  // Training.
  TrainingPhase m_phase = TrainingPhase::Pipeline;
  double m_phaseFraction = 0;
  double m_stepStart_s = 0;
  uint64_t m_completedSteps = 0;
  double m_lastStepTime_s = 0;
  double m_faultFreeStep_s = 0;
  double m_faultFreeDp_s = 0;
  double m_dpTime_s = 0;
  double m_goodput = 0;
  double m_tokensDone = 0;
  double m_useful_s = 0;                   // fault-free seconds of work done so far
  std::vector<double> m_dpLoad, m_ppLoad;  // 2 x links, directional bytes per step
  std::vector<double> m_a2aLoad;           // 2 x links, one EP all-to-all
  RouteTotals m_dpTotals, m_ppTotals, m_a2aTotals;
  double m_a2aTime_s = 0;   // one EP all-to-all on the fabric as routed now
  double m_pipeline_s = 0;  // pipeline phase with the routed all-to-alls
  double m_faultFreePipeline_s = 0;
  std::vector<float> m_dpUtil, m_ppUtil, m_zeroUtil;  // by LinkId
  const std::vector<float>* m_linkUtil = &m_zeroUtil;
  std::vector<float> m_stagePower_W, m_stageUtil, m_stageHbm_Bps;
  std::vector<uint8_t> m_cduHostsWork;  // by CduId: has GPUs of the job or service
  float m_stragglerMin = 1;
  double m_dpMaxUtil = 0, m_ppMaxUtil = 0;

  // Inference.
  std::vector<float> m_replicaSpeed;

  // Per-id hot arrays.
  std::vector<float> m_gpuUtil, m_gpuPower_W, m_gpuJunction_C, m_gpuHbm_Bps, m_gpuKv;
  std::vector<float> m_gpuColdPlate_C;  // coolant leaving the GPU's cold plate
  std::vector<uint8_t> m_switchPaused;
  std::vector<float> m_rackPower_W;
  // Rack power averaged over the last closed window (before the first closes: the open one so
  // far), the open window's energy and length.
  std::vector<float> m_rackMeanPower_W;
  std::vector<double> m_rackWindowEnergy_J;
  double m_window_s = 0;
  bool m_windowClosed = false;
  std::vector<float> m_cduLoop_C, m_cduFlow, m_cduClock;
  std::vector<double> m_cduHeat_W;
  std::vector<double> m_cduHottestPlate_C;  // the mean coolant of the CDU's hottest cold plate

  double m_nvlinkBytes = 0, m_fabricBytes = 0;
  double m_itEnergy_J = 0, m_heatRemoved_J = 0;

  Aggregates m_agg;
  std::vector<Aggregates> m_series;
  size_t m_seriesCount = 0;
  uint64_t m_seriesEvery = 1;  // steps between rows now (desc.seriesEvery, doubled at each halving)
};

}  // namespace sim::engine
