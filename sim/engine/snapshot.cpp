#include "sim/engine/snapshot.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "sim/domain.h"
#include "sim/engine/series.h"
#include "sim/engine/thermal.h"

namespace sim::engine {
namespace {

template <class T>
std::string checkArray(std::string_view name, std::span<const T> values, std::string_view unit) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (std::string why = outputError(unit, double(values[i])); !why.empty()) {
      return std::string(name) + "[" + std::to_string(i) + "] " + why;
    }
  }
  return "";
}

}  // namespace

std::string checkSnapshot(const Snapshot& s) {
  if (std::string why = checkAggregates(s.aggregates); !why.empty()) return "aggregates." + why;
  const std::string arrays[] = {
      checkArray("gpu_utilisation", s.gpuUtilisation, "share"),
      checkArray("gpu_power_W", s.gpuPower_W, "W"),
      checkArray("gpu_junction_C", s.gpuJunction_C, "C"),
      checkArray("gpu_cold_plate_C", s.gpuColdPlate_C, "C"),
      checkArray("gpu_hbm_Bps", s.gpuHbm_Bps, "B/s"),
      checkArray("gpu_kv_occupancy", s.gpuKvOccupancy, "share"),
      checkArray("link_utilisation", s.linkUtilisation, "share"),
      checkArray("rack_power_W", s.rackPower_W, "W"),
      checkArray("rack_mean_power_W", s.rackMeanPower_W, "W"),
      checkArray("cdu_loop_C", s.cduLoop_C, "C"),
      checkArray("cdu_flow_fraction", s.cduFlowFraction, "share"),
      checkArray("cdu_clock", s.cduClock, "share"),
      checkArray("dp_link_bytes", s.dpLinkBytes, "B"),
      checkArray("pp_link_bytes", s.ppLinkBytes, "B"),
      checkArray("all_to_all_link_bytes", s.allToAllLinkBytes, "B"),
  };
  for (const std::string& why : arrays) {
    if (!why.empty()) return why;
  }
  struct Figure {
    std::string_view name;
    double value;
    std::string_view unit;
  };
  const Figure figures[] = {
      {"time_s", s.time_s, "s"},
      {"phase_fraction", s.phaseFraction, "share"},
      {"step_elapsed_s", s.stepElapsed_s, "s"},
      {"last_step_time_s", s.lastStepTime_s, "s"},
      {"fault_free_step_time_s", s.faultFreeStepTime_s, "s"},
      {"nvlink_bytes", s.nvlinkBytes, "B"},
  };
  for (const Figure& f : figures) {
    if (std::string why = outputError(f.unit, f.value); !why.empty()) {
      return std::string(f.name) + " " + why;
    }
  }
  // NEVER_S stands for "never completes" (a DP ring cut by faults); anything else is a time.
  const std::pair<std::string_view, double> times[] = {
      {"pipeline_time_s", s.pipelineTime_s},
      {"data_parallel_time_s", s.dataParallelTime_s},
      {"data_parallel_exposed_time_s", s.dataParallelExposedTime_s},
      {"pipeline_phase_s", s.phaseDuration_s[0]},
      {"data_parallel_phase_s", s.phaseDuration_s[1]},
      {"optimizer_phase_s", s.phaseDuration_s[2]},
  };
  for (const auto& [name, value] : times) {
    if (value == NEVER_S) continue;
    if (std::string why = outputError("s", value); !why.empty()) {
      return std::string(name) + " " + why;
    }
  }
  return "";
}

double rackRangePower_W(const Snapshot& snapshot, uint32_t firstRack, uint32_t endRack,
                        PowerWindow window) {
  const std::span<const float> power =
      window == PowerWindow::Now ? snapshot.rackPower_W : snapshot.rackMeanPower_W;
  const uint32_t modelled = std::min<uint32_t>(snapshot.cluster->racks, uint32_t(power.size()));
  double modelledSum_W = 0;
  for (uint32_t r = 0; r < modelled; ++r) modelledSum_W += power[r];
  const double mirrored_W = modelled ? modelledSum_W / modelled : 0.0;
  double sum_W = 0;
  for (uint32_t r = firstRack; r < endRack; ++r) sum_W += r < modelled ? power[r] : mirrored_W;
  return sum_W;
}

