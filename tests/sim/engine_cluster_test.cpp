// The engine's cluster and routing: counts from the calculators, the id -> (rack, tray, slot)
// structure the world draws, rail wiring, and conservation of bytes on the routed fabric.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "sim/calc/power.h"
#include "sim/calc/topology.h"
#include "tests/sim/engine_test_util.h"

using namespace sim::engine;

namespace {

// Sum of bytes entering and leaving every switch must match; returns the worst mismatch.
double worstSwitchImbalance(const Cluster& c, const std::vector<double>& load) {
  std::vector<double> in(c.switchCount(), 0), out(c.switchCount(), 0);
  for (size_t l = 0; l < c.links.size(); ++l) {
    const Link& L = c.links[l];
    const double up = load[2 * l], down = load[2 * l + 1];
    in[L.upper] += up;
    out[L.upper] += down;
    if (L.tier != LinkTier::Endpoint) {
      out[L.lower] += up;
      in[L.lower] += down;
    }
  }
  double worst = 0;
  for (size_t s = 0; s < in.size(); ++s) worst = std::max(worst, std::fabs(in[s] - out[s]));
  return worst;
}

}  // namespace

TEST(EngineCluster, DefaultCampusCountsComeFromTheCalculators) {
  auto e = enginetest::makeBuiltin("training_405b");
  ASSERT_TRUE(e);
  const Cluster& c = e->cluster();
  // 16,384 GPUs in whole NVL72 racks: ceil(16384 / 72) = 228 racks, 16,416 GPUs.
  EXPECT_EQ(c.gpusPerRack, 72u);
  EXPECT_EQ(c.gpusPerTray, 4u);  // 18 trays of 4 Blackwell GPUs
  EXPECT_EQ(c.racks, 228u);
  EXPECT_EQ(c.gpuCount(), 228u * 72u);
  // The fabric is the calculator's: 3 tiers at radix 64, leaves of 32 GPUs.
  auto ft = sim::calc::fatTree({.endpoints = 16416,
                                .radix = 64,
                                .tiers = 3,
                                .portRate_bps = 400e9,
                                .rails = c.rails,
                                .railOptimized = true});
  ASSERT_TRUE(ft.ok());
  EXPECT_EQ(c.leaves, ft->leafSwitches);
  EXPECT_EQ(c.spines, ft->spineSwitches);
  EXPECT_EQ(c.cores, ft->coreSwitches);
  EXPECT_EQ(c.linkCount(), ft->cables);
  // Campus racks: floor(100 MW / (132 kW x PUE 1.2)) = 631 (reference D: "~631 NVL72 racks").
  EXPECT_EQ(c.campusRacks, 631u);
  EXPECT_EQ(c.mirroredRacks, 631u - 228u);
  EXPECT_DOUBLE_EQ(c.campusGpus(), 631.0 * 72.0);
  // 8 racks per CDU.
  EXPECT_EQ(c.cdus, (228u + 7u) / 8u);
}

TEST(EngineCluster, IdsMapToRackTraySlotAndRails) {
  auto e = enginetest::makeBuiltin("training_405b");
  ASSERT_TRUE(e);
  const Cluster& c = e->cluster();
  const GpuId g{3 * 72 + 4 * 5 + 2};  // rack 3, tray 5, slot 2
  EXPECT_EQ(c.gpus[g.index].rack.index, 3u);
  EXPECT_EQ(c.gpus[g.index].tray, 5u);
  EXPECT_EQ(c.gpus[g.index].slot, 2u);
  EXPECT_EQ(c.firstGpuOfRack({3}).index, 3u * 72u);
  // Rail-optimized: the same local index in every rack of a rail group lands on one leaf, and
  // every leaf has exactly its 32 down-ports in use.
  const uint32_t perGroup = c.racksPerRailGroup;
  ASSERT_GE(perGroup, 2u);
  for (uint32_t r = 1; r < perGroup; ++r)
    EXPECT_EQ(c.leafOf({r * 72 + 7}).index, c.leafOf({7}).index);
  EXPECT_NE(c.leafOf({7}).index, c.leafOf({8}).index);
  std::vector<uint32_t> perLeaf(c.leaves, 0);
  for (uint32_t i = 0; i < c.gpuCount(); ++i) ++perLeaf[c.leafOf({i}).index];
  EXPECT_EQ(*std::max_element(perLeaf.begin(), perLeaf.end()), c.fabric.leafDownPorts);
  // A GPU's NIC cable joins it to its leaf.
  const Link& nic = c.links[c.nicLinkOf(g).index];
  EXPECT_EQ(nic.lower, g.index);
  EXPECT_EQ(nic.upper, c.leafOf(g).index);
  EXPECT_DOUBLE_EQ(nic.capacity_Bps, 400e9 / 8);  // ConnectX-7, 400 Gb/s
}

