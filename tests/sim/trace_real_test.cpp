// The five real Kineto traces of ../shared/testdata/traces: each loads, and its breakdown agrees
// within 1 % with one computed here from the raw events (decompressed with zlib here, parsed
// whole with nlohmann::json into long doubles, unions by a boundary sweep written here, not the
// library's merge); the NCCL kernels' kinds and bytes match what their args (a100) or their
// annotations (sampled_rank) say; fractional nanoseconds survive exactly (v100).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "sim/trace/breakdown.h"
#include "sim/trace/rank_trace.h"
#include "tests/sim/trace_test_util.h"

using namespace tracetest;
namespace st = sim::trace;

namespace {

struct Event {
  int64_t start, end;
  std::string cat, name;
  int64_t stream, correlation;
};

// Length of the union of [start, end) spans, by sweeping +1/-1 boundaries in time order.
int64_t sweepUnion(const std::vector<std::pair<int64_t, int64_t>>& spans) {
  std::vector<std::pair<int64_t, int>> edges;
  for (auto [s, e] : spans) {
    edges.push_back({s, +1});
    edges.push_back({e, -1});
  }
  std::sort(edges.begin(), edges.end(), [](auto a, auto b) {
    return a.first != b.first ? a.first < b.first : a.second > b.second;  // opens first
  });
  int64_t total = 0, openedAt = 0;
  int depth = 0;
  for (auto [t, d] : edges) {
    if (depth == 0 && d > 0) openedAt = t;
    depth += d;
    if (depth == 0) total += t - openedAt;
  }
  return total;
}

struct Raw {
  LongJson doc;
  std::vector<Event> gpu;  // kernel, gpu_memcpy, gpu_memset with ph X
};

Raw loadRaw(const std::string& name) {
  Raw raw;
  raw.doc = LongJson::parse(gunzip(readBytes(realTrace(name))));
  for (const LongJson& e : raw.doc["traceEvents"]) {
    const std::string cat = e.value("cat", "");
    if ((cat != "kernel" && cat != "gpu_memcpy" && cat != "gpu_memset") || e.value("ph", "") != "X")
      continue;
    const int64_t start = nanoseconds(e["ts"]);
    raw.gpu.push_back({start, start + nanoseconds(e["dur"]), cat, e.value("name", ""),
                       e["args"].value("stream", int64_t(-1)),
                       e["args"].value("correlation", int64_t(-1))});
  }
  return raw;
}

bool isNccl(const Event& e) {
  return e.cat == "kernel" && e.name.find("ncclKernel") != std::string::npos;
}

struct Expected {
  double span_s, compute_s, communication_s, exposed_s, memcpy_s, idle_s;
};

// The issue's figures from `events` (all of them, or one step's).
Expected expectedOf(const std::vector<Event>& events) {
  std::vector<std::pair<int64_t, int64_t>> compute, comm, memory, all, computeOrComm;
  int64_t first = INT64_MAX, last = INT64_MIN;
  for (const Event& e : events) {
    first = std::min(first, e.start);
    last = std::max(last, e.end);
    all.push_back({e.start, e.end});
    if (e.cat != "kernel")
      memory.push_back({e.start, e.end});
    else if (isNccl(e))
      comm.push_back({e.start, e.end});
    else
      compute.push_back({e.start, e.end});
    if (e.cat == "kernel") computeOrComm.push_back({e.start, e.end});
  }
  const double ns = 1e-9;
  return {(last - first) * ns,     sweepUnion(compute) * ns,
          sweepUnion(comm) * ns,   (sweepUnion(computeOrComm) - sweepUnion(compute)) * ns,
          sweepUnion(memory) * ns, ((last - first) - sweepUnion(all)) * ns};
}

void expectWithin1Percent(double got, double expected, const std::string& what) {
  EXPECT_NEAR(got, expected, 0.01 * expected + 1e-12) << what;
}

void expectBreakdown(const st::Breakdown& b, const Expected& x, const std::string& what) {
  expectWithin1Percent(b.times.span_s, x.span_s, what + " span");
  expectWithin1Percent(b.times.compute_s, x.compute_s, what + " compute");
  expectWithin1Percent(b.times.communication_s, x.communication_s, what + " communication");
  expectWithin1Percent(b.times.exposedCommunication_s, x.exposed_s, what + " exposed");
  expectWithin1Percent(b.times.memcpy_s, x.memcpy_s, what + " memcpy");
  expectWithin1Percent(b.times.idle_s, x.idle_s, what + " idle");
  // HTA's exclusive split: idle + compute + non-compute = the span.
  expectWithin1Percent(b.hta.idle_s, x.idle_s, what + " HTA idle");
  expectWithin1Percent(b.hta.nonCompute_s, x.span_s - x.idle_s - x.compute_s,
                       what + " HTA non-compute");
}

}  // namespace

