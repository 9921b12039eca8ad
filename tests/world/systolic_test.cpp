// The TPU's systolic wave (world/live/systolic.h): one front per MXU of the catalog, sweeping the
// array corner to corner, as long as the anti-diagonal it lies on.
#include <cmath>

#include <gtest/gtest.h>

#include "tests/world/world_test_fixture.h"
#include "world/live/systolic.h"

namespace {

TEST(SystolicWave, OneFrontPerCatalogMxu) {
  const world::World& w = worldtest::defaultWorld();
  const world::Station* tpu = w.station("tpu");
  ASSERT_NE(tpu, nullptr);
  const world::SystolicWave wave = world::SystolicWave::build(w.scene(), tpu->path);
  EXPECT_EQ(wave.arrays(), size_t(worldtest::dims().count("tpu_v5e.mxu_count")));
  std::vector<gpu::Instance> out;
  wave.emit(0.25 * world::SystolicWave::PASS_S, glm::dvec3(0.0), out);
  EXPECT_EQ(out.size(), wave.arrays());
  for (const gpu::Instance& bar : out) EXPECT_GT(bar.params.x, 0.5f);  // glowing
}

TEST(SystolicWave, FrontSweepsCornerToCornerAlongTheAntiDiagonal) {
  const double pass = world::SystolicWave::PASS_S;
  EXPECT_DOUBLE_EQ(world::SystolicWave::front(0.0), 0.0);
  EXPECT_DOUBLE_EQ(world::SystolicWave::front(0.5 * pass), 1.0);   // the main anti-diagonal
  EXPECT_DOUBLE_EQ(world::SystolicWave::front(1.25 * pass), 0.5);  // the next pass
  // Inside a unit square the line u + v = f is sqrt(2) min(f, 2 - f) long.
  EXPECT_DOUBLE_EQ(world::SystolicWave::frontLength(0.0), 0.0);
  EXPECT_DOUBLE_EQ(world::SystolicWave::frontLength(0.5), std::sqrt(2.0) * 0.5);
  EXPECT_DOUBLE_EQ(world::SystolicWave::frontLength(1.0), std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(world::SystolicWave::frontLength(1.5), std::sqrt(2.0) * 0.5);
}

}  // namespace
