// One engine step (sim::engine::Engine::step) for the default campus and for larger modelled
// fabrics: the per-frame simulation budget is 2 ms (docs/performance.md, "Simulation step").
#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>

#include "sim/catalog.h"
#include "sim/engine/engine.h"
#include "sim/engine/scenarios.h"

namespace {

const sim::Catalog& catalog() {
  static const sim::Result<sim::Catalog> loaded =
      sim::Catalog::loadDirectory(sim::assetsDir() / "catalog");
  if (!loaded) {
    std::fprintf(stderr, "%s\n", loaded.error().c_str());
    std::abort();
  }
  return loaded.value();
}

void runSteps(benchmark::State& state, const sim::engine::EngineDesc& desc) {
  auto engine = sim::engine::Engine::create(catalog(), desc);
  if (!engine) {
    state.SkipWithError(engine.error().c_str());
    return;
  }
  sim::engine::Engine& e = *engine.value();
  for (auto _ : state) {
    e.step();
    benchmark::DoNotOptimize(e.snapshot().aggregates.facility_W);
  }
  state.counters["gpus"] = double(e.cluster().gpuCount());
  state.counters["links"] = double(e.cluster().linkCount());
  state.counters["campus_gpus"] = e.cluster().campusGpus();
  state.counters["sim_s"] = e.time_s();
}

// The default campus: ~100 MW, one 16,384-GPU fabric modelled link by link, Llama 3.1 405B.
void BM_EngineStep_DefaultCampus(benchmark::State& state) {
  runSteps(state, sim::engine::builtinScenario("training_405b").value());
}
BENCHMARK(BM_EngineStep_DefaultCampus)->Unit(benchmark::kMicrosecond);

// Larger modelled fabrics (Quantum-X800, radix 144, so 3 tiers hold them), DP scaled with them.
void BM_EngineStep_FabricGpus(benchmark::State& state) {
  sim::engine::EngineDesc d;
  d.cluster.fabricGpus = static_cast<uint32_t>(state.range(0));
  d.cluster.switchId = "quantum_x800_q3400";
  d.cluster.rails = 8;
  d.workload.training.dp = static_cast<int>(state.range(0) / (8 * 16));
  runSteps(state, d);
}
BENCHMARK(BM_EngineStep_FabricGpus)
    ->Arg(16384)
    ->Arg(65536)
    ->Arg(131072)
    ->Unit(benchmark::kMicrosecond);

// A PFC storm in full spread: the pause state is evaluated for every switch each step.
void BM_EngineStep_PfcStorm(benchmark::State& state) {
  sim::engine::EngineDesc d = sim::engine::builtinScenario("training_405b").value();
  d.faults.push_back({.kind = sim::engine::FaultKind::PfcStorm, .start_s = 0, .target = 0});
  runSteps(state, d);
}
BENCHMARK(BM_EngineStep_PfcStorm)->Unit(benchmark::kMicrosecond);

// The inference service (144 replicas of Llama 3.1 70B on TP 8).
void BM_EngineStep_Inference(benchmark::State& state) {
  runSteps(state, sim::engine::builtinScenario("inference_70b").value());
}
BENCHMARK(BM_EngineStep_Inference)->Unit(benchmark::kMicrosecond);

// Re-routing every flow after a link change (happens only when a fault starts or clears).
void BM_EngineCreate_DefaultCampus(benchmark::State& state) {
  const auto desc = sim::engine::builtinScenario("training_405b").value();
  for (auto _ : state) {
    auto e = sim::engine::Engine::create(catalog(), desc);
    benchmark::DoNotOptimize(e.ok());
  }
}
BENCHMARK(BM_EngineCreate_DefaultCampus)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
