// The time engine's side of issue 19's property: every numeric engine field (the override table
// of sim/engine/request.cpp, enumerated from itself), fed its domain's edges and beyond, is
// refused naming the field, or builds an engine whose snapshots and series rows are all finite
// and possible (sim::engine::checkSnapshot / checkAggregates, and the test's own reading of the
// aggregates). Engines take a while to build, so only the in-domain edges (min, max) are built
// and run; every value is offered to the override. `dcwalk sim --engine` on an analytic scenario
// (engineDescFromScenario) is sampled the same way.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "sim/engine/engine.h"
#include "sim/engine/request.h"
#include "sim/engine/scenarios.h"
#include "sim/engine/series.h"
#include "sim/scenario.h"
#include "tests/sim/engine_test_util.h"
#include "tests/sim/sanitized.h"

using namespace sim;
using namespace sim::engine;

namespace {

std::string text(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char out[64];
  std::snprintf(out, sizeof out,
                value == std::floor(value) && std::abs(value) < 1e19 ? "%.0f" : "%.17g", value);
  return out;
}

// The test's own reading of a row: finite, and no negative time, power, rate or count; shares
// (the *_fraction columns, utilisation) at most 1.
std::string impossibleRow(const Aggregates& a) {
  const std::pair<const char*, double> nonNegative[] = {{"time_s", a.time_s},
                                                        {"campus_it_W", a.campusIt_W},
                                                        {"facility_W", a.facility_W},
                                                        {"mean_gpu_power_W", a.meanGpuPower_W},
                                                        {"tokens_per_s", a.tokensPerSecond},
                                                        {"last_step_time_s", a.lastStepTime_s},
                                                        {"queued", a.queued},
                                                        {"active", a.active},
                                                        {"mean_ttft_s", a.meanTtft_s},
                                                        {"tpot_s", a.tpot_s}};
  for (const auto& [name, v] : nonNegative) {
    if (!std::isfinite(v) || v < 0) return std::string(name) + " = " + text(v);
  }
  const std::pair<const char*, double> shares[] = {{"min_clock", a.minClock},
                                                   {"goodput", a.goodput},
                                                   {"goodput_cumulative", a.goodputCumulative},
                                                   {"max_link_utilisation", a.maxLinkUtilisation},
                                                   {"mean_kv_occupancy", a.meanKvOccupancy}};
  for (const auto& [name, v] : shares) {
    if (!(v >= 0 && v <= 1)) return std::string(name) + " = " + text(v);
  }
  if (!(a.maxJunction_C > -273.15 && std::isfinite(a.maxJunction_C))) return "max_junction_C";
  return "";
}

// Builds `desc` and runs it `steps` steps, checking the snapshot on the way and every row.
void runAndCheck(const EngineDesc& desc, const std::string& what, size_t& built) {
  auto engine = Engine::create(enginetest::catalog(), desc);
  if (!engine) {
    EXPECT_FALSE(engine.error().empty()) << what;
    return;
  }
  ++built;
  Engine& e = **engine;
  const int steps = simtest::SANITIZED ? 30 : 120;
  for (int i = 0; i < steps; ++i) {
    e.step();
    if (i % 10 == 0) {
      const std::string why = checkSnapshot(e.snapshot());
      ASSERT_EQ(why, "") << what << " at " << e.time_s() << " s";
    }
  }
  for (size_t r = 0; r < e.seriesRows(); ++r) {
    ASSERT_EQ(checkAggregates(e.seriesRow(r)), "") << what << " row " << r;
    ASSERT_EQ(impossibleRow(e.seriesRow(r)), "") << what << " row " << r;
  }
}

std::vector<double> edges(const Domain& d) {
  const double inf = std::numeric_limits<double>::infinity();
  return {d.min,
          d.max,
          d.min - 1,
          d.max + 1,
          0,
          -1,
          0.5,
          5e-324,
          1e308,
          2147483648.0,
          9223372036854775808.0,
          std::nan(""),
          inf,
          -inf,
          std::nextafter(d.max, inf)};
}

bool appliesTo(const std::string& path, const std::string& scenario) {
  if (path.rfind("workload.training.", 0) == 0) return scenario.rfind("training", 0) == 0;
  if (path.rfind("workload.inference.", 0) == 0) return scenario.rfind("inference", 0) == 0;
  return true;
}

}  // namespace

