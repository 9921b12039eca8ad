// The catalog the program ships (assets/catalog), loaded once per test binary, and short
// accessors that fail the calling test when a figure or entry is missing.
#pragma once

#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "sim/catalog.h"
#include "sim/specs.h"
#include "tests/common/shipped_catalog.h"

namespace simtest {

using testcatalog::shipped;

/// The value of the figure at `path` (NaN, and a test failure, when absent).
inline double figure(const std::string& path) {
  const sim::Quantity* q = shipped().find(path);
  EXPECT_NE(q, nullptr) << path;
  return q ? q->value : std::nan("");
}

inline sim::GpuSpec gpu(const std::string& id) {
  auto g = sim::loadGpu(shipped(), id);
  EXPECT_TRUE(g.ok()) << g.error();
  return g.ok() ? *g : sim::GpuSpec{};
}

inline sim::ModelSpec model(const std::string& id) {
  auto m = sim::loadModel(shipped(), id);
  EXPECT_TRUE(m.ok()) << m.error();
  return m.ok() ? *m : sim::ModelSpec{};
}

}  // namespace simtest
