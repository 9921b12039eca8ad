// Power, heat and PUE over time: energy in equals heat out at steady state, the loop follows
// Q = m c_p dT, and PUE rises at part load.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/calc/power.h"
#include "sim/engine/thermal.h"
#include "tests/sim/engine_test_util.h"

using namespace sim::engine;

TEST(EngineThermal, LoopSettlesAtTheHeatBalance) {
  // One loop, constant 1 MW: T -> T_supply + Q / (m c_p) with time constant M / m.
  const CoolingLoop loop{.mass_kg = 1000,
                         .specificHeat_J_per_kg_K = 4186,
                         .designFlow_kg_per_s = 1e6 / (4186 * 10),
                         .supply_C = 25};
  double t = 25;
  const double tau = loop.mass_kg / loop.designFlow_kg_per_s;
  for (int i = 0; i < int(tau / 0.01); ++i) t = loopTemperatureAfter_C(loop, t, 1e6, 1.0, 0.01);
  EXPECT_NEAR(t, 25 + 10 * (1 - std::exp(-1.0)), 1e-3);  // one time constant: 63 % of the rise
  for (int i = 0; i < int(20 * tau / 0.01); ++i)
    t = loopTemperatureAfter_C(loop, t, 1e6, 1.0, 0.01);
  EXPECT_NEAR(t, 35.0, 1e-6);
  // No flow: the loop integrates the heat, dT/dt = Q / (M c_p).
  EXPECT_NEAR(loopTemperatureAfter_C(loop, 35, 1e6, 0.0, 1.0), 35 + 1e6 / (1000 * 4186.0), 1e-9);
  // Throttle: full clock while the junction stays under the limit, then just enough to hold it.
  EXPECT_EQ(throttleFactor(30, 1200, 0.05, 92, 0.3), 1.0);
  EXPECT_NEAR(throttleFactor(50, 1200, 0.05, 92, 0.3), (92 - 50) / (1200 * 0.05), 1e-12);
  EXPECT_EQ(throttleFactor(90, 1200, 0.05, 92, 0.3), 0.3);
}

TEST(EngineThermal, EnergyInEqualsHeatOutAtSteadyState) {
  EngineDesc d;
  d.dt_s = 0.05;
  auto e = enginetest::make(d);
  ASSERT_TRUE(e);
  // Warm up for > 10 loop time constants (M / m = 1000 kg / ~25 kg/s = 40 s), then measure over
  // whole training steps so the periodic power swing averages out.
  e->advanceTo(600);
  const uint64_t start = e->completedSteps();
  enginetest::runTrainingSteps(*e, 1);
  const double in0 = e->itEnergy_J(), out0 = e->heatRemoved_J();
  enginetest::runTrainingSteps(*e, 10);
  ASSERT_EQ(e->completedSteps(), start + 11);
  const double in = e->itEnergy_J() - in0, out = e->heatRemoved_J() - out0;
  ASSERT_GT(in, 0);
  EXPECT_NEAR(out, in, 0.01 * in);
  // And the mean heat rate is what the racks drew: tens of MW for 228 racks.
  const double seconds = 10 * e->lastStepTime_s();
  EXPECT_GT(in / seconds, 0.3 * 228 * e->cluster().rackMaxPower_W);
  EXPECT_LT(in / seconds, 228 * e->cluster().rackMaxPower_W);
}

TEST(EngineThermal, PueRisesAtPartLoadAndFacilityPowerFollowsIt) {
  auto e = enginetest::makeBuiltin("training_405b");
  ASSERT_TRUE(e);
  double bestPue = 1e9, worstPue = 0;
  Aggregates atBest{}, atWorst{};
  while (e->completedSteps() < 2) {
    e->step();
    const Aggregates a = e->snapshot().aggregates;
    EXPECT_NEAR(a.facility_W, a.campusIt_W * a.pue, 1e-6 * a.facility_W);
    if (a.pue < bestPue) bestPue = a.pue, atBest = a;
    if (a.pue > worstPue) worstPue = a.pue, atWorst = a;
  }
  EXPECT_GT(atBest.campusIt_W, atWorst.campusIt_W);  // the best PUE is at the highest load
  EXPECT_GT(worstPue, bestPue + 0.02);
  // At the design load (every campus rack at its maximum) PUE is the catalog's design PUE.
  const Cluster& c = e->cluster();
  const double design = c.campusRacks * c.rackMaxPower_W;
  const double overhead = facilityOverheadAt_W(design, design, c.specs.facility.pue,
                                               e->figures().facilityFixedOverheadFraction);
  EXPECT_NEAR((design + overhead) / design, c.specs.facility.pue, 1e-12);
  // The campus: mirrored racks draw what the modelled fabric's average rack draws.
  EXPECT_NEAR(atBest.campusIt_W, atBest.fabricIt_W * 631.0 / 228.0, 1e-6 * atBest.campusIt_W);
  EXPECT_LT(atBest.facility_W, c.facilityBudget_W);
}

