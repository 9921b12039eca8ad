// Cost calculators: cloud $/GPU-hour (row 52 of known_answers.csv), amortisation and energy
// examples of reference section E, and the structure of the TCO model.
#include <gtest/gtest.h>

#include "sim/calc/cost.h"
#include "sim/catalog.h"
#include "tests/sim/shipped_catalog.h"

using namespace sim;
using namespace sim::calc;

namespace {

using simtest::shipped;

double figure(const std::string& path) {
  const Quantity* q = shipped().find(path);
  EXPECT_NE(q, nullptr) << path;
  return q ? q->value : 0.0;
}

}  // namespace

TEST(Cost, KA52_CloudPricePerGpuHour) {
  EXPECT_NEAR(cloudPricePerGpuHour_usd(figure("clouds.aws_p5_48xlarge.instance_per_hour_usd"),
                                       figure("clouds.aws_p5_48xlarge.gpus")),
              12.29, 0.005);
  EXPECT_NEAR(cloudPricePerGpuHour_usd(figure("clouds.aws_p5_capacity_block.instance_per_hour_usd"),
                                       figure("clouds.aws_p5_capacity_block.gpus")),
              4.916, 0.0005);
}

TEST(Cost, H100EnergyPerGpuYear) {
  // Reference E: 700 W x 8,760 h = 6,132 kWh -> $491 at $0.08/kWh, $638 at PUE 1.3.
  EXPECT_NEAR(yearlyEnergy_kWh(700, 1.0), 6132.0, 1e-9);
  EXPECT_NEAR(energyCost_usd(yearlyEnergy_kWh(700, 1.0), 0.08), 490.56, 0.01);
  EXPECT_NEAR(energyCost_usd(yearlyEnergy_kWh(700, 1.3), 0.08), 637.7, 0.1);
}

TEST(Cost, GpuCapexPerHour) {
  // Reference E: $30k over 3 years -> $1.14 per GPU-hour.
  EXPECT_NEAR(amortizedPerHour_usd(30000, 3), 1.14, 0.005);
}

TEST(Cost, TcoAddsAmortisedCapexAndEnergy) {
  const TcoDesc desc{.gpus = 8,
                     .gpuCapex_usd = 30000,
                     .networkFractionOfCapex = 0.2,
                     .itPower_W = 10000,
                     .facilityCapex_usd_per_W = 10,
                     .pue = 1.25,
                     .electricity_usd_per_kWh = 0.1,
                     .serverAmortization_years = 4,
                     .facilityAmortization_years = 10,
                     .utilization = 0.5};
  const TcoResult r = computeTco(desc);
  // Network is 20% of IT capex: 240k of GPUs -> 60k network, 300k in all.
  EXPECT_DOUBLE_EQ(r.networkCapex_usd, 60000);
  EXPECT_DOUBLE_EQ(r.itCapex_usd, 300000);
  EXPECT_DOUBLE_EQ(r.facilityCapex_usd, 100000);
  EXPECT_DOUBLE_EQ(r.capexPerYear_usd, 75000 + 10000);
  EXPECT_DOUBLE_EQ(r.energyPerYear_kWh, 10.0 * 1.25 * 8760);
  EXPECT_DOUBLE_EQ(r.energyPerYear_usd, 10.0 * 1.25 * 8760 * 0.1);
  EXPECT_DOUBLE_EQ(r.totalPerYear_usd, 85000 + 10950);
  EXPECT_DOUBLE_EQ(r.perGpuHour_usd, (85000 + 10950) / (8 * 8760 * 0.5));
}

TEST(Cost, PerMillionTokensAndComparison) {
  // $2/h at 1,000 tokens/s -> 3.6M tokens per hour -> $0.5556 per million.
  EXPECT_NEAR(costPerMillionTokens_usd(2.0, 1000.0), 2.0 / 3.6, 1e-12);
  const ComparisonRow row = compareRow("x", 2.0, 1000.0, 1000.0);
  EXPECT_EQ(row.gpuId, "x");
  EXPECT_NEAR(row.perMillionTokens_usd, 2.0 / 3.6, 1e-12);
  EXPECT_DOUBLE_EQ(row.tokensPerJoule, 1.0);
}
