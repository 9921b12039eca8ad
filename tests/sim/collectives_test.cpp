// Known answers for collectives: nccl-tests busbw conventions (doc/PERFORMANCE.md,
// src/all_reduce.cu) and alpha-beta models (Thakur et al.; JAX scaling book gpus.md).
// Rows refer to ../shared/reference/known_answers.csv.
#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>

#include "sim/calc/collectives.h"
#include "tests/sim/shipped_catalog.h"

using namespace sim::calc;
using sim::CollectiveSpec;

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
  // More nodes add the inter-node all-reduce of S / 8 bytes, pipelined with the intra phases:
  // the slower of NVLink (2 x 7/8 x 1 GB / 450 GB/s) and the NICs (2 x 3/4 x 125 MB / 50 GB/s)
  // sets the pace; every phase's latency adds (2 x 7 x 1 us inside, 2 x 3 x 5 us across).
  const double inside = 2.0 * 7.0 / 8.0 * bytes / 450e9;
  const double across = 2.0 * 3.0 / 4.0 * bytes / 8 / 50e9;
  EXPECT_NEAR(hierarchicalAllReduceTime_s(bytes, 8, 4, nvlink, ib),
              std::max(inside, across) + 14e-6 + 30e-6, 1e-12);
}

TEST(Collectives, NamesRoundTrip) {
  for (Collective c : {Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter,
                       Collective::AllToAll, Collective::Broadcast, Collective::Reduce}) {
    EXPECT_EQ(parseCollective(collectiveName(c)), c);
  }
  EXPECT_FALSE(parseCollective("allreduce").has_value());
}

namespace {

// The catalog's collective model (measured shares and NCCL's latency constants) for a DGX H100's
// third-generation NVSwitch.
CollectiveSpec model() {
  auto m = sim::loadCollectives(simtest::shipped(), "nvswitch_gen3");
  EXPECT_TRUE(m.ok()) << m.error();
  return m.ok() ? *m : CollectiveSpec{};
}

CollectiveTopology dgxH100(int ranks) {
  return {.ranks = ranks,
          .ranksPerNode = 8,
          .scaleUp_Bps = 450e9,
          .nodeEgress_Bps = 8 * 50e9,
          .scaleUpReduces = true,
          .fabricReduces = true};
}

}  // namespace

TEST(NcclModel, LargeRingBusBandwidthIsTheMeasuredShareOfTheLink) {
  // Simple ring, 8 GiB on 8 GPUs: latency is negligible, busbw = 450 GB/s x the ring share.
  const CollectiveSpec m = model();
  const CollectiveTime t =
      ncclCollective(Collective::AllReduce, 8.0 * (1ull << 30), dgxH100(8), m, Algorithm::Ring);
  EXPECT_EQ(t.protocol, Protocol::Simple);
  EXPECT_NEAR(t.busBandwidth_Bps, 450e9 * m.ringFraction, 0.001 * 450e9);
  // busbw = algbw x 2(n-1)/n (nccl-tests).
  EXPECT_NEAR(t.busBandwidth_Bps, t.algBandwidth_Bps * 1.75, 1.0);
}

TEST(NcclModel, ProtocolAndAlgorithmFollowTheMessageSize) {
  const CollectiveSpec m = model();
  const CollectiveTopology node = dgxH100(8);
  // 8 bytes: latency-bound, the LL ring (6.6 us + 14 x 0.6 us).
  const CollectiveTime tiny = ncclCollective(Collective::AllReduce, 8, node, m);
  EXPECT_EQ(tiny.algorithm, Algorithm::Ring);
  EXPECT_EQ(tiny.protocol, Protocol::LL);
  EXPECT_NEAR(tiny.latency_s, m.baseLl_s + 14 * m.hopScaleUpLl_s, 1e-15);
  // 8 GiB on an NVSwitch node: NVLS, one pass through the switch.
  const CollectiveTime big = ncclCollective(Collective::AllReduce, 8.0 * (1ull << 30), node, m);
  EXPECT_EQ(big.algorithm, Algorithm::Nvls);
  EXPECT_NEAR(big.latency_s, m.nvls_s + 7 * m.nvlsRank_s, 1e-15);
  EXPECT_NEAR(8.0 * (1ull << 30) / (big.time_s - big.latency_s), 450e9 * m.nvlsFraction,
              0.001 * 450e9);
  // Without an in-network switch NVLS is not an option.
  CollectiveTopology a100 = node;
  a100.scaleUpReduces = false;
  EXPECT_FALSE(algorithmApplies(Algorithm::Nvls, Collective::AllReduce, a100));
  EXPECT_EQ(ncclCollective(Collective::AllReduce, 8.0 * (1ull << 30), a100, m).algorithm,
            Algorithm::Ring);
}

