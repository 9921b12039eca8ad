// The replay: rank placement and its refusals, the byte flows, and what the replayed snapshot
// shows, against independent computations written here — for the real sampled_rank traces, the
// compute and NCCL shares of windows found straight from the raw events (zlib and nlohmann::json
// in long double, intervals clipped and merged here); for a hand-built rank, bytes and link loads
// worked out by hand from nccl-tests' bus factors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "sim/engine/engine.h"
#include "sim/trace/rank_layout.h"
#include "sim/trace/replay.h"
#include "tests/common/paths.h"
#include "tests/sim/engine_test_util.h"
#include "tests/sim/trace_test_util.h"

namespace st = sim::trace;
using namespace tracetest;

namespace {

struct RawKernel {
  int64_t start = 0, end = 0;  // absolute ns
  bool nccl = false;
};

std::vector<RawKernel> rawKernels(const std::string& name) {
  const LongJson doc = LongJson::parse(gunzip(readBytes(realTrace(name))));
  std::vector<RawKernel> out;
  for (const LongJson& e : doc["traceEvents"]) {
    if (e.value("cat", "") != "kernel" || !e.contains("ts") || !e.contains("dur")) continue;
    const long double ts = e["ts"].get<long double>(), dur = e["dur"].get<long double>();
    const int64_t start = static_cast<int64_t>(std::llround(ts * 1000.0L));
    const std::string kernel = e.value("name", "");
    out.push_back({start, start + static_cast<int64_t>(std::llround(dur * 1000.0L)),
                   kernel.find("ncclKernel") != std::string::npos ||
                       kernel.find("ncclDevKernel") != std::string::npos});
  }
  return out;
}

// First start of any GPU event (kernel, memcpy, memset) in the file, absolute ns.
int64_t rawOrigin(const std::string& name) {
  const LongJson doc = LongJson::parse(gunzip(readBytes(realTrace(name))));
  int64_t first = INT64_MAX;
  for (const LongJson& e : doc["traceEvents"]) {
    const std::string cat = e.value("cat", "");
    if ((cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset") && e.contains("ts") &&
        e.contains("dur")) {
      first = std::min<int64_t>(first, std::llround(e["ts"].get<long double>() * 1000.0L));
    }
  }
  return first;
}

// Share of [from, to) covered by the kernels (nccl or not) clipped to it: sort and merge.
double coveredShare(const std::vector<RawKernel>& kernels, bool nccl, int64_t from, int64_t to) {
  std::vector<std::pair<int64_t, int64_t>> spans;
  for (const RawKernel& k : kernels) {
    if (k.nccl != nccl) continue;
    const int64_t a = std::max(k.start, from), b = std::min(k.end, to);
    if (b > a) spans.push_back({a, b});
  }
  std::sort(spans.begin(), spans.end());
  int64_t covered = 0, runStart = 0, runEnd = INT64_MIN;
  for (auto [a, b] : spans) {
    if (a > runEnd) {
      if (runEnd != INT64_MIN) covered += runEnd - runStart;
      runStart = a;
      runEnd = b;
    } else {
      runEnd = std::max(runEnd, b);
    }
  }
  if (runEnd != INT64_MIN) covered += runEnd - runStart;
  return double(covered) / double(to - from);
}

std::unique_ptr<sim::engine::Engine>& engine405b() {
  static std::unique_ptr<sim::engine::Engine> e = enginetest::makeBuiltin("training_405b");
  return e;
}

st::Replay sampledReplay() {
  std::vector<st::RankTrace> ranks;
  for (const char* name : {"sampled_rank-0.json.gz", "sampled_rank-1.json.gz"}) {
    auto r = st::loadRankTrace(realTrace(name));
    EXPECT_TRUE(r.ok()) << r.error();
    ranks.push_back(std::move(*r));
  }
  const sim::engine::Cluster& c = engine405b()->cluster();
  auto gpus = st::identityPlacement(128, c.gpuCount());
  EXPECT_TRUE(gpus.ok()) << gpus.error();
  auto replay = st::Replay::create(std::move(ranks), *gpus, c);
  EXPECT_TRUE(replay.ok()) << replay.error();
  return std::move(*replay);
}

// A hand-made rank: one GEMM [0, 10) ms on stream 0, an all-reduce of 8 MB among `group` ranks
// [5, 15) ms on stream 1, a 1 MB memcpy [20, 21) ms.
st::RankTrace handRank(int64_t rank, int64_t world, int64_t group) {
  st::RankTrace r;
  r.file = "hand" + std::to_string(rank);
  r.rank = rank;
  r.worldSize = world;
  r.streams = {{0, 0}, {0, 1}};
  const int64_t ms = 1'000'000;
  st::Collective c;
  c.kind = "allreduce";
  c.bytes = 8'000'000;
  c.groupSize = group;
  r.collectives = {c};
  r.intervals = {{0, 10 * ms, 0, st::GpuClass::Gemm, -1, -1, -1},
                 {5 * ms, 15 * ms, 1, st::GpuClass::Communication, 0, -1, 8'000'000},
                 {20 * ms, 21 * ms, 0, st::GpuClass::Memcpy, -1, -1, 1'000'000}};
  return r;
}

}  // namespace

TEST(TraceReplay, LayoutParsesAndRefusesWithTheFieldNamed) {
  auto l = st::parseRankLayout("tp=8,pp=2,dp=4");
  ASSERT_TRUE(l.ok()) << l.error();
  EXPECT_EQ(l->tp, 8);
  EXPECT_EQ(l->pp, 2);
  EXPECT_EQ(l->dp, 4);
  EXPECT_EQ(l->order, (std::vector<std::string>{"tp", "pp", "dp"}));
  auto defaults = st::parseRankLayout("dp=2");
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->order, (std::vector<std::string>{"dp", "tp", "pp"}));
  for (const char* bad : {"", "tp=0", "tp=x", "ep=2", "tp=2,tp=4", "tp", "tp=99999999999"}) {
    EXPECT_FALSE(st::parseRankLayout(bad).ok()) << bad;
  }
  EXPECT_NE(st::parseRankLayout("ep=2").error().find("ep=2"), std::string::npos);
  EXPECT_NE(st::parseRankLayout("tp=2,tp=4").error().find("tp given twice"), std::string::npos);
}

