// The inference service: seeded Poisson arrivals, continuous batching, KV occupancy that grows
// and frees, queueing under overload, and TTFT / TPOT from the serving calculator.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/calc/serving.h"
#include "tests/sim/engine_test_util.h"

using namespace sim::engine;

namespace {

EngineDesc service(double ratePerReplica, uint32_t replicas = 36) {
  EngineDesc d;
  d.workload.kind = WorkloadKind::Inference;
  d.workload.inference.replicas = replicas;
  d.workload.inference.arrivalRatePerReplica_per_s = ratePerReplica;
  return d;
}

}  // namespace

TEST(EngineInference, ArrivalsArePoissonWithTheConfiguredRate) {
  auto e = enginetest::make(service(10));
  ASSERT_TRUE(e);
  e->advanceTo(20);
  const double expected = 10.0 * 36 * 20;  // rate x replicas x seconds = 7,200
  const double sigma = std::sqrt(expected);
  EXPECT_NEAR(double(e->inference()->arrived), expected, 4 * sigma);
}

TEST(EngineInference, StableLoadServesEveryRequestAtTheOfferedRate) {
  auto e = enginetest::make(service(10));
  ASSERT_TRUE(e);
  e->advanceTo(10);
  const InferenceService& s = *e->inference();
  const double tokens0 = s.outputTokens;
  e->advanceTo(40);
  EXPECT_EQ(s.rejected, 0u);
  // Offered output tokens/s = rate x replicas x output tokens; served matches within 5 %.
  const double offered = 10.0 * 36 * 256;
  EXPECT_NEAR((s.outputTokens - tokens0) / 30.0, offered, 0.05 * offered);
  // Time per output token: a decode step of the current batch, at least the weights read from
  // HBM per step (the scaling book's decode lower bound) plus each layer's kernels at their
  // shortest, and not more than twice that plus the TP all-reduces at NCCL's latency-bound LL
  // ring (6.6 us + 2 (tp - 1) x 0.6 us per all-reduce, 2 per layer: tuning.cc).
  const InferencePlan& p = *e->inferencePlan();
  const double layers = p.model.layers;
  const double floor_s =
      p.weightsBytesPerReplica / (p.desc.tp * e->cluster().specs.gpu.hbmBandwidth_Bps) +
      layers * 8 * 5e-6;
  const double allReduces_s = 2 * layers * (6.6e-6 + 2 * (p.desc.tp - 1) * 0.6e-6);
  const Aggregates a = e->snapshot().aggregates;
  EXPECT_GE(a.tpot_s, floor_s);
  EXPECT_LT(a.tpot_s, 2 * floor_s + allReduces_s);
  // Little's law: sequences in flight = completion rate x time in the system, which is 256
  // decode steps stretched by the share of time the replica spends in prefill (compute-bound,
  // so one prompt's prefill time per arrival).
  const double prefill =
      sim::calc::iterationCost(p.serving, 2048, 1, 0,
                               sim::calc::causalAttentionFlops(p.serving.model, 2048))
          .total_s;
  const double perRequest_s = 256 * a.tpot_s / (1 - 10 * prefill);
  EXPECT_NEAR(a.active, 10.0 * 36 * perRequest_s, 0.15 * 10.0 * 36 * perRequest_s);
}

TEST(EngineInference, KvOccupancyTracksTheSequencesInFlight) {
  auto e = enginetest::make(service(10));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->snapshot().aggregates.meanKvOccupancy, 0.0);
  e->advanceTo(15);
  const InferencePlan& p = *e->inferencePlan();
  // Each sequence holds its prompt plus the tokens generated so far: on average
  // prompt + output / 2 tokens of KV.
  double sum = 0, sumActive = 0;
  int n = 0;
  for (int i = 0; i < 500; ++i) {
    e->step();
    sum += e->snapshot().aggregates.meanKvOccupancy;
    sumActive += e->snapshot().aggregates.active;
    ++n;
  }
  const double perSequence = (2048 + 256 / 2.0) / p.kvCapacityTokensPerReplica;
  const double expected = sumActive / n / p.replicas * perSequence;
  EXPECT_NEAR(sum / n, expected, 0.15 * expected);
  // GPUs of a replica report its occupancy; unused GPUs report none.
  const Snapshot s = e->snapshot();
  EXPECT_EQ(s.gpuKvOccupancy[0], s.gpuKvOccupancy[7]);
  EXPECT_EQ(s.gpuKvOccupancy[e->cluster().gpuCount() - 1], 0.0f);
}

TEST(EngineInference, OverloadQueuesRejectsAndStretchesTimeToFirstToken) {
  auto light = enginetest::make(service(10, 9));
  auto heavy = enginetest::make(service(400, 9));
  ASSERT_TRUE(light && heavy);
  light->advanceTo(20);
  heavy->advanceTo(20);
  EXPECT_GT(heavy->snapshot().aggregates.queued, 9.0 * 100);  // queues fill
  EXPECT_GT(heavy->inference()->rejected, 0u);                // then refuse
  EXPECT_EQ(light->inference()->rejected, 0u);
  const auto ttft = [](const Engine& e) {
    return e.inference()->ttftSum_s / double(e.inference()->ttftCount);
  };
  EXPECT_GT(ttft(*heavy), 10 * ttft(*light));
  // The light service's TTFT is at least one prefill of a 2,048-token prompt.
  // (its matmuls at least: 2 N FLOPs per token at the GPU's dense FP8 peak).
  const InferencePlan& p = *light->inferencePlan();
  const auto& gpu = light->cluster().specs.gpu;
  const double prefill = 2.0 * p.params * 2048 / (p.desc.tp * gpu.denseFp8_flops);
  EXPECT_GE(ttft(*light), prefill);
  // A saturated replica decodes a full batch each step: maxBatch tokens per TPOT at most.
  const double full = p.desc.maxBatch / heavy->snapshot().aggregates.tpot_s;
  EXPECT_LT(heavy->snapshot().aggregates.tokensPerSecond, 9 * full * 1.05);
}

TEST(EngineInference, PumpTripCutsTokensPerSecondThenRecovers) {
  EngineDesc d = service(150, 72);  // 8 racks = CDU 0, busy enough to run hot
  d.dt_s = 0.05;
  d.faults.push_back(
      {.kind = FaultKind::PumpTrip, .start_s = 30, .end_s = 230, .target = 0, .severity = 0.1});
  auto e = enginetest::make(d);
  EngineDesc healthy = d;
  healthy.faults.clear();
  auto same = enginetest::make(healthy);  // the same service without the trip
  ASSERT_TRUE(e && same);
  e->advanceTo(30);
  same->advanceTo(30);
  const double before = e->inference()->outputTokens;
  ASSERT_EQ(before, same->inference()->outputTokens);
  e->advanceTo(220);
  same->advanceTo(220);
  EXPECT_LT(e->snapshot().cduClock[0], 0.99f);
  EXPECT_LT(e->snapshot().aggregates.goodput, 0.99);
  // Over the trip the throttled replicas served fewer tokens than the same service unharmed.
  EXPECT_LT(e->inference()->outputTokens - before, same->inference()->outputTokens - before);
  e->advanceTo(600);
  EXPECT_EQ(e->snapshot().cduClock[0], 1.0f);
  EXPECT_EQ(e->snapshot().aggregates.goodput, 1.0);
}
