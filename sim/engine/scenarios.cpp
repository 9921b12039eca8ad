#include "sim/engine/scenarios.h"

namespace sim::engine {
namespace {

// GPU 0 is rank (stage 0, replica 0, tp 0) of the default layout; its NIC cable is LinkId 0;
// switch 0 is the first leaf; CDU 0 cools the first racks.
EngineDesc training() {
  return {};
}

EngineDesc withFault(FaultDesc fault) {
  EngineDesc d = training();
  d.faults.push_back(fault);
  return d;
}

}  // namespace

std::vector<std::string> builtinScenarioNames() {
  return {"training_405b", "training_405b_no_rail", "training_moe_ep", "inference_70b", "link_down",
          "pfc_storm",     "pfc_deadlock",          "pump_trip",       "straggler"};
}

Result<EngineDesc> builtinScenario(std::string_view name) {
  if (name == "training_405b") return training();
  if (name == "training_405b_no_rail") {
    EngineDesc d = training();
    d.cluster.railOptimized = false;
    return d;
  }
  if (name == "training_moe_ep") {
    // Mixtral 8x7B with its 8 experts spread over 8 DP replicas (EP 8) in 8 consecutive racks.
    EngineDesc d = training();
    d.workload.training.modelId = "mixtral_8x7b";
    d.workload.training.pp = 4;
    d.workload.training.dp = 512;
    d.workload.training.ep = 8;
    d.workload.training.microBatches = 8;
    return d;
  }
  if (name == "inference_70b") {
    EngineDesc d;
    d.workload.kind = WorkloadKind::Inference;
    d.workload.inference.replicas = 144;  // 16 racks of 9 TP-8 replicas
    return d;
  }
  if (name == "link_down")
    return withFault({.kind = FaultKind::LinkDown, .start_s = 5, .end_s = 35, .target = 0});
  if (name == "pfc_storm")
    return withFault({.kind = FaultKind::PfcStorm, .start_s = 5, .end_s = 8, .target = 0});
  if (name == "pfc_deadlock")
    return withFault(
        {.kind = FaultKind::PfcStorm, .start_s = 5, .end_s = 8, .target = 0, .deadlock = true});
  if (name == "pump_trip")
    return withFault({.kind = FaultKind::PumpTrip, .start_s = 10, .end_s = 310, .target = 0});
  if (name == "straggler")
    return withFault({.kind = FaultKind::Straggler, .start_s = 10, .end_s = 40, .target = 0});
  std::string known;
  for (const std::string& n : builtinScenarioNames()) known += (known.empty() ? "" : ", ") + n;
  return Result<EngineDesc>::failure("unknown engine scenario \"" + std::string(name) +
                                     "\" (known: " + known + ")");
}

}  // namespace sim::engine
