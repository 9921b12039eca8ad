// The catalog the program ships (assets/catalog), loaded once per test binary: the one way a
// test reads it. A catalog that does not load fails the test that first asks and stops the
// binary: every test on it would fail for the same reason.
#pragma once

#include <cstdlib>

#include <gtest/gtest.h>

#include "sim/catalog.h"

namespace testcatalog {

inline const sim::Catalog& shipped() {
  static const sim::Catalog catalog = [] {
    auto loaded = sim::Catalog::loadDirectory(sim::assetsDir() / "catalog");
    if (!loaded) {
      ADD_FAILURE() << "the shipped catalog: " << loaded.error();
      std::abort();
    }
    return std::move(*loaded);
  }();
  return catalog;
}

}  // namespace testcatalog
