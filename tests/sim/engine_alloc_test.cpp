// step() allocates nothing: every per-step array is sized when the engine is created. Counted
// by replacing the global allocation functions for this test binary (malloc-backed, so every
// other test is unaffected).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "tests/sim/engine_test_util.h"

namespace {
std::atomic<uint64_t> g_allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
// The nothrow forms too (std::stable_sort's buffer): replacing only some would pair this file's
// malloc with the sanitizer's own operator delete (alloc-dealloc-mismatch under ASan).
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  ++g_allocations;
  return std::malloc(size ? size : 1);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}

using namespace sim::engine;

TEST(EngineAllocation, StepAllocatesNothing) {
  // The counter itself must see an allocation.
  const uint64_t probe = g_allocations.load();
  auto* v = new std::vector<int>(10);
  delete v;
  ASSERT_GE(g_allocations.load() - probe, 2u);
  for (const std::string& name : builtinScenarioNames()) {
    auto e = enginetest::makeBuiltin(name.c_str());
    ASSERT_TRUE(e);
    // Run through every phase and, in the fault scenarios, the fault's start (re-routing).
    const uint64_t before = g_allocations.load();
    for (int i = 0; i < 1300; ++i) e->step();
    EXPECT_EQ(g_allocations.load() - before, 0u) << name;
  }
}
