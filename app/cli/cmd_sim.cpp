// `dcwalk sim`: evaluates a scenario with the analytic calculators and prints every quantity,
// as JSON (--json) or as a table; runs the time engine on a built-in engine scenario or on an
// analytic scenario file (--engine); writes the validation report (--validate). Bad scenarios,
// overrides and catalogs exit with status 2; an output outside its domain (a defect of the
// model, sim/domain.h) exits with status 1 and prints nothing.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/flag_domains.h"
#include "app/cli/trace_out.h"
#include "app/session/sim_budget.h"
#include "sim/calc/memory.h"
#include "sim/catalog.h"
#include "sim/domain.h"
#include "sim/engine/engine.h"
#include "sim/engine/fault_spec.h"
#include "sim/engine/request.h"
#include "sim/engine/scenarios.h"
#include "sim/engine/series.h"
#include "sim/evaluate.h"
#include "sim/hf_config.h"
#include "sim/scenario.h"
#include "sim/validation.h"

namespace app {
namespace {

struct SimOptions {
  std::string scenario;
  std::vector<std::string> sets;
  std::string hfConfig;
  bool json = false;
  bool list = false;
  bool validate = false;
  std::string engine;  // time simulation: a built-in engine scenario or an analytic scenario
  double until_s = 0;
  std::string seriesFormat = "csv";
  std::vector<std::string> faults;
  TraceOutOptions trace;  // --trace-out: the modelled step as Kineto traces
};

int fail(const std::string& message) {
  std::cerr << "dcwalk sim: " << message << "\n";
  return EXIT_BAD_INPUT;
}

// An output outside its domain although every input was in its own: the model's fault, so not
// exit status 2 (which says "fix your input") and nothing printed.
int defect(const std::string& message) {
  std::cerr << "dcwalk sim: internal error: " << message << "\n";
  return EXIT_FAILURE_RUNTIME;
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
  for (const auto& [key, value] : out.items()) {  // counts and bytes: finite, >= 0
    if (!value.is_number()) continue;
    if (std::string why = sim::outputError("count", value.get<double>()); !why.empty()) {
      return defect(o.hfConfig + ": " + key + " " + why);
    }
  }
  if (o.json) {
    std::cout << out.dump(2) << "\n";
  } else {
    for (const auto& [key, value] : out.items()) std::cout << key << "  " << value << "\n";
  }
  return EXIT_OK;
}

// The engine description --engine names: a built-in engine scenario with engine --set paths, or
// an analytic scenario (file or built-in name) with analytic --set paths, converted.
sim::Result<sim::engine::EngineDesc> engineDesc(const SimOptions& o) {
  using R = sim::Result<sim::engine::EngineDesc>;
  const auto builtins = sim::engine::builtinScenarioNames();
  if (std::find(builtins.begin(), builtins.end(), o.engine) != builtins.end()) {
    return sim::engine::engineDescOf({.scenario = o.engine, .overrides = o.sets, .faults = {}});
  }
  auto scenario = sim::loadScenario(o.engine);
  if (!scenario) return R::failure(scenario.error());
  for (const std::string& assignment : o.sets) {
    auto applied = sim::applyOverride(*scenario, assignment);
    if (!applied) return R::failure(applied.error());
  }
  auto desc = sim::engine::engineDescFromScenario(*scenario);
  if (!desc) return R::failure(o.engine + ": " + desc.error());
  return desc;
}

// The command that made a trace, kept in it.
std::string traceSource(const SimOptions& o, double until_s) {
  std::string source = "dcwalk sim --engine " + o.engine;
  for (const std::string& set : o.sets) source += " --set " + set;
  for (const std::string& fault : o.faults) source += " --fault " + fault;
  return source + " --until " + std::to_string(until_s);
}

// --trace-out: runs the engine through the trace's window and writes one file per rank.
int runEngineTrace(const SimOptions& o, sim::engine::Engine& e, SimProgress& progress) {
  auto ranks = o.trace.ranks.empty() ? sim::Result<std::vector<int64_t>>(std::vector<int64_t>{})
                                     : parseTraceRanks(o.trace.ranks, traceWorldSize(e));
  if (!ranks) return fail(ranks.error());
  for (int64_t r : *ranks) {
    const auto path = std::filesystem::path(o.trace.dir) / traceFileName(r, o.trace.gzip);
    std::error_code ec;
    if (std::filesystem::exists(path, ec))
      return fail("--trace-out: " + path.string() + " exists already (nothing is written over)");
  }
  auto run =
      runModelTrace(e, o.trace, o.until_s, *ranks, [&](double now_s) { progress.update(now_s); });
  if (!run) return fail(run.error());
  auto written = writeTraceFiles(o.trace, run->ranks, {}, traceSource(o, run->until_s));
  if (!written) return fail(written.error());
  for (const std::string& file : *written) std::cerr << "dcwalk sim: wrote " << file << "\n";
  return EXIT_OK;
}

// The time simulation: runs an engine scenario to --until and writes its series.
int runEngine(const SimOptions& o) {
  auto format = sim::engine::parseSeriesFormat(o.seriesFormat);
  if (!format) return fail("--series must be csv or json, got \"" + o.seriesFormat + "\"");
  auto desc = engineDesc(o);
  if (!desc) return fail(desc.error());
  for (const std::string& spec : o.faults) {
    auto fault = sim::engine::parseFaultSpec(spec);
    if (!fault) return fail(fault.error());
    desc->faults.push_back(*fault);
  }
  if (!o.trace.dir.empty()) {
    if (std::string why = checkTraceOutTarget(o.trace.dir); !why.empty()) return fail(why);
    if (auto ranks = parseTraceRanks(o.trace.ranks.empty() ? "0" : o.trace.ranks, -1); !ranks)
      return fail(ranks.error());
  }
  auto catalog = sim::Catalog::loadDirectory(sim::assetsDir() / "catalog");
  if (!catalog) return fail(catalog.error());
  auto engine = sim::engine::Engine::create(*catalog, *desc);
  if (!engine) return fail(engine.error());
  sim::engine::Engine& e = **engine;
  // --until on the engine's step grid: the run ends at a whole step (a time below one step would
  // be no step at all, and a loop waiting for it would never end).
  const double dt_s = e.desc().dt_s;
  const uint64_t steps = sim::engine::stepsUntil(o.until_s, dt_s);
  if (o.until_s > 0 && o.until_s < dt_s * (1 - 1e-9)) {
    return fail("--until " + sim::numberText(o.until_s) + ": shorter than one engine step (" +
                sim::numberText(dt_s) + " s); give 0 or at least one step");
  }
  SimProgress progress("dcwalk sim", e.time_s(), o.until_s);
  if (!o.trace.dir.empty()) {
    if (int status = runEngineTrace(o, e, progress); status != EXIT_OK) return status;
  }
  // In slices of one simulated second, so a long run reports its progress on stderr.
  while (e.stepCount() < steps) {
    e.advanceTo(std::min(double(steps) * dt_s, e.time_s() + 1.0));
    progress.update(e.time_s());
  }
  progress.finish(e.time_s());
  for (size_t r = 0; r < e.seriesRows(); ++r) {
    if (std::string why = sim::engine::checkAggregates(e.seriesRow(r)); !why.empty()) {
      return defect("series row " + std::to_string(r) + ": " + why);
    }
  }
  sim::engine::writeSeries(std::cout, e, *format);
  return EXIT_OK;
}

// The validation report (docs/validation.md is this output, written by scripts/validate).
int runValidation(const SimOptions& o) {
  const auto folder = sim::assetsDir() / "scenarios" / "validation";
  auto cases = sim::loadValidationCases(folder / "cases.json");
  if (!cases) return fail(cases.error());
  auto catalog = sim::Catalog::loadDirectory(sim::assetsDir() / "catalog");
  if (!catalog) return fail(catalog.error());
  auto results = sim::runValidation(*cases, *catalog);
  if (!results) return fail(results.error());
  if (o.json) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const sim::CaseResult& r : *results) {
      out.push_back({{"id", r.spec.id},
                     {"value", r.value},
                     {"published", r.spec.published},
                     {"ratio", r.ratio},
                     {"status", sim::statusName(r.status)},
                     {"role", r.spec.role},
                     {"command", r.command}});
    }
    std::cout << out.dump(2) << "\n";
    return EXIT_OK;
  }
  std::ifstream in(folder / "validation.md.in");
  if (!in)
    return fail((folder / "validation.md.in").string() + ": cannot read the report template");
  std::stringstream text;
  text << in.rdbuf();
  std::cout << sim::validationReport(*results, text.str());
  return EXIT_OK;
}