TEST(TraceReplay, PlacementKeepsTpGroupsInsideANvlinkDomain) {
  // 72-GPU domains, tp=8: 9 groups a domain; group 9 starts the second domain at GPU 72.
  auto l = st::parseRankLayout("tp=8,dp=10");
  ASSERT_TRUE(l.ok());
  auto gpus = st::placeRanks(80, *l, 72, 1000);
  ASSERT_TRUE(gpus.ok()) << gpus.error();
  EXPECT_EQ((*gpus)[0], 0u);
  EXPECT_EQ((*gpus)[71], 71u);  // group 8, tp rank 7
  EXPECT_EQ((*gpus)[72], 72u);  // group 9 opens domain 1
  EXPECT_EQ((*gpus)[79], 79u);
  // 7-GPU domains, tp=2: 3 groups a domain, GPU 6 of each stays free.
  auto l2 = st::parseRankLayout("tp=2,dp=4");
  auto g2 = st::placeRanks(8, *l2, 7, 100);
  ASSERT_TRUE(g2.ok());
  EXPECT_EQ(*g2, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 7, 8}));
  // Rank order: "dp=2,tp=2" numbers the DP replicas fastest: rank 1 is replica 1, tp rank 0.
  auto l3 = st::parseRankLayout("dp=2,tp=2");
  auto g3 = st::placeRanks(4, *l3, 8, 8);
  ASSERT_TRUE(g3.ok());
  EXPECT_EQ(*g3, (std::vector<uint32_t>{0, 2, 1, 3}));
  // Refusals.
  EXPECT_NE(st::placeRanks(128, *l, 72, 1000).error().find("world size is 128"), std::string::npos);
  auto big = st::parseRankLayout("tp=128");
  EXPECT_NE(st::placeRanks(128, *big, 72, 1000).error().find("NVLink"), std::string::npos);
  EXPECT_FALSE(st::placeRanks(80, *l, 72, 79).ok());
  EXPECT_FALSE(st::identityPlacement(128, 64).ok());
}