TEST(EngineThermal, JunctionSitsOnItsColdPlatesMeanCoolant) {
  auto e = enginetest::makeBuiltin("training_405b");
  ASSERT_TRUE(e);
  e->advanceTo(2.0);
  const Snapshot s = e->snapshot();
  const Cluster& c = e->cluster();
  const double r = c.specs.facility.junctionToCoolant_K_per_W;
  const double supply_C = c.specs.facility.coolantSupply_C;
  for (uint32_t g : {0u, 100u, 5000u, 16415u}) {
    // The plate's coolant enters at the supply temperature and leaves at gpuColdPlate_C.
    const double mean_C = 0.5 * (supply_C + s.gpuColdPlate_C[g]);
    EXPECT_NEAR(s.gpuJunction_C[g], mean_C + s.gpuPower_W[g] * r, 1e-3);
  }
  // Spare GPUs (the last rack's 32 beyond the job's 16,384) idle.
  EXPECT_NEAR(s.gpuPower_W[16415], e->figures().gpuIdleFraction * c.specs.gpu.tdp_W, 1e-3);
}

TEST(EngineThermal, AColdPlateFollowsItsFlowWithinSeconds) {
  // An idle GPU draws constant power, so its plate obeys M c dT/dt = P - f m c (T - T_supply)
  // exactly: at design flow it sits at T_supply + P / (m c); once its CDU's pump trips to the
  // fraction f it heads for T_supply + P / (f m c) with time constant M / (f m). The plate's
  // design flow m is its share of the CDU's: the GPU's TDP at the design coolant rise.
  sim::engine::EngineDesc d = *sim::engine::builtinScenario("training_405b");
  auto probe = enginetest::make(d);
  ASSERT_TRUE(probe);
  const Cluster& pc = probe->cluster();
  const uint32_t spare = pc.gpuCount() - 1;  // beyond the job's 16,384 GPUs: idle all along
  const uint32_t cdu = pc.rackCdu[pc.gpus[spare].rack.index];
  const double dt = d.dt_s, tripAt = 10.05;  // between two steps: the first tripped starts at 10.1
  d.faults = {{.kind = FaultKind::PumpTrip, .start_s = tripAt, .end_s = 600, .target = cdu}};
  auto e = enginetest::make(d);
  ASSERT_TRUE(e);
  const Cluster& c = e->cluster();
  const auto& fac = c.specs.facility;
  const double idle_W = e->figures().gpuIdleFraction * c.specs.gpu.tdp_W;
  const double flow =
      c.specs.gpu.tdp_W / (fac.coolantSpecificHeat_J_per_kg_K * fac.coolantDeltaT_K);
  const double f = e->figures().pumpTripRemainingFlowFraction;
  const double mass = e->figures().coldPlateCoolantMass_kg;
  const double design_K = idle_W / (flow * fac.coolantSpecificHeat_J_per_kg_K);
  e->advanceTo(tripAt);
  EXPECT_NEAR(e->snapshot().gpuColdPlate_C[spare], fac.coolantSupply_C + design_K, 1e-3);
  const double tau = mass / (f * flow);
  ASSERT_LT(tau, 30.0) << "a plate of 50 mL turns over in seconds, even at a tripped pump's flow";
  e->advanceTo(tripAt + 2 * tau);
  const double tripped_s = e->snapshot().time_s - (std::ceil(tripAt / dt) * dt);
  const double expected_K = design_K / f + (design_K - design_K / f) * std::exp(-tripped_s / tau);
  EXPECT_NEAR(e->snapshot().gpuColdPlate_C[spare], fac.coolantSupply_C + expected_K, 2e-3);
}

TEST(EngineThermal, BeforeTheFirstStepEveryJunctionSitsAtTheCoolantSupply) {
  // Nothing has drawn power yet: a junction is at its loop's temperature, the catalog's supply
  // temperature (not 0 degrees C, which the heat map used to show at t = 0).
  auto e = enginetest::makeBuiltin("training_405b");
  ASSERT_TRUE(e);
  const double supply_C = e->cluster().specs.facility.coolantSupply_C;
  ASSERT_GT(supply_C, 10.0);
  const Snapshot s = e->snapshot();
  ASSERT_FALSE(s.gpuJunction_C.empty());
  for (float junction_C : s.gpuJunction_C) ASSERT_FLOAT_EQ(junction_C, float(supply_C));
}