TEST(TraceReal, EveryTraceLoadsAndItsBreakdownMatchesTheRawEvents) {
  for (const std::string& name : realTraceNames()) {
    SCOPED_TRACE(name);
    auto rank = st::loadRankTrace(realTrace(name));
    ASSERT_TRUE(rank.ok()) << rank.error();
    const Raw raw = loadRaw(name);
    ASSERT_FALSE(raw.gpu.empty());
    EXPECT_EQ(rank->intervals.size(), raw.gpu.size());
    EXPECT_EQ(rank->events, raw.doc["traceEvents"].size());
    expectBreakdown(st::breakdown(*rank), expectedOf(raw.gpu), name);

    // Per stream: each stream's busy time against its own events' union.
    std::map<int64_t, std::vector<std::pair<int64_t, int64_t>>> perStream;
    for (const Event& e : raw.gpu) perStream[e.stream].push_back({e.start, e.end});
    const st::Breakdown b = st::breakdown(*rank);
    ASSERT_EQ(b.streams.size(), perStream.size());
    for (const st::StreamSummary& s : b.streams) {
      expectWithin1Percent(s.busy_s, sweepUnion(perStream[s.stream.stream]) * 1e-9,
                           name + " stream " + std::to_string(s.stream.stream));
    }

    // distributedInfo and deviceProperties as written.
    const LongJson& doc = raw.doc;
    if (doc.contains("distributedInfo")) {
      EXPECT_EQ(rank->rank, doc["distributedInfo"]["rank"].get<int64_t>());
      EXPECT_EQ(rank->worldSize, doc["distributedInfo"]["world_size"].get<int64_t>());
    } else {
      EXPECT_FALSE(rank->rankFromTrace);
    }
    std::map<int64_t, int64_t> perDevice;  // GPU events per args.device
    for (const LongJson& e : raw.doc["traceEvents"]) {
      const std::string cat = e.value("cat", "");
      if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset")
        ++perDevice[e["args"]["device"].get<int64_t>()];
    }
    const int64_t busiest =
        std::max_element(perDevice.begin(), perDevice.end(), [](auto a, auto b) {
          return a.second < b.second;
        })->first;
    std::string device = "unknown";
    for (const LongJson& d : doc.value("deviceProperties", LongJson::array())) {
      if (d["id"].get<int64_t>() == busiest) device = d["name"].get<std::string>();
    }
    EXPECT_EQ(rank->device, device);
  }
}

TEST(TraceReal, DevicesAreNamedFromDeviceProperties) {
  // The names as the files' deviceProperties give them (sampled_rank-* have none).
  const std::map<std::string, std::string> expected = {
      {"a100_2rank_allreduce.json.gz", "NVIDIA A100-PG509-200"},
      {"mi250_minitoy_train_kineto.json.gz", "AMD Radeon Graphics"},
      {"sampled_rank-0.json.gz", "unknown"},
      {"v100_single_rank.pt.trace.json.gz", "Tesla V100-SXM2-32GB"}};
  for (const auto& [name, device] : expected) {
    auto rank = st::loadRankTrace(realTrace(name));
    ASSERT_TRUE(rank.ok()) << rank.error();
    EXPECT_EQ(rank->device, device) << name;
  }
}

