// The pixel race and the coolant temperatures along a rack's loop, now formulas of sim/.
#include <gtest/gtest.h>

#include "sim/engine/snapshot.h"
#include "sim/pixel_race.h"
#include "tests/sim/engine_test_util.h"

// Xeon Platinum 8480+: 56 cores at 2.0 GHz base, two AVX-512 FMA units = 32 FP32 lanes a core
// (Intel ARK); H100 SXM5: 132 SMs x 128 FP32 lanes at 1.98 GHz boost (NVIDIA H100 whitepaper).
TEST(PixelRace, FourKFrameOnSapphireRapidsAndH100) {
  auto race = sim::pixelRace(enginetest::catalog(), "xeon_8480", "h100_sxm", 3840, 2160);
  ASSERT_TRUE(race.ok()) << race.error();
  const double pixels = 3840.0 * 2160.0;
  const double cpu_s = pixels / (56.0 * 32.0 * 2.0e9);
  const double gpu_s = pixels / (132.0 * 128.0 * 1.98e9);
  EXPECT_DOUBLE_EQ(race->values.at("pixels"), pixels);
  EXPECT_NEAR(race->values.at("cpu_frame_s"), cpu_s, cpu_s * 1e-12);
  EXPECT_NEAR(race->values.at("gpu_frame_s"), gpu_s, gpu_s * 1e-12);
  EXPECT_NEAR(race->values.at("gpu_speedup"), cpu_s / gpu_s, 1e-9);
  EXPECT_EQ(race->provenance.at("gpu_frame_s").first, sim::Basis::Derived);
  EXPECT_FALSE(race->provenance.at("cpu_frame_s").second.empty());
}

TEST(PixelRace, MissingFigureOrEmptyFrameIsRefusedNamingIt) {
  auto noCpu = sim::pixelRace(enginetest::catalog(), "no_such_cpu", "h100_sxm", 3840, 2160);
  ASSERT_FALSE(noCpu.ok());
  EXPECT_NE(noCpu.error().find("cpus.no_such_cpu.cores"), std::string::npos) << noCpu.error();
  EXPECT_FALSE(sim::pixelRace(enginetest::catalog(), "xeon_8480", "h100_sxm", 0, 2160).ok());
}

// The loop's four temperatures from the engine's own state, computed here from the snapshot's
// arrays: the rack outlet mixes its GPUs' cold-plate outlets (their TDPs' share of the rack's
// flow) with the rest of its cold plates (the other share, carrying the rest of its heat at the
// design rise); the facility water leaves warmer by the flow share times the loop's rise.
TEST(RackCoolant, FollowsTheColdPlatesAndTheLoopTemperature) {
  auto e = enginetest::makeBuiltin("training_405b");
  ASSERT_TRUE(e);
  e->advanceTo(30.0);
  const sim::engine::Snapshot s = e->snapshot();
  const sim::engine::Cluster& c = *s.cluster;
  ASSERT_GT(c.racks, 0u);
  const sim::engine::RackCoolant rc = sim::engine::rackCoolant(s, 0);
  const double supply = c.specs.facility.coolantSupply_C;
  const double loop = s.cduLoop_C[c.rackCdu[0]];
  double plateRise = 0, gpus_W = 0;
  for (uint32_t g = 0; g < c.gpusPerRack; ++g)
    plateRise += s.gpuColdPlate_C[g] - supply, gpus_W += s.gpuPower_W[g];
  const double gpuFlow = c.gpusPerRack * c.specs.gpu.tdp_W, rackFlow = c.rackMaxPower_W;  // x c dT
  const double otherRise =
      (s.rackPower_W[0] - gpus_W) * c.specs.facility.coolantDeltaT_K / (rackFlow - gpuFlow);
  const double outlet =
      supply + (gpuFlow * plateRise / c.gpusPerRack + (rackFlow - gpuFlow) * otherRise) / rackFlow;
  EXPECT_GT(loop, supply);  // a working rack warms its loop
  EXPECT_DOUBLE_EQ(rc.supply_C, supply);
  EXPECT_DOUBLE_EQ(rc.loopReturn_C, loop);
  EXPECT_NEAR(rc.rackOutlet_C, outlet, 1e-6);
  EXPECT_GT(rc.rackOutlet_C, supply);
  EXPECT_NEAR(rc.facilityReturn_C, supply + s.cduFlowFraction[c.rackCdu[0]] * (loop - supply),
              1e-9);
  // A rack the engine does not model reads as still water at the supply temperature.
  const sim::engine::RackCoolant none = sim::engine::rackCoolant(s, c.racks);
  EXPECT_DOUBLE_EQ(none.rackOutlet_C, supply);
  EXPECT_DOUBLE_EQ(none.rackHeat_W, 0.0);
}
