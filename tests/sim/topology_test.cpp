// Topology known answers from ../shared/reference/known_answers.csv (ids 11, 13, 15, 16, 17, 18,
// 20). Each test also checks that the CSV row still states the figure asserted here.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "sim/calc/topology.h"
#include "tests/common/paths.h"

namespace {

// The line of known_answers.csv whose id column is `id` ("" when absent).
std::string knownAnswerRow(int id) {
  std::ifstream in(testpaths::sharedDir() / "reference" / "known_answers.csv");
  std::string line;
  const std::string prefix = std::to_string(id) + ",";
  while (std::getline(in, line))
    if (line.rfind(prefix, 0) == 0) return line;
  return "";
}

void expectRowStates(int id, const std::string& text) {
  const std::string row = knownAnswerRow(id);
  ASSERT_FALSE(row.empty()) << "known_answers.csv has no row " << id << " under "
                            << testpaths::sharedDir();
  EXPECT_NE(row.find(text), std::string::npos) << "row " << id << " no longer states " << text;
}

}  // namespace

TEST(Topology, KAryFatTreeK4MatchesAlFares) {  // known answer 11
  expectRowStates(11, "16 hosts, 20 switches, 4 core");
  auto t = sim::calc::kAryFatTree(4);
  ASSERT_TRUE(t.ok()) << t.error();
  EXPECT_EQ(t->hosts, 16u);
  EXPECT_EQ(t->totalSwitches, 20u);
  EXPECT_EQ(t->coreSwitches, 4u);
  EXPECT_EQ(t->pods, 4u);
  // Al-Fares et al. section 3.3: k = 48 gives 27,648 hosts and 2,880 switches.
  auto t48 = sim::calc::kAryFatTree(48);
  ASSERT_TRUE(t48.ok());
  EXPECT_EQ(t48->hosts, 27648u);
  EXPECT_EQ(t48->totalSwitches, 2880u);
}

TEST(Topology, KAryFatTreeRejectsOddRadix) {
  auto t = sim::calc::kAryFatTree(5);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().find("even"), std::string::npos);
}

TEST(Topology, PrunedThreeTierAgreesWithKAryAtFullSize) {
  // A 3-tier fabric sized for k^3/4 endpoints is the full k-ary fat-tree.
  auto full = sim::calc::fatTree({.endpoints = 16, .radix = 4, .tiers = 3, .rails = 1});
  ASSERT_TRUE(full.ok()) << full.error();
  EXPECT_EQ(full->leafSwitches, 8u);
  EXPECT_EQ(full->spineSwitches, 8u);
  EXPECT_EQ(full->coreSwitches, 4u);
  EXPECT_EQ(full->maxEndpoints, 16u);
}

TEST(Topology, TwoTierRadix64) {  // known answer 13
  expectRowStates(13, "2,048 endpoints, 64 leaf + 32 spine");
  auto t = sim::calc::fatTree({.endpoints = 2048, .radix = 64, .tiers = 2});
  ASSERT_TRUE(t.ok()) << t.error();
  EXPECT_EQ(t->maxEndpoints, 2048u);
  EXPECT_EQ(t->leafSwitches, 64u);
  EXPECT_EQ(t->spineSwitches, 32u);
  EXPECT_DOUBLE_EQ(t->oversubscription, 1.0);
  EXPECT_EQ(sim::calc::tiersNeeded(2048, 64), 2u);
  EXPECT_EQ(sim::calc::tiersNeeded(2049, 64), 3u);
}

TEST(Topology, SuperPodPrunedThreeTier16k) {  // known answer 15
  expectRowStates(15, "512 leaf, 512 spine, 256 core (1,280)");
  auto t = sim::calc::fatTree({.endpoints = 16384, .radix = 64, .tiers = 3});
  ASSERT_TRUE(t.ok()) << t.error();
  EXPECT_EQ(t->leafSwitches, 512u);
  EXPECT_EQ(t->spineSwitches, 512u);
  EXPECT_EQ(t->coreSwitches, 256u);
  EXPECT_EQ(t->totalSwitches, 1280u);
  // SuperPOD B200 RA: node-leaf = leaf-spine = spine-core cables = number of GPUs.
  EXPECT_EQ(t->endpointLinks, 16384u);
  EXPECT_EQ(t->leafSpineLinks, 16384u);
  EXPECT_EQ(t->spineCoreLinks, 16384u);
  EXPECT_EQ(t->cables, 3u * 16384u);
  EXPECT_EQ(t->transceivers, 2u * 3u * 16384u);
  EXPECT_EQ(t->railGroups, 64u);  // 64 scalable units of 8 rails
}

