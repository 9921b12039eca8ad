// Training on the engine: the 405B step time against an independent calculation written here
// from the catalog's figures, the step's lower bounds, and how rail optimization and a downed
// NIC cable move it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "sim/calc/collectives.h"
#include "sim/calc/parallelism.h"
#include "sim/specs.h"
#include "tests/sim/engine_test_util.h"

using namespace sim::engine;

namespace {

double figure(const std::string& path) {
  const sim::Quantity* q = enginetest::catalog().find(path);
  EXPECT_NE(q, nullptr) << path;
  return q ? q->value : 0.0;
}

// Llama 3.1 405B, TP 8 x PP 16 x DP 128 on GB200 NVL72 racks with ConnectX-7 NICs, BF16,
// 16 micro-batches of one 8,192-token sequence per replica (16.8M tokens per step, Llama 3's
// batch), 1F1B, ZeRO-1, selective recompute. Written here from the catalog's figures and the
// step's structure (matmuls, attention, sequence-parallel collectives, PP sends, the bubble, the
// DP collective beyond one pass through the stage); it leaves out the small terms (non-matmul
// kernels, the output head, latencies).
double independentStepTime_s() {
  const double h = 16384, heads = 128, kv = 8, d = 128, ffn = 53248, seq = 8192;
  const double layerWeights = 2 * h * heads * d + 2 * h * kv * d + 3 * h * ffn;
  const double tp = 8, pp = 16, dp = 128, m = 16, stageLayers = 8;  // 126 layers: 8 on most
  const double bf16 = figure("gpus.gb200.dense_bf16_flops");
  const double matmul =
      3 * 2 * layerWeights * seq / tp / (bf16 * figure("efficiency.default.gemm_bf16_fraction"));
  const double attention =
      4 * 2 * seq * seq * heads * d / tp / (bf16 * figure("efficiency.default.attention_fraction"));
  const double nvlink = 18 * figure("interconnects.nvlink5.link_per_direction_Bps") *
                        figure("collectives.default.ring_bandwidth_fraction");
  const double tpComm = 10 * (tp - 1) / tp * seq * h * 2 / nvlink;  // 6 all-gathers + 4 r-s
  const double nic = figure("interconnects.connectx7.link_rate_per_direction_bps") / 8 *
                     figure("collectives.default.nic_bandwidth_fraction");
  const double stage = stageLayers * (matmul + attention + tpComm);
  const double ppSend = 2 * seq * h * 2 / tp / nic;
  const double pipeline = m * (stage + ppSend) * (1 + (pp - 1) / m);
  const double gradients = stageLayers * layerWeights / tp * 2;
  const double dpCollective = 2 * (dp - 1) / dp * gradients / nic;
  return pipeline + std::max(0.0, dpCollective - stage);
}

}  // namespace

TEST(EngineTraining, Llama405bOn16kGpusWithin15PercentOfIndependentCalculation) {
  auto e = enginetest::makeBuiltin("training_405b");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->training()->jobGpus, 16384u);
  enginetest::runTrainingSteps(*e, 2);
  ASSERT_EQ(e->completedSteps(), 2u);
  const double expected = independentStepTime_s();
  // Sanity of the independent figure itself: 405B on 16k GB200s with a 94% bubble.
  EXPECT_GT(expected, 3.0);
  EXPECT_LT(expected, 8.0);
  EXPECT_NEAR(e->lastStepTime_s(), expected, 0.15 * expected);
  EXPECT_DOUBLE_EQ(e->training()->tokensPerStep, 128.0 * 16 * 8192);
}

TEST(EngineTraining, StepIsAtLeastItsComputeAndItsSlowestCollective) {
  for (const char* name : {"training_405b", "training_405b_no_rail"}) {
    auto e = enginetest::makeBuiltin(name);
    ASSERT_TRUE(e);
    enginetest::runTrainingSteps(*e, 2);
    const TrainingPlan& p = *e->training();
    const double compute = p.desc.microBatches * (p.forward_s + p.backward_s);
    EXPECT_GE(e->lastStepTime_s(), compute) << name;
    EXPECT_GE(e->lastStepTime_s(), e->dataParallelTime_s()) << name;
    EXPECT_GE(e->lastStepTime_s(), p.tpComm_s) << name;
    // The routed DP ring can be no faster than its bytes over the NIC at line rate.
    const double line = e->cluster().specs.nic.linkPerDirection_Bps;
    EXPECT_GE(e->dataParallelTime_s(), p.dpRingBytesPerGpu / line * (1 - 1e-9)) << name;
  }
}

