// Known answers for collectives: nccl-tests busbw conventions (doc/PERFORMANCE.md,
// src/all_reduce.cu) and alpha-beta models (Thakur et al.; JAX scaling book gpus.md).
// Rows refer to ../shared/reference/known_answers.csv.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/calc/collectives.h"

using namespace sim::calc;

TEST(Collectives, KA1_AllReduceBusBwFactorIs1p75At8Ranks) {
  EXPECT_DOUBLE_EQ(busBwFactor(Collective::AllReduce, 8), 1.75);
}

TEST(Collectives, KA3_AllGatherReduceScatterAllToAllFactorIs0p875At8Ranks) {
  EXPECT_DOUBLE_EQ(busBwFactor(Collective::AllGather, 8), 0.875);
  EXPECT_DOUBLE_EQ(busBwFactor(Collective::ReduceScatter, 8), 0.875);
  EXPECT_DOUBLE_EQ(busBwFactor(Collective::AllToAll, 8), 0.875);
  EXPECT_DOUBLE_EQ(busBwFactor(Collective::Broadcast, 8), 1.0);
}

TEST(Collectives, KA4_NvlsFactorIsSevenNinths) {
  EXPECT_NEAR(nvlsAllReduceBusBwFactor(8), 0.7778, 1e-4);
  EXPECT_NEAR(nvlsAllReduceBusBwFactor(8), 7.0 / 9.0, 1e-6);
}

TEST(Collectives, KA5_BusBwFromMeasuredAlgBw) {
  // nccl-tests #212: algbw ~275 GB/s on 8xH100 with NVLS -> busbw ~480 GB/s.
  const double busbw = busBandwidth_Bps(275e9, Collective::AllReduce, 8);
  EXPECT_NEAR(busbw, 481.25e9, 481.25e9 * 0.005);
}

TEST(Collectives, KA7_AlphaBetaRingAllReduce) {
  // S = 1 MiB, n = 8, alpha = 5 us, B = 370 GB/s -> 70.0 + 4.96 = 74.96 us.
  const double t = ringAllReduceTime_s(1048576.0, 8, {5e-6, 370e9});
  EXPECT_NEAR(t, 74.96e-6, 74.96e-6 * 0.001);
}

TEST(Collectives, KA8_RingVersusTreeLatencyTerm) {
  const AlphaBeta link{5e-6, 1e9};
  // Latency terms only (zero bytes): ring 2(p-1) alpha, tree 2 log2(p) alpha.
  EXPECT_NEAR(ringAllReduceTime_s(0.0, 1024, link), 2.0 * 1023 * 5e-6, 1e-15);
  EXPECT_NEAR(ringAllReduceTime_s(0.0, 1024, link), 10.23e-3, 1e-12);
  EXPECT_NEAR(treeAllReduceTime_s(0.0, 1024, link), 100e-6, 1e-15);
}

TEST(Collectives, KA9_IntraNodeAllGatherScalingBook) {
  // bf16[4096, 65536] on 8 x H100 at W = 450 GB/s -> 1.044 ms.
  const double bytes = 4096.0 * 65536.0 * 2.0;
  const double t = ringAllGatherTime_s(bytes, 8, {0.0, 450e9});
  EXPECT_NEAR(t, 1.044e-3, 1.044e-3 * 0.01);
}

TEST(Collectives, ScalingBookSmallAllGatherPrecise) {
  // bf16[1024, 16384] on 8 x H100: 65 us precise (scaling book gpus.md).
  const double t = ringAllGatherTime_s(1024.0 * 16384.0 * 2.0, 8, {0.0, 450e9});
  EXPECT_NEAR(t, 65e-6, 65e-6 * 0.02);
}

TEST(Collectives, AlgBwTimesFactorRoundTripsThroughTime) {
  // Ideal ring time from PERFORMANCE.md: t = (S/B) 2(n-1)/n, so busbw equals B exactly.
  const double bytes = 8e9, link = 450e9;
  const double t = ringAllReduceTime_s(bytes, 8, {0.0, link});
  EXPECT_NEAR(busBandwidth_Bps(algBandwidth_Bps(bytes, t), Collective::AllReduce, 8), link, 1.0);
}

TEST(Collectives, InNetworkReductionBeatsRingByThreeQuartersAt8) {
  // Scaling book: SHARP T = B/W instead of 2B(n-1)/(nW): ~75% more bandwidth at n = 8.
  const AlphaBeta link{0.0, 450e9};
  const double ring = ringAllReduceTime_s(1e9, 8, link);
  const double nvls = inNetworkAllReduceTime_s(1e9, link);
  EXPECT_NEAR(ring / nvls, 1.75, 1e-12);
}

TEST(Collectives, HierarchicalEqualsIntraOnlyOnOneNode) {
  const AlphaBeta nvlink{1e-6, 450e9}, ib{5e-6, 50e9};
  const double bytes = 1e9;
  // One node: RS + AG inside equals the ring all-reduce's cost exactly.
  EXPECT_NEAR(hierarchicalAllReduceTime_s(bytes, 8, 1, nvlink, ib),
              ringAllReduceTime_s(bytes, 8, nvlink), 1e-12);
  // More nodes only add the inter-node stage on S / 8 bytes.
  const double across = ringAllReduceTime_s(bytes / 8, 4, ib);
  EXPECT_NEAR(hierarchicalAllReduceTime_s(bytes, 8, 4, nvlink, ib),
              ringAllReduceTime_s(bytes, 8, nvlink) + across, 1e-12);
}

TEST(Collectives, NamesRoundTrip) {
  for (Collective c : {Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter,
                       Collective::AllToAll, Collective::Broadcast, Collective::Reduce}) {
    EXPECT_EQ(parseCollective(collectiveName(c)), c);
  }
  EXPECT_FALSE(parseCollective("allreduce").has_value());
}