TEST(Topology, TwoTierQuantumX800) {  // known answer 16
  expectRowStates(16, "10,368 endpoints (216 switches)");
  auto t =
      sim::calc::fatTree({.endpoints = 10368, .radix = 144, .tiers = 2, .portRate_bps = 800e9});
  ASSERT_TRUE(t.ok()) << t.error();
  EXPECT_EQ(t->maxEndpoints, 10368u);
  EXPECT_EQ(t->totalSwitches, 216u);
  EXPECT_EQ(t->endpointLinks, 10368u);  // the B300-XDR RA node-leaf cable count
  auto over = sim::calc::fatTree({.endpoints = 10369, .radix = 144, .tiers = 2});
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.error().find("exceed"), std::string::npos);
}

TEST(Topology, InjectionAndBisection16kAt800G) {  // known answer 17
  expectRowStates(17, "13.1072 Pb/s");
  auto t = sim::calc::fatTree({.endpoints = 16384, .radix = 64, .tiers = 3, .portRate_bps = 800e9});
  ASSERT_TRUE(t.ok()) << t.error();
  EXPECT_DOUBLE_EQ(t->injection_bps, 13.1072e15);
  EXPECT_DOUBLE_EQ(t->injection_bps / 8.0, 1638.4e12);
  EXPECT_DOUBLE_EQ(t->bisection_bps, 6.5536e15);
}

TEST(Topology, OversubscribedLeafHalvesBisection) {
  // Meta's 1:7 is at aggregation; here a 3:1 leaf (48 down, 16 up) on radix 64.
  auto t =
      sim::calc::fatTree({.endpoints = 3072, .radix = 64, .tiers = 2, .leafOversubscription = 3.0});
  ASSERT_TRUE(t.ok()) << t.error();
  EXPECT_EQ(t->leafDownPorts, 48u);
  EXPECT_EQ(t->leafUpPorts, 16u);
  EXPECT_DOUBLE_EQ(t->oversubscription, 3.0);
  EXPECT_DOUBLE_EQ(t->bisection_bps, 3072 * 400e9 / 2 / 3);
}

TEST(Topology, H100ScalableUnitLeafBandwidth) {  // known answer 18
  expectRowStates(18, "12.8 TB/s");
  // 32 DGX H100 nodes x 8 rails at 400 Gb/s: one leaf per rail.
  auto t = sim::calc::fatTree({.endpoints = 32 * 8, .radix = 64, .tiers = 2, .rails = 8});
  ASSERT_TRUE(t.ok()) << t.error();
  EXPECT_DOUBLE_EQ(t->injection_bps / 8.0, 12.8e12);
  EXPECT_EQ(t->leafSwitches, 8u);
  EXPECT_EQ(t->railGroups, 1u);
}

TEST(Topology, Nvl72LinkCountConsistency) {  // known answers 20 and 19
  expectRowStates(20, "1,296 = 1,296");
  const auto d = sim::calc::nvlinkDomain({.gpus = 72,
                                          .linksPerGpu = 18,
                                          .switchChips = 18,
                                          .portsPerSwitch = 72,
                                          .linkPerDirection_Bps = 50e9});
  EXPECT_EQ(d.gpuLinks, 1296u);
  EXPECT_EQ(d.switchPorts, 1296u);
  EXPECT_TRUE(d.consistent);
  EXPECT_DOUBLE_EQ(d.perGpuBidirectional_Bps, 1.8e12);
  EXPECT_NEAR(d.aggregateBidirectional_Bps, 129.6e12, 1e3);
  const auto broken = sim::calc::nvlinkDomain({.gpus = 72, .switchChips = 17});
  EXPECT_FALSE(broken.consistent);
}
