#include "sim/engine/snapshot.h"

#include <algorithm>
#include <utility>

#include "sim/domain.h"
#include "sim/engine/series.h"

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
      checkArray("gpu_hbm_Bps", s.gpuHbm_Bps, "B/s"),
      checkArray("gpu_kv_occupancy", s.gpuKvOccupancy, "share"),
      checkArray("link_utilisation", s.linkUtilisation, "share"),
      checkArray("rack_power_W", s.rackPower_W, "W"),
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
  };
  for (const auto& [name, value] : times) {
    if (value == NEVER_S) continue;
    if (std::string why = outputError("s", value); !why.empty()) {
      return std::string(name) + " " + why;
    }
  }
  return "";
}

double rackRangePower_W(const Snapshot& snapshot, uint32_t firstRack, uint32_t endRack) {
  const uint32_t modelled =
      std::min<uint32_t>(snapshot.cluster->racks, uint32_t(snapshot.rackPower_W.size()));
  double modelledSum_W = 0;
  for (uint32_t r = 0; r < modelled; ++r) modelledSum_W += snapshot.rackPower_W[r];
  const double mirrored_W = modelled ? modelledSum_W / modelled : 0.0;
  double sum_W = 0;
  for (uint32_t r = firstRack; r < endRack; ++r) {
    sum_W += r < modelled ? snapshot.rackPower_W[r] : mirrored_W;
  }
  return sum_W;
}

}  // namespace sim::engine
