// Collectives across NVLink domains (issue 36), each checked against a calculation written here
// from the catalog's figures: a 20-rack GB200 NVL72 AllReduce (NVLS inside each rack, a double
// binary tree of racks across, bounded by the rack's 72 NICs and the fabric's taper), and a
// GH200-style two-node AllGather and AllToAll (one GPU per node with its own NIC).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "sim/evaluate.h"
#include "sim/scenario.h"
#include "tests/sim/shipped_catalog.h"

using namespace sim;

namespace {

Evaluation evaluateWith(const std::vector<std::string>& sets) {
  ScenarioDesc s;
  for (const std::string& o : sets) {
    auto applied = applyOverride(s, o);
    EXPECT_TRUE(applied.ok()) << applied.error();
  }
  auto r = evaluateScenario(s, simtest::shipped());
  EXPECT_TRUE(r.ok()) << r.error();
  return r.ok() ? *r : Evaluation{};
}

std::string algorithmOf(const Evaluation& e) {
  const Output* o = e.find("collective.algorithm");
  const std::string* name = o ? std::get_if<std::string>(&o->value) : nullptr;
  return name ? *name : "";
}

CollectiveSpec collectivesOf(const std::string& scaleUpSwitch) {
  auto m = loadCollectives(simtest::shipped(), scaleUpSwitch);
  EXPECT_TRUE(m.ok()) << m.error();
  return m.ok() ? *m : CollectiveSpec{};
}

constexpr double GIB = 1024.0 * 1024.0 * 1024.0;
constexpr double NVLINK5_Bps = 900e9;  // 18 links x 50 GB/s per GPU and direction
constexpr double CX7_Bps = 50e9;       // one 400 Gb/s ConnectX-7 per GPU

// 20 racks of 72 on an Ethernet fabric without in-network reduction (so SHARP cannot take it).
std::vector<std::string> twentyRacks(double taper) {
  return {"cluster.system=gb200_nvl72",
          "cluster.systems_per_rack=1",
          "cluster.gpus=1440",
          "cluster.switch=spectrum4_sn5600",
          "cluster.scale_out_nic=connectx7",
          "cluster.fabric_taper=" + std::to_string(taper),
          "collective.op=all_reduce",
          "collective.ranks=1440",
          "collective.bytes=17179869184"};
}

// NVLS-tree by hand: one NVLS pass per rack (latency + bytes at the NVLS share of NVLink 5),
// pipelined with a double binary tree of 20 racks whose busiest rack moves 2 x the buffer through
// its 72 NICs (each tree carries half, an inner rack with two children passes 3/2 of it, a leaf
// 1/2), at the NIC and tree shares, over the leaves' up-ports (1 / taper).
double nvlsTreeBusBw(double taper) {
  const CollectiveSpec m = collectivesOf("nvlink5_switch");
  const double bytes = 16 * GIB;
  const double inside = NVLINK5_Bps * m.nvlsFraction;
  const double across = 72 * CX7_Bps * m.nicFraction / taper / 2.0 * m.treeFraction;
  const double latency = m.nvls_s + 71 * m.nvlsRank_s + 2 * std::log2(20.0) * m.hopNetworkSimple_s;
  const double time = latency + bytes / std::min(inside, across);
  return bytes / time * 2.0 * 1439 / 1440;  // nccl-tests' AllReduce busbw
}

}  // namespace

TEST(MultiDomainCollectives, TwentyNvl72RacksAllReduceIsNvlsInsideAndATreeAcross) {
  const Evaluation e = evaluateWith(twentyRacks(1));
  EXPECT_EQ(algorithmOf(e), "nvls_tree");
  EXPECT_DOUBLE_EQ(e.number("collective.nodes"), 20.0);
  // Non-blocking: the racks' 72 NICs are not the bound, NVLink's NVLS share is.
  EXPECT_NEAR(e.number("collective.bus_bandwidth_Bps"), nvlsTreeBusBw(1), 1e-6 * nvlsTreeBusBw(1));
}