TEST(TraceReplay, RankMapFileIsCheckedLineByLine) {
  const auto dir = testpaths::freshDir("rankmap-test");
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& text) {
    std::ofstream(dir / "map.txt") << text;
    return dir / "map.txt";
  };
  auto ok = st::readRankMapFile(write("# rank gpu\n0 7\n\n1 3  # second\n"), 2, 8);
  ASSERT_TRUE(ok.ok()) << ok.error();
  EXPECT_EQ(*ok, (std::vector<uint32_t>{7, 3}));
  EXPECT_NE(st::readRankMapFile(write("0 7\n1 7\n"), 2, 8).error().find(":2: GPU 7 already"),
            std::string::npos);
  EXPECT_NE(st::readRankMapFile(write("0 7\n"), 2, 8).error().find("rank 1 has no GPU"),
            std::string::npos);
  EXPECT_NE(st::readRankMapFile(write("0 9\n"), 2, 8).error().find(":1: GPU 9 outside"),
            std::string::npos);
  EXPECT_NE(st::readRankMapFile(write("0 a\n"), 2, 8).error().find(":1: expected"),
            std::string::npos);
  EXPECT_NE(st::readRankMapFile(write("2 1\n"), 2, 8).error().find("rank 2 outside"),
            std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(TraceReplay, ByteFlowIntegratesRates) {
  // 100 B over [0, 10) ns and 50 B over [5, 10): 10 B/ns then 20 B/ns.
  st::ByteFlow f({{0, 10, 100}, {5, 10, 50}, {20, 20, 7}});
  EXPECT_DOUBLE_EQ(f.bytesIn(0, 5), 50);
  EXPECT_DOUBLE_EQ(f.bytesIn(5, 10), 100);
  EXPECT_DOUBLE_EQ(f.bytesIn(-100, 100), 157);
  EXPECT_DOUBLE_EQ(f.bytesIn(3, 3), 0);
  EXPECT_DOUBLE_EQ(f.bytesBefore(20), 150);
  EXPECT_DOUBLE_EQ(f.bytesBefore(21), 157);
}

TEST(TraceReplay, WireBytesFollowNcclTestsBusFactors) {
  EXPECT_DOUBLE_EQ(st::wireBytes("allreduce", 8e6, 8), 8e6 * 2 * 7 / 8);
  EXPECT_DOUBLE_EQ(st::wireBytes("allgather", 1e6, 4), 4e6 * 3 / 4);
  EXPECT_DOUBLE_EQ(st::wireBytes("alltoall", 1e6, 128), 1e6 * 127 / 128);
  EXPECT_DOUBLE_EQ(st::wireBytes("sendrecv", 5e5, 128), 5e5);
  EXPECT_DOUBLE_EQ(st::wireBytes("allreduce", -1, 8), 0);
}

TEST(TraceReplay, DeviceNoteWhenTheCatalogLacksTheDevice) {
  const std::vector<std::string> catalog = {"NVIDIA H100 SXM5 80GB", "NVIDIA A100 SXM4 80GB",
                                            "AMD Instinct MI300X"};
  EXPECT_EQ(st::deviceNote("NVIDIA H100 80GB HBM3", "B200", catalog), "");
  EXPECT_NE(st::deviceNote("Tesla V100-SXM2-32GB", "B200", catalog).find("catalog lacks"),
            std::string::npos);
  // The A100 of the test data names no 80 GB: the 40 GB board is not the catalog's.
  EXPECT_NE(st::deviceNote("NVIDIA A100-PG509-200", "B200", catalog).find("catalog lacks"),
            std::string::npos);
  EXPECT_NE(st::deviceNote("AMD Radeon Graphics", "B200", catalog).find("replayed on B200"),
            std::string::npos);
  EXPECT_NE(st::deviceNote("unknown", "B200", catalog).find("names no device"), std::string::npos);
}

TEST(TraceReplay, SampledRanksActivityMatchesTheRawEvents) {
  const st::Replay replay = sampledReplay();
  const std::vector<RawKernel> k0 = rawKernels("sampled_rank-0.json.gz");
  const std::vector<RawKernel> k1 = rawKernels("sampled_rank-1.json.gz");
  const int64_t o0 = rawOrigin("sampled_rank-0.json.gz"), o1 = rawOrigin("sampled_rank-1.json.gz");
  const int64_t origin = std::min(o0, o1);
  EXPECT_EQ(replay.offset_ns(0), o0 - origin);
  EXPECT_EQ(replay.offset_ns(1), o1 - origin);
  const int64_t window = st::Replay::STILL_WINDOW_NS;
  int busyWindows = 0;
  for (double t_s : {0.05, 0.2, 0.45, 0.7, 0.95, 1.15}) {
    const int64_t from = int64_t(t_s * 1e9), to = from + window;
    for (size_t i = 0; i < 2; ++i) {
      const std::vector<RawKernel>& k = i == 0 ? k0 : k1;
      const st::GpuActivity a = replay.activity(i, from, to);
      const double compute = coveredShare(k, false, origin + from, origin + to);
      const double comm = coveredShare(k, true, origin + from, origin + to);
      EXPECT_NEAR(a.compute, compute, 0.01) << "rank " << i << " t " << t_s;
      EXPECT_NEAR(a.communication, comm, 0.01) << "rank " << i << " t " << t_s;
      EXPECT_LE(a.tensor, a.compute + 1e-12);
      EXPECT_GE(a.fabric_Bps, 0.0);
      if (compute + comm > 0.05) ++busyWindows;
    }
  }
  EXPECT_GT(busyWindows, 4);  // the times chosen see work, not only gaps
}

TEST(TraceReplay, SnapshotMarksUntracedGpusAndCarriesTheFabricTraffic) {
  st::Replay replay = sampledReplay();
  sim::engine::Snapshot s = engine405b()->snapshot();
  const sim::engine::Cluster& c = *s.cluster;
  // The NCCL kernel running at 0.5 s on rank 0 (sendrecv among 128 ranks: through the NIC).
  int64_t from = -1;
  for (int64_t t = 0; t < replay.span_ns(); t += 1'000'000) {
    if (replay.activity(0, t, t + st::Replay::STILL_WINDOW_NS).fabric_Bps > 0) {
      from = t;
      break;
    }
  }
  ASSERT_GE(from, 0) << "no fabric traffic found in rank 0's trace";
  const int64_t to = from + st::Replay::STILL_WINDOW_NS;
  replay.apply(from, to, s);
  ASSERT_EQ(s.gpuNoData.size(), c.gpuCount());
  EXPECT_EQ(s.gpuNoData[0], 0);
  EXPECT_EQ(s.gpuNoData[1], 0);
  for (uint32_t g : {2u, 3u, 71u, 100u}) {
    EXPECT_EQ(s.gpuNoData[g], 1) << g;
    EXPECT_EQ(s.gpuUtilisation[g], 0.0f) << g;
    EXPECT_EQ(s.linkUtilisation[c.gpuLink[g]], 0.0f) << g;
  }
  const st::GpuActivity a = replay.activity(0, from, to);
  EXPECT_FLOAT_EQ(s.gpuUtilisation[0], float(a.tensor));
  const uint32_t nic = c.gpuLink[0];
  EXPECT_NEAR(s.linkUtilisation[nic], std::min(1.0, a.fabric_Bps / c.links[nic].capacity_Bps),
              1e-6);
  EXPECT_DOUBLE_EQ(s.time_s, double(to) * 1e-9);
  EXPECT_EQ(sim::engine::checkSnapshot(s), "");
}

TEST(TraceReplay, HandRankBytesGoToNvlinkOrTheFabricByTheirGroup) {
  const sim::engine::Cluster& c = engine405b()->cluster();
  const int64_t ms = 1'000'000;
  // Group of 8 fits the NVLink domain; group of 128 does not.
  for (int64_t group : {int64_t(8), int64_t(128)}) {
    std::vector<st::RankTrace> ranks{handRank(0, 128, group)};
    auto replay =
        st::Replay::create(std::move(ranks), *st::identityPlacement(128, c.gpuCount()), c);
    ASSERT_TRUE(replay.ok()) << replay.error();
    // [5, 10) ms: GEMM and half the all-reduce: 4 MB input, wire 2 x 7/8 of it (group 8) or
    // 2 x 127/128 (group 128) in 5 ms.
    const st::GpuActivity a = replay->activity(0, 5 * ms, 10 * ms);
    const double n = double(group);
    const double wire_Bps = 4e6 * 2 * (n - 1) / n / 5e-3;
    EXPECT_DOUBLE_EQ(a.tensor, 1.0);
    EXPECT_DOUBLE_EQ(a.communication, 1.0);
    EXPECT_NEAR(group == 8 ? a.nvlink_Bps : a.fabric_Bps, wire_Bps, 1e-6 * wire_Bps);
    EXPECT_EQ(group == 8 ? a.fabric_Bps : a.nvlink_Bps, 0.0);
    EXPECT_NEAR(a.hbm_Bps, 4e6 / 5e-3, 1.0);  // the NCCL input read from HBM
    // [20, 21) ms: the memcpy's 1 MB in 1 ms, nothing on the tensor cores.
    const st::GpuActivity m = replay->activity(0, 20 * ms, 21 * ms);
    EXPECT_NEAR(m.hbm_Bps, 1e9, 1.0);
    EXPECT_EQ(m.tensor, 0.0);
    // [15, 20) ms: idle.
    const st::GpuActivity idle = replay->activity(0, 15 * ms, 20 * ms);
    EXPECT_EQ(idle.tensor + idle.communication + idle.hbm_Bps, 0.0);
  }
}

TEST(TraceReplay, CreateRefusesInconsistentRanks) {
  const sim::engine::Cluster& c = engine405b()->cluster();
  const auto gpus = *st::identityPlacement(4, c.gpuCount());
  {
    std::vector<st::RankTrace> r{handRank(0, 4, 4), handRank(0, 4, 4)};
    auto replay = st::Replay::create(std::move(r), gpus, c);
    ASSERT_FALSE(replay.ok());
    EXPECT_NE(replay.error().find("rank 0 is also hand0"), std::string::npos);
  }
  {
    std::vector<st::RankTrace> r{handRank(0, 4, 4), handRank(1, 8, 4)};
    auto replay = st::Replay::create(std::move(r), gpus, c);
    ASSERT_FALSE(replay.ok());
    EXPECT_NE(replay.error().find("world_size 8 differs"), std::string::npos);
  }
  {
    std::vector<st::RankTrace> r{handRank(0, 4, 4)};
    EXPECT_FALSE(st::Replay::create(std::move(r), {0, 1}, c).ok());
  }
}
