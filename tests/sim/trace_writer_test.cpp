// The model's step written as Kineto traces (sim/trace/training_trace, serving_trace,
// kineto_writer) and read back with the existing reader: the round trip gives the engine's own
// step split (compute, exposed communication, bubble and idle) within 1 % for a training step
// with and without faults and for a serving window; the files are Chrome traces in structure;
// faults show in the kernels.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "sim/calc/serving.h"
#include "sim/calc/transformer.h"
#include "sim/trace/breakdown.h"
#include "sim/trace/kineto_writer.h"
#include "sim/trace/rank_trace.h"
#include "sim/trace/serving_trace.h"
#include "sim/trace/training_trace.h"
#include "tests/common/paths.h"
#include "tests/sim/engine_test_util.h"
#include "tests/sim/trace_test_util.h"

using namespace sim::trace;
using sim::engine::Engine;
using sim::engine::StepSplit;

namespace {

std::filesystem::path scratch() {
  static const testpaths::TempDir folder("trace-writer");
  return folder.path;
}

// Runs `e` until `n` steps that begin at or after `from_s` are recorded.
std::vector<TrainingStepRecord> recordSteps(Engine& e, size_t n, double from_s) {
  TrainingRecorder recorder(from_s, n);
  recorder.observe(e);
  while (recorder.steps().size() < n && e.time_s() < 600) {
    e.step();
    recorder.observe(e);
  }
  EXPECT_EQ(recorder.steps().size(), n);
  return recorder.steps();
}

std::string kinetoText(const ModelRank& rank) {
  std::ostringstream text;
  writeKinetoTrace(text, rank, {0, "trace_writer_test"});
  return text.str();
}

// Writes `rank` to a file (gzipped when asked) and reads it back with the Kineto reader.
RankTrace readBack(const ModelRank& rank, bool gzip = false) {
  const auto path =
      scratch() / ("rank" + std::to_string(rank.rank) + (gzip ? ".json.gz" : ".json"));
  {
    std::ofstream out(path, std::ios::binary);
    const std::string text = kinetoText(rank);
    out << (gzip ? gzipText(text) : text);
  }
  auto loaded = loadRankTrace(path);
  EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error());
  std::filesystem::remove(path);
  return loaded.ok() ? std::move(*loaded) : RankTrace{};
}

ModelRank layOut(const Engine& e, const std::vector<TrainingStepRecord>& steps, int64_t rank) {
  std::vector<ModelRank> ranks = trainingRanks(e, steps, {rank});
  EXPECT_EQ(ranks.size(), 1u);
  return ranks.empty() ? ModelRank{} : std::move(ranks[0]);
}

double within1pct(double expected) {
  return 0.01 * std::abs(expected) + 1e-9;
}

// The trace of a rank in pipeline stage 0 (which sets the step: no bubble before its first
// kernel or after its last) read back against the engine's split of the same step: compute
// (the layers' and the optimizer's kernels), exposed communication, and idle = the 1F1B bubble
// plus what faults lost.
void expectStageZeroIsTheSplit(const Breakdown& b, const StepSplit& split) {
  EXPECT_NEAR(b.times.compute_s, split.compute_s + split.optimizer_s,
              within1pct(split.compute_s + split.optimizer_s));
  EXPECT_NEAR(b.times.exposedCommunication_s, split.communication_s,
              within1pct(split.communication_s));
  EXPECT_NEAR(b.times.idle_s, split.bubble_s + split.lost_s,
              within1pct(split.bubble_s + split.lost_s));
  EXPECT_NEAR(b.times.span_s, split.total_s, within1pct(split.total_s));
}

}  // namespace

TEST(TraceWriter, TrainingRoundTripGivesTheEnginesStepSplit) {
  auto e = enginetest::makeBuiltin("training_405b");
  const auto steps = recordSteps(*e, 1, 0.0);
  const StepSplit split = sim::engine::stepSplit(e->snapshot());
  ASSERT_GT(split.bubble_s, 0);
  ASSERT_GT(split.communication_s, 0);
  const sim::engine::TrainingPlan& plan = *e->training();

  expectStageZeroIsTheSplit(breakdown(readBack(layOut(*e, steps, 0))), split);

  // A later stage computes and communicates as much; its bubble is split around its work, and the
  // s forward slots before its first kernel (the engine's StageWindow) are before the trace's span.
  for (int stage : {5, 15}) {
    const int64_t rank = int64_t(stage) * plan.desc.dp * plan.desc.tp;
    const RankTrace back = readBack(layOut(*e, steps, rank));
    const Breakdown b = breakdown(back);
    EXPECT_NEAR(b.times.compute_s, split.compute_s + split.optimizer_s,
                within1pct(split.compute_s));
    EXPECT_NEAR(b.times.exposedCommunication_s, split.communication_s,
                within1pct(split.communication_s));
    const double lead = double(back.originNs) * 1e-9 - steps[0].start_s;
    EXPECT_NEAR(lead, plan.stages[size_t(stage)].start_s, 1e-6);
    EXPECT_NEAR(b.times.idle_s + lead, split.bubble_s, within1pct(split.bubble_s));
  }
}