CampusPower campusPower(const Snapshot& snapshot, PowerWindow window) {
  const Cluster& c = *snapshot.cluster;
  CampusPower out;
  out.it_W = rackRangePower_W(snapshot, 0, c.campusRacks, window);
  out.facility_W =
      out.it_W + facilityOverheadAt_W(out.it_W, double(c.campusRacks) * c.rackMaxPower_W,
                                      c.specs.facility.pue,
                                      snapshot.figures->facilityFixedOverheadFraction);
  return out;
}

RackCoolant rackCoolant(const Snapshot& snapshot, uint32_t rack) {
  const Cluster& c = *snapshot.cluster;
  RackCoolant out;
  out.supply_C = c.specs.facility.coolantSupply_C;
  out.rackOutlet_C = out.loopReturn_C = out.facilityReturn_C = out.supply_C;
  if (rack >= c.racks || rack >= snapshot.rackPower_W.size() || snapshot.cduLoop_C.empty() ||
      snapshot.gpuColdPlate_C.size() < size_t(rack + 1) * c.gpusPerRack)
    return out;
  out.cdu = c.rackCdu[rack];
  out.flowFraction = snapshot.cduFlowFraction[out.cdu];
  out.rackHeat_W = snapshot.rackPower_W[rack];
  // The return manifold mixes the rack's flows: its GPUs' cold plates (each its TDP's share of the
  // rack's design flow, as the engine keeps them) and the rest of the rack's cold plates (the
  // remaining share, carrying the rest of its heat, taken as settled).
  double gpuRise_K = 0, gpu_W = 0;
  for (uint32_t g = rack * c.gpusPerRack; g < (rack + 1) * c.gpusPerRack; ++g) {
    gpuRise_K += snapshot.gpuColdPlate_C[g] - out.supply_C;
    gpu_W += snapshot.gpuPower_W.size() > g ? snapshot.gpuPower_W[g] : 0.0f;
  }
  const double designRise_K = c.specs.facility.coolantDeltaT_K;
  const double gpuShare =
      c.rackMaxPower_W > 0
          ? std::min(1.0, double(c.gpusPerRack) * c.specs.gpu.tdp_W / c.rackMaxPower_W)
          : 1.0;
  const double otherRise_K = gpuShare < 1 && out.flowFraction > 0
                                 ? std::max(0.0, out.rackHeat_W - gpu_W) * designRise_K /
                                       ((1 - gpuShare) * c.rackMaxPower_W * out.flowFraction)
                                 : 0.0;
  out.rackOutlet_C = out.supply_C + gpuShare * gpuRise_K / std::max(1u, c.gpusPerRack) +
                     (1 - gpuShare) * otherRise_K;
  const double loop_C = snapshot.cduLoop_C[out.cdu];
  out.loopReturn_C = loop_C;
  // Heat carried now, flow x c_p x (loop - supply), over the facility's design flow x c_p.
  out.facilityReturn_C = out.supply_C + out.flowFraction * (loop_C - out.supply_C);
  return out;
}

StepSplit stepSplit(const Snapshot& snapshot) {
  StepSplit out;
  const TrainingPlan* plan = snapshot.training;
  if (!plan || plan->jobGpus == 0 || plan->peak_flops <= 0) return out;
  const double m = plan->desc.microBatches;
  // 6 FLOPs per active parameter per token (forward 2, backward 4), shared by the job's GPUs.
  out.peak_s =
      6.0 * plan->activeParams * plan->tokensPerStep / (double(plan->jobGpus) * plan->peak_flops);
  out.compute_s = m * (plan->forward_s + plan->backward_s);
  out.bubble_s = std::max(0.0, plan->pipeline_s - m * plan->microBatchSlot_s);
  // The pipeline as routed now holds the EP all-to-alls and any congestion on its sends.
  const double pipelineNow_s = std::max(snapshot.pipelineTime_s, plan->pipeline_s);
  const double dpExposed_s =
      std::isfinite(snapshot.dataParallelExposedTime_s) ? snapshot.dataParallelExposedTime_s : 0.0;
  out.communication_s =
      m * (plan->tpComm_s + plan->ppSend_s) + (pipelineNow_s - plan->pipeline_s) + dpExposed_s;
  out.optimizer_s = plan->optimizer_s;
  const double parts_s = out.compute_s + out.communication_s + out.bubble_s + out.optimizer_s;
  const double step_s = snapshot.lastStepTime_s > 0 ? snapshot.lastStepTime_s : parts_s;
  out.lost_s = std::max(0.0, step_s - parts_s);
  out.total_s = parts_s + out.lost_s;
  return out;
}

}  // namespace sim::engine
