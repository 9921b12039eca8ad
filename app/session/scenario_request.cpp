#include "app/session/scenario_request.h"

#include <algorithm>

#include "sim/engine/scenarios.h"
#include "sim/scenario.h"

namespace app {

sim::Result<sim::engine::EngineRequest> engineRequestFor(const std::string& name) {
  using R = sim::Result<sim::engine::EngineRequest>;
  const std::vector<std::string> builtins = sim::engine::builtinScenarioNames();
  if (std::find(builtins.begin(), builtins.end(), name) != builtins.end())
    return sim::engine::EngineRequest{name, {}, {}};
  auto scenario = sim::loadScenario(name);
  if (!scenario) {
    std::string known;
    for (const std::string& n : builtins) known += (known.empty() ? "" : ", ") + n;
    return R::failure("scenario \"" + name + "\" is neither an engine built-in (" + known +
                      ") nor an analytic scenario: " + scenario.error());
  }
  auto desc = sim::engine::engineDescFromScenario(*scenario);
  if (!desc) return R::failure("scenario \"" + name + "\": " + desc.error());
  sim::engine::EngineRequest request;
  request.scenario = desc->workload.kind == sim::engine::WorkloadKind::Training ? "training_405b"
                                                                                : "inference_70b";
  for (const std::string& path : sim::engine::engineFieldPaths())
    request.overrides.push_back(path + "=" + sim::engine::engineFieldValue(*desc, path));
  // The request must read back as the scenario's own description.
  auto back = sim::engine::engineDescOf(request);
  if (!back) return R::failure("scenario \"" + name + "\": " + back.error());
  return request;
}

}  // namespace app