TEST(EngineTraining, RailOptimizedFabricIsFaster) {
  auto rail = enginetest::makeBuiltin("training_405b");
  auto flat = enginetest::makeBuiltin("training_405b_no_rail");
  ASSERT_TRUE(rail && flat);
  enginetest::runTrainingSteps(*rail, 2);
  enginetest::runTrainingSteps(*flat, 2);
  // Rail-optimized, DP ring neighbours share a leaf in 3 hops of 4; without rails every hop
  // climbs to the spines, where ECMP hashing of ~16k x 4 sub-flows onto as many uplinks puts
  // several on the busiest (balls into bins: max load ~ ln n / ln ln n). The stated amount: the
  // DP collective at least 1.5x slower, and the step slower by at least half the rail-optimized
  // DP time.
  EXPECT_GE(flat->dataParallelTime_s(), 1.5 * rail->dataParallelTime_s());
  EXPECT_GE(flat->lastStepTime_s(), rail->lastStepTime_s() + 0.5 * rail->dataParallelTime_s());
  // Compute is identical: the whole difference is the fabric.
  EXPECT_DOUBLE_EQ(flat->training()->pipeline_s, rail->training()->pipeline_s);
}

TEST(EngineTraining, PhasesDriveGpuPowerAndTheHallSwings) {
  auto e = enginetest::makeBuiltin("training_405b");
  ASSERT_TRUE(e);
  double pipelinePeak = 0, dpLow = 1e30;
  while (e->completedSteps() < 2) {
    e->step();
    const Aggregates a = e->snapshot().aggregates;
    if (e->phase() == TrainingPhase::Pipeline) pipelinePeak = std::max(pipelinePeak, a.fabricIt_W);
    if (e->phase() == TrainingPhase::DataParallel) dpLow = std::min(dpLow, a.fabricIt_W);
  }
  const double tdp = e->cluster().specs.gpu.tdp_W;
  const double comm = e->figures().gpuCommunicationFraction * tdp;
  // During the DP collective every job GPU sits at the communication level.
  const double rackOther =
      e->figures().rackOtherLoadFraction * (e->cluster().rackMaxPower_W - 72 * tdp);
  const double idle = e->figures().gpuIdleFraction * tdp;
  const double expectedDp = 16384 * comm + 32 * idle + 228 * rackOther;
  EXPECT_NEAR(dpLow, expectedDp, 1e-6 * expectedDp);
  // Synchronous training: the hall swings by more than a quarter between phases.
  EXPECT_GT(pipelinePeak, 1.25 * dpLow);
}

TEST(EngineTraining, PerLinkClassBytesFollowThePlan) {
  auto e = enginetest::makeBuiltin("training_405b");
  ASSERT_TRUE(e);
  enginetest::runTrainingSteps(*e, 1);
  const TrainingPlan& p = *e->training();
  // TP on NVLink: 4 ring all-reduces per layer per micro-batch, 2(t-1)/t of b s h bytes each.
  // The step that completed it may already have started the next pipeline: at most dt of it.
  const double spill = 1.0 + e->desc().dt_s / p.pipeline_s;
  const double tpBytes = 16384.0 * 16 * 4 * (126.0 / 16) * 2 * 7 / 8 * 8192 * 16384 * 2;
  EXPECT_GE(e->nvlinkBytes(), tpBytes * (1 - 1e-9));
  EXPECT_LE(e->nvlinkBytes(), tpBytes * spill);
  // Fabric: DP ring 2(d-1)/d x gradient shard per GPU + PP sends (all inter-rack here).
  const double grad = p.params / 128 * 2;
  const double dpBytes = 16384.0 * 2 * 127 / 128 * grad;
  const double ppBytes = 2.0 * 15 * 128 * 8 * 16 * (8192.0 * 16384 * 2 / 8);
  EXPECT_GE(e->fabricBytes(), (dpBytes + ppBytes) * (1 - 1e-9));
  EXPECT_LE(e->fabricBytes(), dpBytes + ppBytes * spill);
}