TEST(TraceWriter, LinkDownRoundTripAndItsSlowerDataParallelCollective) {
  auto healthy = enginetest::makeBuiltin("training_405b");
  recordSteps(*healthy, 1, 0.0);
  auto e = enginetest::makeBuiltin("link_down");  // GPU 0's NIC cable, 5 s to 35 s
  const auto steps = recordSteps(*e, 1, 5.0);
  const StepSplit split = sim::engine::stepSplit(e->snapshot());
  const ModelRank rank0 = layOut(*e, steps, 0);
  expectStageZeroIsTheSplit(breakdown(readBack(rank0)), split);
  // The DP reduce-scatter and all-gather kernels last the collective as the fabric routes it now.
  double dp_s = 0;
  for (const ModelKernel& k : rank0.kernels)
    if (k.stream == ModelStream::DataParallel) dp_s += double(k.dur_ns) * 1e-9;
  EXPECT_NEAR(dp_s, e->dataParallelTime_s(), 1e-6 * dp_s + 1e-8);
  EXPECT_GT(e->dataParallelTime_s(), 1.01 * healthy->dataParallelTime_s());
}

TEST(TraceWriter, AStragglersKernelsAreLongerAndTheOthersWait) {
  auto e = enginetest::makeBuiltin("straggler");  // GPU 0 (rank 0) from 10 s to 40 s
  const auto steps = recordSteps(*e, 1, 10.0);
  const StepSplit split = sim::engine::stepSplit(e->snapshot());
  const sim::engine::TrainingPlan& plan = *e->training();
  const double r = e->figures().stragglerSpeedFraction;  // the catalog's straggler speed
  ASSERT_GT(r, 0);
  ASSERT_LT(r, 1);
  ASSERT_EQ(plan.gpuOfRank[0], 0u);
  ASSERT_GT(split.lost_s, 0);
  EXPECT_EQ(defaultTrainingRanks(plan, steps).front(), 0);

  // Rank 8 (stage 0, replica 1) runs at full speed and waits: idle = bubble + what was lost.
  const ModelRank healthy = layOut(*e, steps, int64_t(plan.desc.tp));
  expectStageZeroIsTheSplit(breakdown(readBack(healthy)), split);

  // The straggler's kernels take 1/r as long: compute, the TP and PP collectives, the bubble.
  const ModelRank slow = layOut(*e, steps, 0);
  const Breakdown b = breakdown(readBack(slow));
  const double m = plan.desc.microBatches;
  EXPECT_NEAR(b.times.compute_s, (split.compute_s + split.optimizer_s) / r,
              within1pct(split.compute_s / r));
  const double exposed = split.communication_s + (1 / r - 1) * m * (plan.tpComm_s + plan.ppSend_s);
  EXPECT_NEAR(b.times.exposedCommunication_s, exposed, within1pct(exposed));
  EXPECT_NEAR(b.times.idle_s, split.bubble_s / r, within1pct(split.bubble_s / r));
  EXPECT_NEAR(b.times.span_s, split.total_s, within1pct(split.total_s));
  // Kernel by kernel: the first GEMM of each.
  auto firstGemm = [](const ModelRank& rank) {
    for (const ModelKernel& k : rank.kernels)
      if (k.cls == GpuClass::Gemm) return double(k.dur_ns);
    return 0.0;
  };
  EXPECT_NEAR(firstGemm(slow), firstGemm(healthy) / r, 2.0);
}

TEST(TraceWriter, ServingRoundTripGivesTheEnginesIterations) {
  auto e = enginetest::makeBuiltin("inference_70b");
  e->advanceTo(2.0);
  ServingRecorder recorder(2.0, 2.5, {0});
  while (e->time_s() < 2.5 - 1e-9) {
    e->step();
    recorder.observe(*e);
  }
  const sim::engine::InferencePlan& p = *e->inferencePlan();
  // The engine's own account of replica 0 over the window: each step's prefill and decode
  // iterations, ending carry_s before the step's end; the TP all-reduces' share of each
  // iteration from the serving calculator the engine runs.
  double busy = 0, comm = 0, first = -1, last = 0;
  int64_t iterations = 0;
  for (const ServingStepRecord& r : recorder.records(0)) {
    const sim::engine::ReplicaActivity& a = r.activity;
    const double work = a.prefill_s + a.decode_s;
    if (work <= 0) continue;
    const double end = r.start_s + r.dt_s - a.carry_s;
    if (first < 0) first = end - work;
    last = end;
    busy += work;
    if (a.prefillSequences > 0) {
      const double n = a.prefillSequences;
      const auto c = sim::calc::iterationCost(
          p.serving, n * p.desc.promptTokens, n, 0,
          n * sim::calc::causalAttentionFlops(p.serving.model, p.desc.promptTokens));
      comm += a.prefill_s * c.tpComm_s / c.total_s;
      ++iterations;
    }
    if (a.decodeIterations > 0) {
      const auto c = sim::calc::iterationCost(p.serving, a.decodeSequences, a.decodeSequences,
                                              a.decodeKvTokens, 0);
      comm += a.decode_s * c.tpComm_s / c.total_s;
      iterations += a.decodeIterations;
    }
  }
  ASSERT_GT(busy, 0.1);
  ASSERT_GT(comm, 0);
  const std::vector<ModelRank> ranks = servingRanks(*e, recorder, {0});
  ASSERT_EQ(ranks.size(), 1u);
  const RankTrace back = readBack(ranks[0]);
  const Breakdown b = breakdown(back);
  EXPECT_NEAR(b.times.span_s, last - first, within1pct(last - first));
  EXPECT_NEAR(b.times.compute_s, busy - comm, within1pct(busy - comm));
  EXPECT_NEAR(b.times.exposedCommunication_s, comm, within1pct(comm));
  EXPECT_NEAR(b.times.idle_s, (last - first) - busy, within1pct(last - first));
  EXPECT_EQ(int64_t(back.steps.size()), iterations);  // a ProfilerStep per iteration
  EXPECT_EQ(back.worldSize, int64_t(p.replicas) * p.desc.tp);
}

