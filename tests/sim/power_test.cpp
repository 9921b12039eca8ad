// Known answers for power, thermal and cooling: Q = m_dot c_p dT, PUE, energy, racks per budget.
// Rows of known_answers.csv and reference section D.
#include <gtest/gtest.h>

#include "sim/calc/power.h"
#include "sim/catalog.h"
#include "sim/specs.h"
#include "tests/sim/shipped_catalog.h"

using namespace sim;
using namespace sim::calc;

namespace {

using simtest::shipped;

}  // namespace

TEST(Power, KA47_CoolantFlowPerKilowatt) {
  const double mdot = coolantMassFlow_kg_per_s(1000.0, 4186.0, 10.0);
  EXPECT_NEAR(mdot, 0.02389, 0.02389 * 0.005);
  EXPECT_NEAR(volumetricFlow_L_per_min(mdot, 1000.0), 1.433, 1.433 * 0.005);
  EXPECT_NEAR(volumetricFlow_L_per_min(mdot, 997.0), 1.438, 1.438 * 0.005);
  // OCP design rule 1.5 L/min/kW is the rounded-up figure.
  EXPECT_LT(volumetricFlow_L_per_min(mdot, 997.0), 1.5);
}

TEST(Power, CoolantFlowFromCatalogFacility) {
  auto f = loadFacility(shipped(), "default");
  ASSERT_TRUE(f.ok()) << f.error();
  const double mdot =
      coolantMassFlow_kg_per_s(1000.0, f->coolantSpecificHeat_J_per_kg_K, f->coolantDeltaT_K);
  EXPECT_NEAR(volumetricFlow_L_per_min(mdot, f->coolantDensity_kg_per_m3), 1.438, 0.005);
  // Reference D: NVL72 at 132 kW needs ~190 L/min at dT 10 K and ~95 at 20 K.
  EXPECT_NEAR(volumetricFlow_L_per_min(coolantMassFlow_kg_per_s(132e3, 4186, 10), 1000), 190, 1);
  EXPECT_NEAR(volumetricFlow_L_per_min(coolantMassFlow_kg_per_s(132e3, 4186, 20), 1000), 95, 0.5);
  EXPECT_NEAR(coolantTemperatureRise_K(1000.0, mdot, f->coolantSpecificHeat_J_per_kg_K),
              f->coolantDeltaT_K, 1e-12);
}

TEST(Power, KA50_Llama405BEnergy) {
  const double hours = shipped().find("models.llama3_1_405b.training_gpu_hours")->value;
  auto h100 = loadGpu(shipped(), "h100_sxm");
  ASSERT_TRUE(h100.ok());
  const double kWh = joulesToKWh(energy_J(h100->tdp_W, hours * 3600.0));
  EXPECT_NEAR(kWh / 1e6, 21.59, 21.59 * 0.001);  // GWh
}

TEST(Power, PueAndFacilityPower) {
  EXPECT_DOUBLE_EQ(facilityPower_W(1e6, 1.2), 1.2e6);
  EXPECT_NEAR(facilityOverhead_W(1e6, 1.2), 0.2e6, 1e-6);
}

TEST(Power, RacksInA100MWCampus) {
  // Reference D: 100 MW at PUE 1.2 -> 83.3 MW IT -> ~631 NVL72 racks at 132 kW.
  EXPECT_EQ(racksWithinBudget(100e6, 132e3, 1.2), 631.0);
  auto nvl72 = loadSystem(shipped(), "gb200_nvl72");
  ASSERT_TRUE(nvl72.ok());
  EXPECT_EQ(racksWithinBudget(100e6, rackPower_W(1, nvl72->maxPower_W, 0), 1.2) * nvl72->gpus,
            631.0 * 72);
}

TEST(Power, SeedFigureNvl72Is130kWClass) {
  auto nvl72 = loadSystem(shipped(), "gb200_nvl72");
  auto gb200 = loadGpu(shipped(), "gb200");
  ASSERT_TRUE(nvl72.ok() && gb200.ok());
  const double rack = rackPower_W(1, nvl72->maxPower_W, 0);
  // Between the OCP 120 kW capacity and the SuperPOD SU budget of 1.2 MW / 8 = 150 kW.
  const double ocp = shipped().find("systems.gb200_nvl72.ocp_power_capacity_W")->value;
  const double suShare = shipped().find("systems.gb200_nvl72.su_power_W")->value /
                         shipped().find("systems.gb200_nvl72.su_racks")->value;
  EXPECT_DOUBLE_EQ(suShare, 150e3);
  EXPECT_GE(rack, ocp);
  EXPECT_LE(rack, suShare);
  EXPECT_NEAR(rack / 1e3, 130.0, 10.0);
  // The GPUs alone draw 72 x 1.2 kW = 86.4 kW of it.
  EXPECT_DOUBLE_EQ(devicesPower_W(nvl72->gpus, 0, gb200->tdp_W, 1.0), 86.4e3);
  EXPECT_LT(devicesPower_W(nvl72->gpus, 0, gb200->tdp_W, 1.0), rack);
}

TEST(Power, DgxH100ScalableUnitPower) {
  // Reference D: 32 DGX H100 x 10.2 kW = 326 kW.
  auto dgx = loadSystem(shipped(), "dgx_h100");
  ASSERT_TRUE(dgx.ok());
  EXPECT_NEAR(rackPower_W(32, dgx->maxPower_W, 0), 326.4e3, 1.0);
}

TEST(Power, JunctionTemperatureAndUtilisation) {
  EXPECT_DOUBLE_EQ(junctionTemperature_C(25.0, 700.0, 0.05), 60.0);
  EXPECT_DOUBLE_EQ(devicesPower_W(8, 100, 700, 0.5), 8 * 400.0);
  EXPECT_DOUBLE_EQ(joulesToKWh(3.6e6), 1.0);
}

TEST(Power, NodePowerFollowsTheGpusBusyShare) {
  // 8 H100 between 88 W idle and 700 W, the rest of a 10.2 kW node at 70 % of what its rating
  // leaves beside the GPUs (10,200 - 8 x 700 = 4,600 W).
  EXPECT_DOUBLE_EQ(nodePower_W(8, 88, 700, 1.0, 10200, 0.7), 8 * 700 + 0.7 * 4600);
  EXPECT_DOUBLE_EQ(nodePower_W(8, 88, 700, 0.0, 10200, 0.7), 8 * 88 + 0.7 * 4600);
  EXPECT_DOUBLE_EQ(nodePower_W(8, 88, 700, 0.5, 10200, 0.7), 8 * (88 + 0.5 * 612) + 0.7 * 4600);
  // A rating below the GPUs' TDP leaves nothing for the rest.
  EXPECT_DOUBLE_EQ(nodePower_W(8, 88, 700, 1.0, 5000, 0.7), 8 * 700);
}
