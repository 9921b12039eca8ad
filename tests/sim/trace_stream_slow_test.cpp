// A 1 GiB trace streams through the reader in bounded memory: made here, into a temporary
// folder, by repeating the a100 trace's own events (copied verbatim from its decompressed text)
// 100+ times. Repeating identical intervals leaves every union unchanged, so the big trace's
// breakdown must equal the original's while its event and collective counts multiply. The load
// runs in a child process so its peak resident memory (wait4's ru_maxrss) is its own. Labelled
// "slow" (tests/CMakeLists.txt), outside the sanitizer subset.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "sim/trace/breakdown.h"
#include "sim/trace/rank_trace.h"
#include "tests/sim/trace_test_util.h"

namespace st = sim::trace;
namespace fs = std::filesystem;

namespace {

constexpr uint64_t TARGET_BYTES = 1ull << 30;        // 1 GiB
constexpr long PEAK_LIMIT_KIB = 600'000'000 / 1024;  // 600 MB resident

// The text between the brackets of "traceEvents": [ ... ], found by a string-aware scan.
std::string eventsBody(const std::string& text) {
  const size_t key = text.find("\"traceEvents\"");
  const size_t open = text.find('[', key);
  int depth = 0;
  bool inString = false;
  for (size_t i = open; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if (c == ']' || c == '}') {
      if (--depth == 0) return text.substr(open + 1, i - open - 1);
    }
  }
  return "";
}

struct Figures {
  int ok = 0;
  int64_t gpuEvents = 0, collectiveCalls = 0, collectiveBytes = 0;
  double span_s = 0, compute_s = 0, communication_s = 0, exposed_s = 0, memcpy_s = 0, idle_s = 0;
};

Figures figuresOf(const st::RankTrace& rank) {
  const st::Breakdown b = st::breakdown(rank);
  Figures f{1,
            b.gpuEvents,
            0,
            0,
            b.times.span_s,
            b.times.compute_s,
            b.times.communication_s,
            b.times.exposedCommunication_s,
            b.times.memcpy_s,
            b.times.idle_s};
  for (const st::CollectiveSummary& c : b.collectives) {
    f.collectiveCalls += c.count;
    f.collectiveBytes += c.bytes;
  }
  return f;
}

}  // namespace

TEST(TraceStreaming, OneGibibyteTraceStreamsInBoundedMemory) {
  const fs::path original = tracetest::realTrace("a100_2rank_allreduce.json.gz");
  auto small = st::loadRankTrace(original);
  ASSERT_TRUE(small.ok()) << small.error();
  const Figures once = figuresOf(*small);

  const fs::path dir = fs::temp_directory_path() / ("dcwalk-trace-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path big = dir / "repeated.json";
  uint64_t copies = 0, written = 0;
  {
    std::string body = eventsBody(tracetest::gunzip(tracetest::readBytes(original)));
    ASSERT_GT(body.size(), 1000000u);
    std::FILE* out = std::fopen(big.c_str(), "wb");
    ASSERT_NE(out, nullptr);
    const std::string head =
        R"({"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 2},
  "deviceProperties": [{"id": 0, "name": "NVIDIA A100-PG509-200"}], "traceEvents": [)";
    written += std::fwrite(head.data(), 1, head.size(), out);
    while (written < TARGET_BYTES) {
      if (copies > 0) written += std::fwrite(",", 1, 1, out);
      written += std::fwrite(body.data(), 1, body.size(), out);
      ++copies;
    }
    written += std::fwrite("]}\n", 1, 3, out);
    ASSERT_EQ(std::fclose(out), 0);
  }
  ASSERT_EQ(fs::file_size(big), written);
  ASSERT_GE(written, TARGET_BYTES);

  int pipeFds[2];
  ASSERT_EQ(pipe(pipeFds), 0);
  const auto started = std::chrono::steady_clock::now();
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(pipeFds[0]);
    Figures f;
    auto rank = st::loadRankTrace(big);
    if (rank.ok()) f = figuresOf(*rank);
    const ssize_t n = write(pipeFds[1], &f, sizeof f);
    _exit(n == sizeof f ? 0 : 1);
  }
  close(pipeFds[1]);
  Figures f;
  const ssize_t got = read(pipeFds[0], &f, sizeof f);
  close(pipeFds[0]);
  int status = 0;
  rusage usage{};
  ASSERT_EQ(wait4(child, &status, 0, &usage), child);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  fs::remove_all(dir);

  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  ASSERT_EQ(got, static_cast<ssize_t>(sizeof f));
  ASSERT_EQ(f.ok, 1) << "the 1 GiB trace was refused";
  std::printf("1 GiB trace: %llu bytes (%llu copies of a100's events), %.1f s, peak RSS %ld KiB\n",
              static_cast<unsigned long long>(written), static_cast<unsigned long long>(copies),
              seconds, usage.ru_maxrss);
  EXPECT_LE(usage.ru_maxrss, PEAK_LIMIT_KIB);
  EXPECT_EQ(f.gpuEvents, once.gpuEvents * static_cast<int64_t>(copies));
  EXPECT_EQ(f.collectiveCalls, once.collectiveCalls * static_cast<int64_t>(copies));
  EXPECT_EQ(f.collectiveBytes, once.collectiveBytes * static_cast<int64_t>(copies));
  for (auto [a, b] : {std::pair{f.span_s, once.span_s},
                      {f.compute_s, once.compute_s},
                      {f.communication_s, once.communication_s},
                      {f.exposed_s, once.exposed_s},
                      {f.memcpy_s, once.memcpy_s},
                      {f.idle_s, once.idle_s}}) {
    EXPECT_DOUBLE_EQ(a, b);
  }
}