TEST(TraceWriter, FilesAreChromeTracesTheKinetoReaderAccepts) {
  auto e = enginetest::makeBuiltin("training_405b");
  const auto steps = recordSteps(*e, 2, 0.0);
  const ModelRank rank = layOut(*e, steps, 0);
  const std::string text = kinetoText(rank);

  // The Chrome trace format: an object with traceEvents; every complete event has name, ph, ts,
  // dur, pid, tid, times in microseconds, monotone per stream, and a stream's kernels never
  // overlap (Perfetto draws a track's slices nested or apart).
  const auto json = nlohmann::json::parse(text);
  ASSERT_TRUE(json.is_object());
  ASSERT_TRUE(json["traceEvents"].is_array());
  std::map<std::pair<int64_t, int64_t>, std::pair<double, double>> lastOnTrack;  // start, end
  int64_t complete = 0;
  for (const auto& ev : json["traceEvents"]) {
    ASSERT_TRUE(ev.contains("ph"));
    if (ev["ph"] != "X") continue;
    ++complete;
    for (const char* key : {"name", "ts", "dur", "pid", "tid"}) ASSERT_TRUE(ev.contains(key)) << ev;
    ASSERT_TRUE(ev["name"].is_string());
    ASSERT_TRUE(ev["ts"].is_number() && ev["dur"].is_number()) << ev;
    const double ts = ev["ts"], dur = ev["dur"];
    EXPECT_GE(ts, 0);
    EXPECT_GE(dur, 0);
    auto& [start, end] = lastOnTrack[{ev["pid"].get<int64_t>(), ev["tid"].get<int64_t>()}];
    EXPECT_GE(ts, start) << ev;
    if (ev["cat"] == "kernel") {
      EXPECT_GE(ts, end - 1e-3) << ev;
    }
    start = ts;
    end = std::max(end, ts + dur);
  }
  EXPECT_GT(complete, int64_t(2 * rank.kernels.size()));  // kernels, their launches and steps

  for (bool gzip : {false, true}) {
    const RankTrace back = readBack(rank, gzip);
    EXPECT_EQ(back.rank, 0);
    EXPECT_EQ(back.worldSize, e->training()->jobGpus);
    EXPECT_TRUE(back.rankFromTrace);
    EXPECT_EQ(back.device, e->cluster().specs.gpu.name);
    EXPECT_EQ(int64_t(back.intervals.size()), int64_t(rank.kernels.size()));
    ASSERT_EQ(back.steps.size(), 2u);  // ProfilerStep#0 and #1, the kernels in each
    EXPECT_EQ(back.steps[0].number, steps[0].number);
    EXPECT_EQ(back.gpuWithoutTime, 0u);
    std::map<GpuClass, int64_t> classes;
    for (const GpuInterval& iv : back.intervals) ++classes[iv.cls];
    for (GpuClass c :
         {GpuClass::Gemm, GpuClass::Attention, GpuClass::OtherCompute, GpuClass::Communication})
      EXPECT_GT(classes[c], 0) << gpuClassName(c);
    // NCCL collectives with their kinds, sizes and communicators: a TP all-gather of Llama 3.1
    // 405B (hidden 16384, Meta's model card) over 8192 tokens in bf16 takes each rank's 1/8.
    std::map<std::string, int64_t> kinds;
    for (const Collective& c : back.collectives) {
      ++kinds[c.kind];
      EXPECT_GE(c.bytes, 0) << c.kind;
      if (c.kind == "allgather" && c.groupSize == 8) {
        EXPECT_EQ(c.bytes, int64_t(16384) * 8192 * 2 / 8);
      }
    }
    for (const char* kind : {"allgather", "reducescatter", "send", "recv"})
      EXPECT_GT(kinds[kind], 0) << kind;
  }
}

TEST(TraceWriter, GzipIsOneMemberZlibInflates) {
  const std::string text = std::string(200000, 'x') + "dcwalk";
  EXPECT_EQ(tracetest::gunzip(gzipText(text)), text);
  EXPECT_EQ(tracetest::gunzip(gzipText("")), "");
}
