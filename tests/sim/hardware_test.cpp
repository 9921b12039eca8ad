// System-level known answers and the seed figures, computed from catalog figures by the
// spec helpers and the scenario evaluator (rows 19, 22, 23 of known_answers.csv).
#include <gtest/gtest.h>

#include "sim/catalog.h"
#include "sim/evaluate.h"
#include "sim/scenario.h"
#include "sim/specs.h"
#include "tests/sim/shipped_catalog.h"

using namespace sim;

namespace {

using simtest::gpu;
using simtest::shipped;

SystemSpec systemSpec(const std::string& id) {
  auto s = loadSystem(shipped(), id);
  EXPECT_TRUE(s.ok()) << s.error();
  return s.ok() ? *s : SystemSpec{};
}

Evaluation evaluate(const std::string& name, const std::vector<std::string>& sets = {}) {
  auto scenario = loadScenario(name);
  EXPECT_TRUE(scenario.ok()) << scenario.error();
  if (!scenario) return {};
  for (const std::string& s : sets) EXPECT_TRUE(applyOverride(*scenario, s).ok()) << s;
  auto result = evaluateScenario(*scenario, shipped());
  EXPECT_TRUE(result.ok()) << result.error();
  return result.ok() ? *result : Evaluation{};
}

}  // namespace

TEST(Hardware, SeedH100HbmBandwidthIs3p35TBps) {
  EXPECT_DOUBLE_EQ(gpu("h100_sxm").hbmBandwidth_Bps, 3.35e12);
  EXPECT_DOUBLE_EQ(evaluate("llama70b-inference-h100").number("hardware.gpu_hbm_bandwidth_Bps"),
                   3.35e12);
}

TEST(Hardware, SeedNvlink4Is900GBpsBidirectional) {
  // 18 links x 25 GB/s per direction x 2 directions.
  EXPECT_DOUBLE_EQ(scaleUpBidirectional_Bps(gpu("h100_sxm")), 900e9);
  EXPECT_DOUBLE_EQ(scaleUpPerDirection_Bps(gpu("h100_sxm")), 450e9);
  EXPECT_DOUBLE_EQ(scaleUpBidirectional_Bps(gpu("h200")), 900e9);
  EXPECT_DOUBLE_EQ(scaleUpBidirectional_Bps(gpu("b200")), 1.8e12);
  // MI300X: 7 x 128 GB/s = 896 GB/s; TPU v5p 1,200 GB/s; v5e 400 GB/s (both directions).
  EXPECT_DOUBLE_EQ(scaleUpBidirectional_Bps(gpu("mi300x")), 896e9);
  EXPECT_DOUBLE_EQ(scaleUpBidirectional_Bps(gpu("tpu_v5p")), 1200e9);
  EXPECT_DOUBLE_EQ(scaleUpBidirectional_Bps(gpu("tpu_v5e")), 400e9);
}

TEST(Hardware, KA19_Nvl72NvlinkDomainAbout130TBps) {
  const SystemSpec nvl72 = systemSpec("gb200_nvl72");
  const double aggregate = nvl72.scaleUpDomainGpus * scaleUpBidirectional_Bps(gpu("gb200"));
  EXPECT_DOUBLE_EQ(aggregate, 129.6e12);
  EXPECT_NEAR(aggregate, 130e12, 130e12 * 0.01);
  const Evaluation e = evaluate("llama405b-training-16k-gb200");
  EXPECT_DOUBLE_EQ(e.number("hardware.scale_up_domain_bidirectional_Bps"), 129.6e12);
  // Seed: a 130 kW-class rack, between the OCP 120 kW capacity and the SU share of 150 kW.
  EXPECT_GE(e.number("power.rack_power_W"), 120e3);
  EXPECT_LE(e.number("power.rack_power_W"), 150e3);
  // The model card's H100 GPU-hours stay at the H100's 700 W on any scenario GPU.
  EXPECT_NEAR(e.number("power.reported_training_gpu_energy_kWh"), 21.59e6, 21.59e6 * 0.001);
}

TEST(Hardware, Nvl72LinkAccounting) {
  // 72 GPUs x 18 links = 18 switch chips x 72 ports (reference A.4).
  const SystemSpec nvl72 = systemSpec("gb200_nvl72");
  auto sw = loadSwitch(shipped(), "nvlink5_switch");
  ASSERT_TRUE(sw.ok()) << sw.error();
  EXPECT_EQ(nvl72.gpus * gpu("gb200").scaleUpLinks, nvl72.scaleUpSwitchChips * sw->radix);
  EXPECT_EQ(nvl72.switchTrays * 2, nvl72.scaleUpSwitchChips);
}

TEST(Hardware, KA22_Nvl72HbmCapacity) {
  const double hbm = systemSpec("gb200_nvl72").gpus * gpu("gb200").hbmCapacity_bytes;
  EXPECT_NEAR(hbm, 13.39e12, 13.39e12 * 0.005);
  EXPECT_NEAR(hbm, 13.4e12, 13.4e12 * 0.005);
}

TEST(Hardware, KA23_DgxH100Aggregates) {
  const Evaluation e = evaluate("llama70b-inference-h100", {"workload.compute_dtype=fp8"});
  EXPECT_DOUBLE_EQ(e.number("hardware.system_hbm_capacity_bytes"), 640e9);  // seed: 640 GB
  EXPECT_DOUBLE_EQ(e.number("hardware.system_scale_up_bidirectional_Bps"), 7.2e12);
  EXPECT_NEAR(e.number("hardware.system_sparse_flops"), 31.66e15, 31.66e15 * 0.015);
  EXPECT_NEAR(e.number("hardware.system_sparse_flops"), 32e15, 32e15 * 0.015);
}

TEST(Hardware, SeedClusterInjection13p1Pbps) {
  // 16,384 GPUs x one 800 Gb/s ConnectX-8 each.
  const Evaluation e = evaluate("llama405b-training-16k-gb200");
  EXPECT_DOUBLE_EQ(e.number("hardware.cluster_gpus"), 16384);
  EXPECT_NEAR(e.number("hardware.cluster_injection_bps"), 13.1072e15, 1e3);
  EXPECT_NEAR(e.number("hardware.cluster_bisection_bps"), 6.5536e15, 1e3);
}

TEST(Hardware, H100SuLeafBandwidth) {
  // Scaling book: 32 DGX H100 x 8 NICs x 400 Gb/s = 12.8 TB/s per scalable unit.
  const Evaluation e = evaluate("llama70b-inference-h100", {"cluster.gpus=256"});
  EXPECT_DOUBLE_EQ(e.number("hardware.systems"), 32);
  EXPECT_DOUBLE_EQ(e.number("hardware.cluster_injection_bps") / 8.0, 12.8e12);
}
