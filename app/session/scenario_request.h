// What the engine runs for a scenario name: a built-in engine scenario as it is, or an analytic
// scenario (assets/scenarios/NAME.json, or a file) converted by sim::engine::
// engineDescFromScenario and written as the built-in of its workload kind with every engine
// field set, so a scrub or a what-if edit reruns exactly it.
#pragma once

#include <string>

#include "sim/engine/request.h"
#include "sim/result.h"

namespace app {

sim::Result<sim::engine::EngineRequest> engineRequestFor(const std::string& name);

}  // namespace app