TEST(TraceReal, StepsMatchTheKernelsEachProfilerStepLaunched) {
  for (const std::string& name : realTraceNames()) {
    SCOPED_TRACE(name);
    auto rank = st::loadRankTrace(realTrace(name));
    ASSERT_TRUE(rank.ok()) << rank.error();
    const Raw raw = loadRaw(name);
    // CPU-side steps and runtime launches, from the raw events.
    std::map<int64_t, std::pair<int64_t, int64_t>> steps;
    std::map<int64_t, int64_t> launchTime;
    for (const LongJson& e : raw.doc["traceEvents"]) {
      const std::string cat = e.value("cat", ""), n = e.value("name", "");
      if (cat == "user_annotation" && n.rfind("ProfilerStep#", 0) == 0) {
        const int64_t s = nanoseconds(e["ts"]);
        steps[std::stoll(n.substr(13))] = {s, s + nanoseconds(e["dur"])};
      }
      if (cat == "cuda_runtime" && e.contains("args") && e["args"].contains("correlation")) {
        launchTime.emplace(e["args"]["correlation"].get<int64_t>(), nanoseconds(e["ts"]));
      }
    }
    ASSERT_EQ(rank->steps.size(), steps.size());
    const std::vector<st::Breakdown> perStep = st::stepBreakdowns(*rank);  // the one-pass form
    ASSERT_EQ(perStep.size(), rank->steps.size());
    for (size_t i = 0; i < perStep.size(); ++i) {
      const st::Breakdown one = st::breakdown(*rank, rank->steps[i].number);
      EXPECT_EQ(perStep[i].gpuEvents, one.gpuEvents);
      EXPECT_EQ(perStep[i].times.compute_s, one.times.compute_s);
      EXPECT_EQ(perStep[i].times.idle_s, one.times.idle_s);
      EXPECT_EQ(perStep[i].streams.size(), one.streams.size());
    }
    for (const auto& [number, window] : steps) {
      std::vector<Event> launched;
      for (const Event& e : raw.gpu) {
        auto it = launchTime.find(e.correlation);
        if (it != launchTime.end() && it->second >= window.first && it->second <= window.second)
          launched.push_back(e);
      }
      ASSERT_NE(rank->step(number), nullptr) << number;
      EXPECT_EQ(rank->step(number)->gpuEvents, static_cast<int64_t>(launched.size())) << number;
      if (launched.empty()) continue;
      expectBreakdown(st::breakdown(*rank, number), expectedOf(launched),
                      name + " step " + std::to_string(number));
    }
  }
}

TEST(TraceReal, A100NcclKernelsCarryTheirCollectiveInArgs) {
  const std::string name = "a100_2rank_allreduce.json.gz";
  auto rank = st::loadRankTrace(realTrace(name));
  ASSERT_TRUE(rank.ok()) << rank.error();
  // From the raw file: per "Collective name", the count and In msg nelems x the dtype's size
  // (c10 ScalarType: Float is 4 bytes, Long 8).
  const std::map<std::string, int64_t> dtypeBytes = {{"Float", 4}, {"Long", 8}};
  struct Figures {
    int64_t count = 0, bytes = 0;
  };
  std::map<std::string, Figures> raw;
  const Raw file = loadRaw(name);
  for (const LongJson& e : file.doc["traceEvents"]) {
    if (e.value("cat", "") != "kernel" || e.value("name", "").find("ncclKernel") != 0) continue;
    const LongJson& a = e["args"];
    Figures& f = raw[a["Collective name"].get<std::string>()];
    ++f.count;
    f.bytes += a["In msg nelems"].get<int64_t>() * dtypeBytes.at(a["dtype"]);
    // Every NCCL kernel of this trace is a RING_LL one (its name says so).
    ASSERT_NE(e["name"].get<std::string>().find("_RING_LL_"), std::string::npos);
  }
  ASSERT_EQ(raw.size(), 2u);  // allreduce and broadcast
  const st::Breakdown b = st::breakdown(*rank);
  ASSERT_EQ(b.collectives.size(), raw.size());
  for (const st::CollectiveSummary& c : b.collectives) {
    ASSERT_TRUE(raw.count(c.kind)) << c.kind;
    EXPECT_EQ(c.count, raw[c.kind].count) << c.kind;
    EXPECT_EQ(c.bytesKnown, c.count) << c.kind;
    EXPECT_EQ(c.bytes, raw[c.kind].bytes) << c.kind;
    EXPECT_EQ(c.algorithm, "RING");
    EXPECT_EQ(c.protocol, "LL");
  }
  for (const st::Collective& c : rank->collectives) EXPECT_EQ(c.source, "kernel args");
}

