// What the engine runs: a built-in engine scenario, field overrides on it by dotted path
// ("path=value", as `dcwalk sim --set` does for the analytic scenarios) and faults added to it.
// The session keeps one (so a scrub reruns exactly what ran); the what-if panel edits one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/domain.h"
#include "sim/engine/engine_desc.h"
#include "sim/result.h"
#include "sim/scenario.h"

namespace sim::engine {

/// Every engine-scenario field an override may set, by dotted path ("workload.training.tp", ...).
std::vector<std::string> engineFieldPaths();

/// A numeric engine field and its domain (sim/domain.h).
struct EngineField {
  std::string path;
  Domain domain;
};
/// Every numeric field an override may set, with its domain, in table order.
std::vector<EngineField> engineFields();
/// Every numeric field of `desc` checked against its domain (descriptions built in code, or
/// converted from an analytic scenario); fails naming the first field outside.
Result<bool> checkEngineDesc(const EngineDesc& desc);
/// The value of field `path` of `desc` as the text an override takes; "" for an unknown path.
std::string engineFieldValue(const EngineDesc& desc, std::string_view path);
/// The values field `path` takes when it is one of a few ("true", "false"; a precision's names);
/// empty for a number, free text or an unknown path.
std::vector<std::string> engineFieldChoices(std::string_view path);
/// Applies one "path=value" to `desc`. Fails naming the assignment when the path is unknown, the
/// value has the wrong type or is out of range; `desc` is unchanged on failure.
Result<bool> applyEngineOverride(EngineDesc& desc, std::string_view assignment);

/// A fault as the fault-spec text of sim/engine/fault_spec.h ("pump_trip:0@12.5-40,severity=0.3").
std::string faultSpecText(const FaultDesc& fault);
/// `faults` plus a fault of `kind` on `target` starting at `now_s` and never cleared (`severity`
/// 0 = the catalog default), built as a spec and parsed as the command line's --fault is.
Result<std::vector<FaultDesc>> injectFault(std::vector<FaultDesc> faults, FaultKind kind,
                                           uint32_t target, double severity, double now_s);
/// `faults` with fault `index` cleared at `now_s`: ended then, or dropped when it has not begun.
Result<std::vector<FaultDesc>> clearFault(std::vector<FaultDesc> faults, size_t index,
                                          double now_s);

/// What the engine should run: a built-in scenario, field overrides, and the faults added to it.
struct EngineRequest {
  std::string scenario = "training_405b";
  std::vector<std::string> overrides;  // "path=value", applied in order
  std::vector<FaultDesc> faults;       // on top of the scenario's own

  bool operator==(const EngineRequest&) const = default;
};

/// The engine description of `request` (the scenario's own faults first); the first bad part
/// fails, named.
Result<EngineDesc> engineDescOf(const EngineRequest& request);

/// The time engine's description of an analytic scenario (a `dcwalk sim --scenario` file): the
/// cluster (system, NIC, switch, GPUs as the fabric size, facility) and the workload (training
/// layout, or TP replicas serving at the scenario's batch and request rate). Fails naming the
/// scenario field the engine cannot take (a model given by dimensions, an accelerator by figures).
Result<EngineDesc> engineDescFromScenario(const ScenarioDesc& scenario);

}  // namespace sim::engine