int runSim(const SimOptions& o) {
  if (o.validate) return runValidation(o);
  if (o.list) {
    for (const std::string& name : sim::builtinScenarioNames()) std::cout << name << "\n";
    for (const std::string& name : sim::engine::builtinScenarioNames()) {
      std::cout << name << " (time simulation: --engine)\n";
    }
    return EXIT_OK;
  }
  // (--trace-from is checked here, not by CLI11, so that its number is checked on its own first.)
  if (o.trace.from_s && o.trace.dir.empty()) return fail("--trace-from requires --trace-out");
  if (!o.trace.dir.empty() && o.engine.empty()) return fail("--trace-out requires --engine");
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
  if (!evaluation && evaluation.isDefect()) return defect(o.scenario + ": " + evaluation.error());
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
  sub->add_flag("--validate", options->validate,
                "Print the validation report: every published measurement, dcwalk's value, ratio");
  sub->add_option("--hf-config", options->hfConfig,
                  "Import a Hugging Face config.json and print its parameter and memory figures");
  sub->add_option("--engine", options->engine,
                  "Run the time simulation: a built-in engine scenario (see --list) or a scenario "
                  "file / name, with --set overrides");
  addNumberOption(*sub, "sim", "--until", options->until_s,
                  "With --engine: simulated seconds to run (at most 3600)");
  sub->add_option("--series", options->seriesFormat, "With --engine: csv or json")
      ->capture_default_str();
  // Options one mode would ignore are refused with the other mode's flag named, not dropped.
  sub->get_option("--json")->excludes("--engine");
  sub->get_option("--list")
      ->excludes("--scenario")
      ->excludes("--engine")
      ->excludes("--set")
      ->excludes("--hf-config")
      ->excludes("--validate");
  sub->get_option("--validate")
      ->excludes("--scenario")
      ->excludes("--engine")
      ->excludes("--set")
      ->excludes("--hf-config");
  sub->add_option("--fault", options->faults,
                  "With --engine: KIND[:TARGET]@START[-END][,severity=X][,deadlock] (repeatable)")
      ->take_all();
  CLI::Option* traceOut = sub->add_option(
      "--trace-out", options->trace.dir,
      "With --engine: folder to write the modelled step in as PyTorch profiler (Kineto) traces, "
      "one file per rank (docs/trace.md)");
  sub->add_option("--trace-ranks", options->trace.ranks,
                  "With --trace-out: ranks to write, e.g. 0,8,16-23 (default: the first of every "
                  "pipeline stage and the slowest GPU's; serving: replica 0 and the slowest)")
      ->needs(traceOut);
  addNumberOption(*sub, "sim", "--trace-from", options->trace.from_s,
                  "With --trace-out: the window's start (default: the last training step before "
                  "--until; serving: 0.5 s before it)");
  sub->add_flag("--gzip", options->trace.gzip, "With --trace-out: write .json.gz")->needs(traceOut);
  return Command{sub, [options] { return runSim(*options); }};
}

}  // namespace app