TEST(TraceReal, SampledRankCollectivesComeFromTheirAnnotations) {
  // sampled_rank-*: every NCCL kernel is ncclKernel_SendRecv with no metadata; its kind is the
  // nccl:* annotation around the runtime call that launched it (same thread, matched by
  // correlation id), its size that annotation's "Input Dims"[0] x "Input type"[0].
  const std::map<std::string, int64_t> typeBytes = {
      {"float", 4}, {"int", 4}, {"long", 8}, {"unsigned char", 1}, {"signed char", 1}};
  for (const std::string name : {"sampled_rank-0.json.gz", "sampled_rank-1.json.gz"}) {
    SCOPED_TRACE(name);
    const Raw raw = loadRaw(name);
    struct Launch {
      int64_t pid, tid, ts;
    };
    std::map<int64_t, Launch> launches;
    struct Annotation {
      int64_t pid, tid, start, end;
      std::string kind;
      int64_t bytes;
    };
    std::vector<Annotation> annotations;
    for (const LongJson& e : raw.doc["traceEvents"]) {
      const std::string cat = e.value("cat", ""), n = e.value("name", "");
      if (cat == "cuda_runtime") {
        launches[e["args"]["correlation"].get<int64_t>()] = {
            e["pid"].get<int64_t>(), e["tid"].get<int64_t>(), nanoseconds(e["ts"])};
      } else if (cat == "user_annotation" && n.rfind("nccl:", 0) == 0) {
        int64_t elements = 1;
        for (const LongJson& d : e["args"]["Input Dims"][0]) elements *= d.get<int64_t>();
        const int64_t start = nanoseconds(e["ts"]);
        annotations.push_back({e["pid"].get<int64_t>(), e["tid"].get<int64_t>(), start,
                               start + nanoseconds(e["dur"]), n.substr(5),
                               elements * typeBytes.at(e["args"]["Input type"][0])});
      }
    }
    // nccl:all_reduce -> allreduce, nccl:all_to_all -> alltoall, nccl:_all_gather_base -> allgather
    const std::map<std::string, std::string> kindOf = {
        {"all_reduce", "allreduce"}, {"all_to_all", "alltoall"}, {"_all_gather_base", "allgather"}};
    std::map<std::string, std::pair<int64_t, int64_t>> expected;  // kind -> count, bytes
    for (const Event& e : raw.gpu) {
      if (!isNccl(e)) continue;
      ASSERT_NE(e.name.find("ncclKernel_SendRecv"), std::string::npos);
      const Launch& l = launches.at(e.correlation);
      const Annotation* around = nullptr;
      for (const Annotation& a : annotations) {
        if (a.pid == l.pid && a.tid == l.tid && a.start <= l.ts && l.ts <= a.end) around = &a;
      }
      ASSERT_NE(around, nullptr);
      auto& [count, bytes] = expected[kindOf.at(around->kind)];
      ++count;
      bytes += around->bytes;
    }
    auto rank = st::loadRankTrace(realTrace(name));
    ASSERT_TRUE(rank.ok()) << rank.error();
    const st::Breakdown b = st::breakdown(*rank);
    ASSERT_EQ(b.collectives.size(), expected.size());
    for (const st::CollectiveSummary& c : b.collectives) {
      ASSERT_TRUE(expected.count(c.kind)) << c.kind;
      EXPECT_EQ(c.count, expected[c.kind].first) << c.kind;
      EXPECT_EQ(c.bytes, expected[c.kind].second) << c.kind;
      EXPECT_EQ(c.algorithm, "RING");  // ncclKernel_SendRecv_RING_SIMPLE_...
      EXPECT_EQ(c.protocol, "SIMPLE");
    }
  }
}

TEST(TraceReal, V100FractionalNanosecondsSurviveExactly) {
  // v100's ts carry three decimals of microseconds at epoch values (1712195495519689.047): every
  // interval must match the long-double reading to the nanosecond, which a double cannot.
  const std::string name = "v100_single_rank.pt.trace.json.gz";
  const Raw raw = loadRaw(name);
  auto rank = st::loadRankTrace(realTrace(name));
  ASSERT_TRUE(rank.ok()) << rank.error();
  std::multiset<std::pair<int64_t, int64_t>> expected, got;
  int64_t origin = INT64_MAX;
  for (const Event& e : raw.gpu) origin = std::min(origin, e.start);
  for (const Event& e : raw.gpu) expected.insert({e.start - origin, e.end - origin});
  for (const st::GpuInterval& iv : rank->intervals) got.insert({iv.start_ns, iv.end_ns});
  EXPECT_EQ(got, expected);
  EXPECT_EQ(rank->originNs, origin);
  // And a double would not have: some kernel's start read as a double is off by >= 1 ns.
  int lost = 0;
  for (const LongJson& e : raw.doc["traceEvents"]) {
    if (e.value("cat", "") != "kernel") continue;
    const double asDouble = static_cast<double>(e["ts"].get<long double>());
    if (std::llround(asDouble * 1000.0) != nanoseconds(e["ts"])) ++lost;
  }
  EXPECT_GT(lost, 0);
}
