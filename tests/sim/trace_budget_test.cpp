// Issue 40: trace memory is budgeted across all the files of one command (eight traces each
// inside every cap ended in std::bad_alloc together), and a gzip bomb or an endless text is
// refused early naming the file. Inputs are made here, with caps lowered for the test.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/trace/kineto.h"
#include "sim/trace/rank_trace.h"
#include "tests/common/paths.h"
#include "tests/sim/trace_test_util.h"

namespace st = sim::trace;

namespace {

// A Kineto trace of `kernels` kernels on one stream, 1 us each.
std::string kernelTrace(int kernels) {
  std::string text = R"({"traceEvents": [)";
  for (int i = 0; i < kernels; ++i) {
    text += std::string(i ? "," : "") + R"({"ph": "X", "cat": "kernel", "name": "k", "ts": )" +
            std::to_string(2 * i) + R"(, "dur": 1, "pid": 0, "tid": 7})";
  }
  return text + "]}";
}

std::filesystem::path writeFile(const std::string& name, const std::string& bytes) {
  static const testpaths::TempDir folder("trace-budget");
  std::ofstream(folder.path / name, std::ios::binary) << bytes;
  return folder.path / name;
}

bool says(const std::string& error, const std::string& words) {
  return error.find(words) != std::string::npos;
}

}  // namespace

TEST(TraceBudget, TheRecordBudgetHoldsAcrossEveryFileOfACommand) {
  const auto a = writeFile("rank0.json", kernelTrace(1000));
  const auto b = writeFile("rank1.json", kernelTrace(1000));
  // The smallest budget one file reads within (bisection: below it the file is refused).
  uint64_t lo = 0, hi = 1ull << 30;
  while (hi - lo > 1) {
    const uint64_t mid = lo + (hi - lo) / 2;
    (st::loadRankTrace(a, {.maxRecordBytes = mid}).ok() ? hi : lo) = mid;
  }
  const st::ReadLimits limits{.maxRecordBytes = hi};
  ASSERT_TRUE(st::loadRankTrace(a, limits).ok());
  ASSERT_TRUE(st::loadRankTrace(b, limits).ok());  // each file alone is inside the cap
  auto both = st::loadRankTraces({a.string(), b.string()}, limits);
  ASSERT_FALSE(both.ok()) << "two files read within the budget of one";
  EXPECT_TRUE(says(both.error(), b.string() + ": ")) << both.error();
  EXPECT_TRUE(says(both.error(), "memory budget")) << both.error();
  // With room for both they load, in order.
  auto loaded = st::loadRankTraces({a.string(), b.string()});
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  ASSERT_EQ(loaded->size(), 2u);
  EXPECT_EQ((*loaded)[1].file, b.string());
  EXPECT_GE(st::heldBytes((*loaded)[0]), 1000 * sizeof(st::GpuInterval));
}

TEST(TraceBudget, AGzipBombIsRefusedEarlyNamingTheFile) {
  // 8 MiB of whitespace inside a valid trace: deflate packs it about 1000:1.
  const std::string text = R"({"traceEvents": [)" + std::string(8u << 20, ' ') + "]}";
  const std::string packed = tracetest::gzip(text);
  ASSERT_GT(text.size() / packed.size(), 500u);
  const auto bomb = writeFile("bomb.json.gz", packed);
  const st::ReadLimits limits{.maxCompressionRatio = 100, .ratioCheckAfterBytes = 1u << 20};
  auto r = st::readKinetoFile(bomb, limits);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(says(r.error(), bomb.string() + ": ")) << r.error();
  EXPECT_TRUE(says(r.error(), "inflates more than 100:1")) << r.error();
  EXPECT_TRUE(says(r.error(), "gzip bomb")) << r.error();
  // Refused at the check, not at the end: the reader stopped within 1 MiB + one 1 MiB buffer.
  const size_t at = r.error().find("byte ");
  ASSERT_NE(at, std::string::npos) << r.error();
  EXPECT_LE(std::stoull(r.error().substr(at + 5)), 2u << 20) << r.error();
  // The same file read with a ratio that allows it is a (empty) trace: the ratio refused it.
  EXPECT_TRUE(
      st::readKinetoFile(bomb, {.maxCompressionRatio = 5000, .ratioCheckAfterBytes = 1u << 20})
          .ok());
}

TEST(TraceBudget, DecodedTextIsCappedPlainOrGzipped) {
  const std::string text = R"({"traceEvents": [)" + std::string(3u << 20, ' ') + "]}";
  const st::ReadLimits limits{.maxDecodedBytes = 1u << 20};
  for (const bool gz : {false, true}) {
    auto r = st::readKinetoBytes(gz ? tracetest::gzip(text) : text, "t.json", limits);
    ASSERT_FALSE(r.ok()) << gz;
    EXPECT_TRUE(says(r.error(), "t.json: ")) << r.error();
    EXPECT_TRUE(says(r.error(), "decodes to more than 1048576 bytes")) << r.error();
    EXPECT_TRUE(st::readKinetoBytes(gz ? tracetest::gzip(text) : text, "t.json").ok()) << gz;
  }
}
