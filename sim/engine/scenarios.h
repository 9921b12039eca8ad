// Built-in engine scenarios: the default training job on the default campus, an inference
// service, and one scenario per fault kind (each injected at a time and cleared later).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/engine/engine_desc.h"
#include "sim/result.h"

namespace sim::engine {

/// Names of the built-in scenarios.
std::vector<std::string> builtinScenarioNames();
/// The EngineDesc of built-in scenario `name`; an error lists the known names.
Result<EngineDesc> builtinScenario(std::string_view name);

}  // namespace sim::engine