TEST(NcclModel, AcrossNodesTheNicsBoundTheBandwidthAndTreesCutTheLatency) {
  const CollectiveSpec m = model();
  // 1,024 GPUs on 128 nodes: a flat ring would pay 2 x 1,023 steps of latency.
  CollectiveTopology big = dgxH100(1024);
  big.fabricReduces = false;
  const CollectiveTime ring =
      ncclCollective(Collective::AllReduce, 1 << 20, big, m, Algorithm::Ring);
  const CollectiveTime tree =
      ncclCollective(Collective::AllReduce, 1 << 20, big, m, Algorithm::Tree);
  EXPECT_GT(ring.latency_s, 10 * tree.latency_s);
  // At 8 GiB the ring is bound by the node's NICs: its bandwidth term runs at
  // min(NVLink, 8 NICs) x the measured shares (busbw as nccl-tests counts it).
  const double bytes = 8.0 * (1ull << 30);
  const CollectiveTime bigRing =
      ncclCollective(Collective::AllReduce, bytes, big, m, Algorithm::Ring);
  const double share = bigRing.protocol == Protocol::LL128 ? m.ll128Fraction : 1.0;
  EXPECT_NE(bigRing.protocol, Protocol::LL);
  EXPECT_NEAR(2.0 * 1023 / 1024 * bytes / (bigRing.time_s - bigRing.latency_s),
              std::min(450e9 * m.ringFraction, 400e9 * m.nicFraction) * share, 1e-3 * 400e9);
  // SHARP in the fabric halves what crosses the NICs: CollNet beats the NVLS-tree at size.
  const CollectiveTopology sharp = dgxH100(1024);
  const CollectiveTime collnet =
      ncclCollective(Collective::AllReduce, 8.0 * (1ull << 30), sharp, m, Algorithm::CollNet);
  const CollectiveTime nvlsTree =
      ncclCollective(Collective::AllReduce, 8.0 * (1ull << 30), sharp, m, Algorithm::NvlsTree);
  EXPECT_GT(collnet.algBandwidth_Bps, 1.5 * nvlsTree.algBandwidth_Bps);
}

TEST(NcclModel, AllToAllAcrossNodesRunsAtEachGpusNic) {
  // 6 nodes of 8: each GPU sends 40/48 of its buffer off the node through its own NIC.
  const CollectiveSpec m = model();
  const double bytes = 8.0 * (1ull << 30);
  const CollectiveTime t = ncclCollective(Collective::AllToAll, bytes, dgxH100(48), m);
  EXPECT_NEAR(t.time_s,
              m.baseSimple_s + m.hopNetworkSimple_s + bytes * 40 / 48 / (50e9 * m.nicFraction),
              1e-9);
  EXPECT_NEAR(t.nicBandwidth_Bps, 50e9 * m.nicFraction, 0.001 * 50e9);
  // nccl-tests' busbw counts the NVLink share too: 47/48 of the buffer over the NIC time.
  EXPECT_NEAR(t.busBandwidth_Bps, bytes / t.time_s * 47 / 48, 1.0);
}

TEST(NcclModel, ForcedNvlsUsesTheInNetworkBusFactor) {
  // nccl-tests applies (n-1)/(n+1) only when NCCL_ALGO=NVLS is set (src/all_reduce.cu).
  const CollectiveSpec m = model();
  const CollectiveTime t =
      ncclCollective(Collective::AllReduce, 1 << 30, dgxH100(8), m, Algorithm::Nvls);
  EXPECT_NEAR(t.busBandwidth_Bps, t.algBandwidth_Bps * 7.0 / 9.0, 1.0);
}