TEST(EngineTraining, BadLayoutsAreRefusedWithTheField) {
  EngineDesc d;
  d.workload.training.tp = 7;
  auto e = Engine::create(enginetest::catalog(), d);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().find("workload.training.tp"), std::string::npos) << e.error();
  d = EngineDesc{};
  d.workload.training.dp = 256;
  e = Engine::create(enginetest::catalog(), d);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().find("exceed"), std::string::npos) << e.error();
  d = EngineDesc{};
  d.cluster.systemId = "no_such_rack";
  e = Engine::create(enginetest::catalog(), d);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().find("no_such_rack"), std::string::npos) << e.error();
  d = EngineDesc{};
  d.faults.push_back({.kind = FaultKind::PumpTrip, .start_s = 1, .target = 999});
  e = Engine::create(enginetest::catalog(), d);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().find("faults[0].target"), std::string::npos) << e.error();
}

TEST(EngineTraining, ExpertAllToAllClimbsTheFabricMoreThanTheRing) {
  auto e = enginetest::makeBuiltin("training_moe_ep");
  ASSERT_TRUE(e);
  const Cluster& c = e->cluster();
  const TrainingPlan& p = *e->training();
  ASSERT_EQ(p.desc.ep, 8);
  // Share of the bytes a GPU injects that also climb from a leaf to a spine: DP ring neighbours
  // sit in consecutive racks (one rack in four crosses a 4-rack rail group); an EP group's 8
  // consecutive racks span two or three rail groups, so over half its pairs cross.
  const auto climbShare = [&](const std::vector<double>& load) {
    double injected = 0, climbed = 0;
    for (uint32_t l = 0; l < c.linkCount(); ++l) {
      if (c.links[l].tier == LinkTier::Endpoint) injected += load[2 * l];
      if (c.links[l].tier == LinkTier::LeafSpine) climbed += load[2 * l];
    }
    return climbed / injected;
  };
  const double ring = climbShare(e->dpLinkBytes());
  const double a2a = climbShare(e->allToAllLinkBytes());
  EXPECT_NEAR(ring, 0.25, 0.02);
  EXPECT_GT(a2a, 2 * ring);
  // One all-to-all is no faster than the alpha-beta model at the NIC rate (calculator), and the
  // pipeline carries 2 per MoE layer per micro-batch on its critical path.
  const auto nic = sim::loadInterconnect(enginetest::catalog(), "connectx7").value();
  const auto model = sim::loadModel(enginetest::catalog(), "mixtral_8x7b").value();
  const double bytes =
      sim::calc::moeAllToAllBytes(8192.0 / 8, model.expertsPerToken, model.hidden, 2);
  const double alphaBeta =
      sim::calc::allToAllTime_s(bytes, 8, {nic.latency_s, nic.linkPerDirection_Bps});
  EXPECT_GE(e->allToAllTime_s(), alphaBeta * (1 - 1e-9));
  EXPECT_LT(e->allToAllTime_s(), 4 * alphaBeta);
  const double perStep = 8 * 2.0 * model.layers / 4 * (1 + sim::calc::bubbleFraction1F1B(4, 8));
  EXPECT_NEAR(e->pipelineTime_s(), p.pipeline_s + perStep * e->allToAllTime_s(), 1e-9);
  enginetest::runTrainingSteps(*e, 2);
  EXPECT_NEAR(e->lastStepTime_s(),
              e->pipelineTime_s() + p.dpExposed_s(e->dataParallelTime_s()) + p.optimizer_s, 1e-6);
  // A dense model cannot be expert-parallel.
  EngineDesc d;
  d.workload.training.ep = 8;
  auto bad = Engine::create(enginetest::catalog(), d);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("workload.training.ep"), std::string::npos);
}