TEST(MultiDomainCollectives, ATaperedFabricBindsTheRacksAllReduceAtTheirNics) {
  // 4:1 taper: 72 x 50 GB/s x 0.96 / 4 / 2 x 0.92 = 397 GB/s falls below the NVLS share.
  const Evaluation e = evaluateWith(twentyRacks(4));
  const CollectiveSpec m = collectivesOf("nvlink5_switch");
  ASSERT_LT(72 * CX7_Bps * m.nicFraction / 4 / 2 * m.treeFraction, NVLINK5_Bps * m.nvlsFraction)
      << "the premise of this test";
  EXPECT_EQ(algorithmOf(e), "nvls_tree");
  EXPECT_NEAR(e.number("collective.bus_bandwidth_Bps"), nvlsTreeBusBw(4), 1e-6 * nvlsTreeBusBw(4));
  EXPECT_LT(e.number("collective.bus_bandwidth_Bps"), nvlsTreeBusBw(1));
}

TEST(MultiDomainCollectives, TheMessageSizeSetsWhatTheNvlsPassCosts) {
  // 512 MiB against 16 GiB on the same 20 racks: the per-message term (NVLS latency, a step per
  // further rank, the tree's network hops) is the same time, so the smaller buffer loses more.
  const CollectiveSpec m = collectivesOf("nvlink5_switch");
  auto sets = twentyRacks(1);
  sets.push_back("collective.bytes=536870912");
  const Evaluation small = evaluateWith(sets);
  const double latency = m.nvls_s + 71 * m.nvlsRank_s + 2 * std::log2(20.0) * m.hopNetworkSimple_s;
  const double expected = 0.5 * GIB / (latency + 0.5 * GIB / (NVLINK5_Bps * m.nvlsFraction));
  EXPECT_NEAR(small.number("collective.alg_bandwidth_Bps"), expected, 1e-6 * expected);
  EXPECT_LT(small.number("collective.bus_bandwidth_Bps"),
            0.8 * evaluateWith(twentyRacks(1)).number("collective.bus_bandwidth_Bps"));
}

namespace {

// Two GH200-style nodes: an H100-class GPU alone in its NVLink domain with its own 400G NIC
// (a DGX H100's GPU and rail, cluster.domain_gpus=1).
std::vector<std::string> twoGh200Nodes(const std::string& op) {
  return {"cluster.system=dgx_h100", "cluster.gpus=2",     "cluster.domain_gpus=1",
          "collective.op=" + op,     "collective.ranks=2", "collective.bytes=8589934592"};
}

}  // namespace

TEST(MultiDomainCollectives, TwoGh200NodesAllGatherRunsAtOneNic) {
  // A ring of two nodes: each rank receives the other's half of the array over its NIC, one
  // network step: base latency + one NET hop + (1/2) S / (50 GB/s x the NIC share).
  const CollectiveSpec m = collectivesOf("nvswitch_gen3");
  const Evaluation e = evaluateWith(twoGh200Nodes("all_gather"));
  EXPECT_DOUBLE_EQ(e.number("collective.nodes"), 2.0);
  const double bytes = 8 * GIB;
  const double time =
      m.baseSimple_s + m.hopNetworkSimple_s + 0.5 * bytes / (CX7_Bps * m.nicFraction);
  EXPECT_NEAR(e.number("collective.time_s"), time, 1e-9 * time);
  // busbw = algbw x (n-1)/n = the NIC's achieved rate, less the latency's share.
  EXPECT_NEAR(e.number("collective.bus_bandwidth_Bps"), bytes / time / 2, 1.0);
}

TEST(MultiDomainCollectives, TwoGh200NodesAllToAllSendsHalfThroughEachNic) {
  // Each rank keeps its own 1/2 and sends the other 1/2 through its only NIC; nothing crosses
  // NVLink (a domain of one).
  const CollectiveSpec m = collectivesOf("nvswitch_gen3");
  const Evaluation e = evaluateWith(twoGh200Nodes("all_to_all"));
  const double bytes = 8 * GIB;
  const double time =
      m.baseSimple_s + m.hopNetworkSimple_s + 0.5 * bytes / (CX7_Bps * m.nicFraction);
  EXPECT_NEAR(e.number("collective.time_s"), time, 1e-9 * time);
  EXPECT_NEAR(e.number("collective.nic_bandwidth_Bps"), 0.5 * bytes / time, 1.0);
  // The same two GPUs in one 8-GPU domain: NVLink, no NIC.
  auto inOne = twoGh200Nodes("all_to_all");
  inOne.erase(std::find(inOne.begin(), inOne.end(), "cluster.domain_gpus=1"));
  const Evaluation nvlink = evaluateWith(inOne);
  EXPECT_DOUBLE_EQ(nvlink.number("collective.nodes"), 1.0);
  EXPECT_LT(nvlink.number("collective.time_s"), e.number("collective.time_s") / 4);
}