TEST(EngineProperty, EveryEngineFieldHasADeclaredDomain) {
  const auto fields = engineFields();
  ASSERT_GE(fields.size(), 15u);
  size_t numericPaths = 0;
  for (const std::string& path : engineFieldPaths()) {
    EngineDesc d;
    // A numeric field reads back as a number; the table's other fields are names and flags.
    const std::string value = engineFieldValue(d, path);
    if (!value.empty() && (std::isdigit(static_cast<unsigned char>(value[0])) != 0)) {
      ++numericPaths;
    }
  }
  EXPECT_EQ(fields.size(), numericPaths) << "every numeric field is in engineFields()";
  for (const EngineField& f : fields) {
    SCOPED_TRACE(f.path);
    EXPECT_TRUE(std::isfinite(f.domain.min) && std::isfinite(f.domain.max));
    EXPECT_LE(f.domain.min, f.domain.max);
  }
  // The built-in scenarios lie inside the domains they are overridden in.
  for (const std::string& name : sim::engine::builtinScenarioNames()) {
    auto d = builtinScenario(name);
    ASSERT_TRUE(d.ok()) << d.error();
    EXPECT_TRUE(checkEngineDesc(*d).ok()) << name << ": " << checkEngineDesc(*d).error();
  }
}

TEST(EngineProperty, EveryFieldAtItsEdgesIsRefusedOrRunsPossibly) {
  const auto start = std::chrono::steady_clock::now();
  size_t offered = 0, refused = 0, built = 0;
  for (const char* scenario : {"training_405b", "inference_70b"}) {
    auto base = builtinScenario(scenario);
    ASSERT_TRUE(base.ok()) << base.error();
    for (const EngineField& f : engineFields()) {
      if (!appliesTo(f.path, scenario)) continue;
      for (const double value : edges(f.domain)) {
        ++offered;
        EngineDesc desc = *base;
        const std::string assignment = f.path + "=" + text(value);
        auto applied = applyEngineOverride(desc, assignment);
        const bool inDomain = domainError(f.domain, value).empty();
        EXPECT_EQ(applied.ok(), inDomain) << assignment << ": " << applied.error();
        if (!applied) {
          EXPECT_NE(applied.error().find(f.path), std::string::npos) << applied.error();
          ++refused;
          continue;
        }
        // Built and run: the domain's own edges (and 0 where it means the default).
        if (value != f.domain.min && value != f.domain.max) continue;
        runAndCheck(desc, std::string(scenario) + " " + assignment, built);
      }
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("[ engine ] %zu values offered, %zu refused, %zu engines built and run (%.1f s)\n",
              offered, refused, built, seconds);
  EXPECT_GT(built, 10u);
}

// `dcwalk sim --engine FILE --set ...`: analytic fields the conversion carries, at their edges.
TEST(EngineProperty, AnalyticScenariosAtTheirEdgesAreRefusedOrRunPossibly) {
  size_t built = 0, refused = 0;
  const std::vector<std::string> paths = {"cluster.gpus",
                                          "workload.tp",
                                          "workload.pp",
                                          "workload.dp",
                                          "workload.cp",
                                          "workload.micro_batch",
                                          "workload.micro_batches",
                                          "workload.seq_len",
                                          "workload.batch",
                                          "workload.prompt_tokens",
                                          "workload.output_tokens",
                                          "workload.request_rate_per_s",
                                          "workload.virtual_stages",
                                          "facility.power_budget_W"};
  std::vector<ScenarioField> fields;
  for (const ScenarioField& f : scenarioFields()) {
    for (const std::string& p : paths) {
      if (f.path == p) fields.push_back(f);
    }
  }
  ASSERT_EQ(fields.size(), paths.size());
  size_t index = 0;
  for (const char* name : {"llama405b-training-16k-h100", "llama70b-inference-h100"}) {
    auto base = loadScenario(name);
    ASSERT_TRUE(base.ok()) << base.error();
    for (const ScenarioField& f : fields) {
      for (const double value : {f.domain.min, f.domain.max}) {
        if (simtest::SANITIZED && ++index % 3 != 0) continue;
        ScenarioDesc s = *base;
        const std::string assignment = f.path + "=" + text(value);
        ASSERT_TRUE(applyOverride(s, assignment).ok()) << assignment;
        auto desc = engineDescFromScenario(s);
        if (!desc) {
          ++refused;
          EXPECT_FALSE(desc.error().empty()) << assignment;
          continue;
        }
        runAndCheck(*desc, std::string(name) + " --set " + assignment, built);
      }
    }
  }
  std::printf("[ engine from scenarios ] %zu built and run, %zu refused by the conversion\n", built,
              refused);
  EXPECT_GT(built, 4u);
}
