// `dcwalk sim`: evaluates a scenario with the analytic calculators and prints every quantity,
// as JSON (--json) or as a table. Bad scenarios, overrides and catalogs exit with status 2.
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/flag_domains.h"
#include "app/session/sim_budget.h"
#include "sim/calc/memory.h"
#include "sim/catalog.h"
#include "sim/engine/engine.h"
#include "sim/engine/fault_spec.h"
#include "sim/engine/scenarios.h"
#include "sim/engine/series.h"
#include "sim/evaluate.h"
#include "sim/hf_config.h"
#include "sim/scenario.h"

namespace app {
namespace {

struct SimOptions {
  std::string scenario;
  std::vector<std::string> sets;
  std::string hfConfig;
  bool json = false;
  bool list = false;
  std::string engine;  // time simulation: a built-in engine scenario
  double until_s = 0;
  std::string seriesFormat = "csv";
  std::vector<std::string> faults;
};

int fail(const std::string& message) {
  std::cerr << "dcwalk sim: " << message << "\n";
  return EXIT_BAD_INPUT;
}

int printHfConfig(const SimOptions& o) {
  auto model = sim::importHfConfigFile(o.hfConfig);
  if (!model) return fail(model.error());
  nlohmann::ordered_json out;
  out["model_type"] = model->modelType;
  out["layers"] = model->spec.layers;
  out["hidden"] = model->spec.hidden;
  out["heads"] = model->spec.heads;
  out["kv_heads"] = model->spec.kvHeads;
  out["head_dim"] = model->spec.headDim;
  out["intermediate"] = model->spec.intermediate;
  out["vocab"] = model->spec.vocab;
  out["experts"] = model->spec.experts;
  out["experts_per_token"] = model->spec.expertsPerToken;
  out["params"] = model->params;
  out["active_params"] = model->activeParams;
  for (sim::Precision p :
       {sim::Precision::FP32, sim::Precision::BF16, sim::Precision::FP8, sim::Precision::FP4}) {
    out["weights_" + std::string(sim::precisionName(p)) + "_bytes"] =
        sim::calc::weightBytes(model->params, p);
  }
  out["kv_cache_bytes_per_token_bf16"] = model->kvBytesPerTokenBf16;
  if (o.json) {
    std::cout << out.dump(2) << "\n";
  } else {
    for (const auto& [key, value] : out.items()) std::cout << key << "  " << value << "\n";
  }
  return EXIT_OK;
}

// The time simulation: runs an engine scenario to --until and writes its series.
int runEngine(const SimOptions& o) {
  auto format = sim::engine::parseSeriesFormat(o.seriesFormat);
  if (!format) return fail("--series must be csv or json, got \"" + o.seriesFormat + "\"");
  auto desc = sim::engine::builtinScenario(o.engine);
  if (!desc) return fail(desc.error());
  for (const std::string& spec : o.faults) {
    auto fault = sim::engine::parseFaultSpec(spec);
    if (!fault) return fail(fault.error());
    desc->faults.push_back(*fault);
  }
  auto catalog = sim::Catalog::loadDirectory(sim::assetsDir() / "catalog");
  if (!catalog) return fail(catalog.error());
  auto engine = sim::engine::Engine::create(*catalog, *desc);
  if (!engine) return fail(engine.error());
  // In slices of one simulated second, so a long run reports its progress on stderr.
  sim::engine::Engine& e = **engine;
  SimProgress progress("dcwalk sim", e.time_s(), o.until_s);
  while (e.time_s() < o.until_s) {
    e.advanceTo(std::min(o.until_s, e.time_s() + 1.0));
    progress.update(e.time_s());
  }
  progress.finish(e.time_s());
  sim::engine::writeSeries(std::cout, e, *format);
  return EXIT_OK;
}

int runSim(const SimOptions& o) {
  if (o.list) {
    for (const std::string& name : sim::builtinScenarioNames()) std::cout << name << "\n";
    for (const std::string& name : sim::engine::builtinScenarioNames()) {
      std::cout << name << " (time simulation: --engine)\n";
    }
    return EXIT_OK;
  }
  if (!o.engine.empty()) return runEngine(o);
  if (!o.hfConfig.empty()) return printHfConfig(o);
  if (o.scenario.empty()) return fail("--scenario FILE|NAME is required (see --list)");
  auto scenario = sim::loadScenario(o.scenario);
  if (!scenario) return fail(scenario.error());
  for (const std::string& assignment : o.sets) {
    auto applied = sim::applyOverride(*scenario, assignment);
    if (!applied) return fail(applied.error());
  }
  auto catalog = sim::Catalog::loadDirectory(sim::assetsDir() / "catalog");
  if (!catalog) return fail(catalog.error());
  auto evaluation = sim::evaluateScenario(*scenario, *catalog);
  if (!evaluation) return fail(o.scenario + ": " + evaluation.error());
  if (o.json) {
    nlohmann::ordered_json out;
    out["scenario"] = {{"name", scenario->name}, {"description", scenario->description}};
    const nlohmann::ordered_json sections = evaluation->toJson();
    for (const auto& [section, values] : sections.items()) out[section] = values;
    std::cout << out.dump(2) << "\n";
  } else {
    std::cout << scenario->name << ": " << scenario->description << "\n" << evaluation->toTable();
  }
  return EXIT_OK;
}

}  // namespace

Command addSimCommand(CLI::App& cli) {
  auto options = std::make_shared<SimOptions>();
  CLI::App* sub = cli.add_subcommand(
      "sim", "evaluate a scenario (cluster + workload), or run a time simulation (--engine)");
  sub->add_option("--scenario", options->scenario,
                  "Scenario file, or the name of a built-in one (assets/scenarios/NAME.json)");
  sub->add_option("--set", options->sets, "Override a scenario field: path=value (repeatable)")
      ->take_last()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub->add_flag("--json", options->json, "Print JSON (keys carry SI units) instead of a table");
  sub->add_flag("--list", options->list, "List the built-in scenarios");
  sub->add_option("--hf-config", options->hfConfig,
                  "Import a Hugging Face config.json and print its parameter and memory figures");
  sub->add_option("--engine", options->engine,
                  "Run a built-in time simulation (see --list) instead of the analytic scenario");
  addNumberOption(*sub, "sim", "--until", options->until_s,
                  "With --engine: simulated seconds to run (at most 3600)");
  sub->add_option("--series", options->seriesFormat, "With --engine: csv or json")
      ->capture_default_str();
  sub->add_option("--fault", options->faults,
                  "With --engine: KIND[:TARGET]@START[-END][,severity=X][,deadlock] (repeatable)")
      ->take_all();
  return Command{sub, [options] { return runSim(*options); }};
}

}  // namespace app
