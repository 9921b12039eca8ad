// Shared helpers of the engine tests: the shipped catalog, and an engine built from a desc.
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "sim/catalog.h"
#include "sim/engine/engine.h"
#include "sim/engine/scenarios.h"
#include "tests/common/shipped_catalog.h"

namespace enginetest {

inline const sim::Catalog& catalog() {
  return testcatalog::shipped();
}

inline std::unique_ptr<sim::engine::Engine> make(const sim::engine::EngineDesc& desc) {
  auto e = sim::engine::Engine::create(catalog(), desc);
  EXPECT_TRUE(e.ok()) << e.error();
  return e.ok() ? std::move(e.value()) : nullptr;
}

inline std::unique_ptr<sim::engine::Engine> makeBuiltin(const char* name) {
  auto d = sim::engine::builtinScenario(name);
  EXPECT_TRUE(d.ok()) << d.error();
  return d.ok() ? make(d.value()) : nullptr;
}

/// Steps until `n` more training steps have completed (or `limit_s` of simulated time passes).
inline void runTrainingSteps(sim::engine::Engine& e, uint64_t n, double limit_s = 1e4) {
  const uint64_t target = e.completedSteps() + n;
  const double end = e.time_s() + limit_s;
  while (e.completedSteps() < target && e.time_s() < end) e.step();
}

}  // namespace enginetest
