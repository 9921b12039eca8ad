// Known answers for compute: roofline ridge, tensor peak from the microarchitecture, training
// FLOPs, arithmetic intensity (JAX scaling book), Xeon AMX peak. Rows of known_answers.csv.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/calc/compute.h"
#include "sim/catalog.h"
#include "sim/model_params.h"
#include "sim/specs.h"
#include "tests/sim/shipped_catalog.h"

using namespace sim;
using namespace sim::calc;

namespace {

using simtest::figure;
using simtest::shipped;

}  // namespace

TEST(Compute, KA24_H100RidgePoint) {
  auto h100 = loadGpu(shipped(), "h100_sxm");
  ASSERT_TRUE(h100.ok()) << h100.error();
  EXPECT_NEAR(ridgePoint(denseFlops(*h100, Precision::BF16), h100->hbmBandwidth_Bps), 295.3,
              295.3 * 0.001);
  EXPECT_NEAR(ridgePoint(denseFlops(*h100, Precision::FP8), h100->hbmBandwidth_Bps), 590.7,
              590.7 * 0.001);
}

TEST(Compute, RidgePointsOfOtherAccelerators) {
  // Reference: H200 206.1, B200 281.25, MI300X 246.7, TPU v5e 240 (scaling book, 8.2e11 B/s).
  auto ridge = [](const char* id) {
    auto g = loadGpu(shipped(), id);
    EXPECT_TRUE(g.ok()) << id;
    return g.ok() ? ridgePoint(g->denseBf16_flops, g->hbmBandwidth_Bps) : 0.0;
  };
  EXPECT_NEAR(ridge("h200"), 206.1, 0.1);
  EXPECT_NEAR(ridge("b200"), 281.25, 0.01);
  EXPECT_NEAR(ridge("mi300x"), 246.7, 0.1);
  EXPECT_NEAR(ridge("tpu_v5e"), 240.0, 1.0);
}

TEST(Compute, KA26_H100Bf16FromMicroarchitecture) {
  const double peak = peakFromMicroarchitecture(
      figure("gpus.h100_sxm.sm_count"), figure("gpus.h100_sxm.tensor_flops_per_cycle_per_sm_bf16"),
      figure("gpus.h100_sxm.tensor_clock_Hz"));
  EXPECT_NEAR(peak, 989.4e12, 989.4e12 * 0.001);
  // The same 132 x 4,096 x 1.83 GHz computed here by hand.
  EXPECT_NEAR(peak, 132.0 * 4096.0 * 1.83e9, 1.0);
}

TEST(Compute, KA40_Llama405BTrainingFlops) {
  auto m = loadModel(shipped(), "llama3_1_405b");
  ASSERT_TRUE(m.ok()) << m.error();
  const double flops = trainingFlops(paramCount(*m), m->trainingTokens, false);
  EXPECT_NEAR(flops, 3.79e25, 3.79e25 * 0.01);
  EXPECT_NEAR(flops, 3.8e25, 3.8e25 * 0.01);  // the paper's figure
  EXPECT_DOUBLE_EQ(trainingFlops(1.0, 1.0, true), 8.0);
}

TEST(Compute, KA45_ArithmeticIntensity70BMlpShape) {
  EXPECT_NEAR(gemmIntensity(1, 8192, 28672, 2.0), 0.9998, 0.9998 * 0.001);
  EXPECT_NEAR(gemmIntensity(4096, 8192, 28672, 2.0), 2493.2, 2493.2 * 0.001);
  auto h100 = loadGpu(shipped(), "h100_sxm");
  ASSERT_TRUE(h100.ok());
  const double ridge = ridgePoint(h100->denseBf16_flops, h100->hbmBandwidth_Bps);
  EXPECT_NEAR(criticalTokens(8192, 28672, 2.0, ridge), 309.7, 309.7 * 0.001);
  // At the critical batch the intensity equals the ridge.
  EXPECT_NEAR(gemmIntensity(criticalTokens(8192, 28672, 2.0, ridge), 8192, 28672, 2.0), ridge,
              1e-6);
  EXPECT_TRUE(std::isinf(criticalTokens(8192, 28672, 2.0, 1e9)));
}

TEST(Compute, Roofline) {
  EXPECT_DOUBLE_EQ(attainableFlops(10, 1e15, 1e12), 1e13);
  EXPECT_DOUBLE_EQ(attainableFlops(1e4, 1e15, 1e12), 1e15);
  EXPECT_DOUBLE_EQ(rooflineTime_s(2e12, 1e9, 1e15, 1e12), 2e-3);
}

TEST(Compute, KA54_XeonAmxPeakAndTiles) {
  const double tileBytes =
      figure("cpus.xeon_8480.amx_tile_rows") * figure("cpus.xeon_8480.amx_tile_row_bytes");
  EXPECT_EQ(tileBytes, 1024.0);
  EXPECT_EQ(tileBytes * figure("cpus.xeon_8480.amx_tiles"), 8.0 * 1024.0);
  const double peak = peakFromMicroarchitecture(
      figure("cpus.xeon_8480.cores"), figure("cpus.xeon_8480.amx_bf16_ops_per_cycle_per_core"),
      figure("cpus.xeon_8480.amx_clock_Hz"));
  EXPECT_NEAR(peak, 114.69e12, 0.01e12);
}

TEST(Compute, DenseFlopsFallsBackToWiderFormats) {
  auto tpu = loadGpu(shipped(), "tpu_v5e");
  auto h100 = loadGpu(shipped(), "h100_sxm");
  ASSERT_TRUE(tpu.ok() && h100.ok());
  EXPECT_EQ(denseFlops(*tpu, Precision::FP8), tpu->denseBf16_flops);
  EXPECT_EQ(denseFlops(*tpu, Precision::INT8), tpu->denseInt8_ops);
  EXPECT_EQ(denseFlops(*h100, Precision::FP4), h100->denseFp8_flops);
  EXPECT_NEAR(denseFlops(*h100, Precision::FP32), figure("gpus.h100_sxm.dense_tf32_flops"), 1e9);
}