TEST(EngineCluster, NoSwitchPortIsOverbooked) {
  auto e = enginetest::makeBuiltin("training_405b");
  ASSERT_TRUE(e);
  const Cluster& c = e->cluster();
  std::vector<uint32_t> ports(c.switchCount(), 0);
  for (const Link& L : c.links) {
    ++ports[L.upper];
    if (L.tier != LinkTier::Endpoint) ++ports[L.lower];
  }
  EXPECT_LE(*std::max_element(ports.begin(), ports.end()), 64u);
}

TEST(EngineRouting, BytesSentEqualBytesReceived) {
  for (const char* name : {"training_405b", "training_405b_no_rail"}) {
    auto e = enginetest::makeBuiltin(name);
    ASSERT_TRUE(e);
    const Cluster& c = e->cluster();
    const TrainingPlan& p = *e->training();
    double interRack = 0;
    for (const Flow& f : p.dpFlows)
      if (c.gpus[f.src].rack.index != c.gpus[f.dst].rack.index) interRack += f.bytes;
    ASSERT_GT(interRack, 0);
    double sent = 0, received = 0;
    for (uint32_t g = 0; g < c.gpuCount(); ++g) {
      sent += e->dpLinkBytes()[2 * size_t{c.gpuLink[g]}];
      received += e->dpLinkBytes()[2 * size_t{c.gpuLink[g]} + 1];
    }
    EXPECT_NEAR(sent, interRack, 1e-9 * interRack) << name;
    EXPECT_NEAR(received, interRack, 1e-9 * interRack) << name;
    EXPECT_LT(worstSwitchImbalance(c, e->dpLinkBytes()), 1e-9 * interRack) << name;
    EXPECT_LT(worstSwitchImbalance(c, e->ppLinkBytes()), 1e-9 * interRack) << name;
    EXPECT_EQ(e->dpRoute().unroutable, 0u);
  }
}

TEST(EngineRouting, LinkLoadNeverExceedsCapacity) {
  for (const char* name :
       {"training_405b", "training_405b_no_rail", "training_moe_ep", "link_down"}) {
    auto e = enginetest::makeBuiltin(name);
    ASSERT_TRUE(e);
    bool sawDataParallel = false;
    for (int i = 0; i < 1500; ++i) {
      e->step();
      const Snapshot s = e->snapshot();
      sawDataParallel |= e->phase() == TrainingPhase::DataParallel;
      float worst = 0;
      for (float u : s.linkUtilisation) worst = std::max(worst, u);
      ASSERT_LE(worst, 1.0f + 1e-6f) << name << " at " << e->time_s();
      EXPECT_LE(s.aggregates.maxLinkUtilisation, 1.0 + 1e-9);
    }
    EXPECT_TRUE(sawDataParallel) << name;
  }
}

TEST(EngineRouting, EcmpSpreadsAcrossUplinksAndSeedChangesTheHash) {
  sim::engine::EngineDesc a;
  sim::engine::EngineDesc b;
  b.seed = 2;
  auto ea = enginetest::make(a), eb = enginetest::make(b);
  ASSERT_TRUE(ea && eb);
  const Cluster& c = ea->cluster();
  // Leaf-spine links that carry DP bytes: many distinct ones, and a different set per seed.
  std::set<uint32_t> usedA, usedB;
  for (uint32_t l = 0; l < c.linkCount(); ++l) {
    if (c.links[l].tier != LinkTier::LeafSpine) continue;
    if (ea->dpLinkBytes()[2 * l] > 0) usedA.insert(l);
    if (eb->dpLinkBytes()[2 * l] > 0) usedB.insert(l);
  }
  EXPECT_GT(usedA.size(), 1000u);
  EXPECT_NE(usedA, usedB);
}
