// The streaming Kineto reader on small hand-written traces: fields and their fallbacks, missing
// fields, CPU-only ranks, ROCm and newer NCCL names, flow events, gzip, and the refusals of
// truncated, malformed and hostile files (each names the file, the event and the field).
#include <gtest/gtest.h>

#include "sim/trace/breakdown.h"
#include "sim/trace/kineto.h"
#include "sim/trace/rank_trace.h"
#include "tests/sim/trace_test_util.h"

namespace st = sim::trace;

namespace {

const std::string NAME = "rank.json";

std::string wrap(const std::string& events, const std::string& head = "") {
  return "{" + head + "\"traceEvents\": [" + events + "]}";
}

std::string kernel(const std::string& name, const std::string& ts, const std::string& dur,
                   const std::string& args = R"("device": 0, "stream": 7)") {
  return R"({"ph": "X", "cat": "kernel", "name": ")" + name + R"(", "pid": 0, "tid": 7, "ts": )" +
         ts + R"(, "dur": )" + dur + R"(, "args": {)" + args + "}}";
}

sim::Result<st::RawTrace> readText(const std::string& text, const st::ReadLimits& limits = {}) {
  return st::readKinetoBytes(text, NAME, limits);
}

// The refusal message of `text`, which must be refused.
std::string refusal(const std::string& text, const st::ReadLimits& limits = {}) {
  auto r = readText(text, limits);
  if (r.ok()) return "(accepted)";
  return r.error();
}

}  // namespace

TEST(TraceReader, ReadsRankDeviceAndGpuEventsWithFractionalNanoseconds) {
  const std::string text =
      wrap(kernel("volta_sgemm_64x64_nt", "1712195495519689.047", "4.928",
                  R"("device": 1, "stream": 7, "correlation": 42, "External id": 9)"),
           R"("distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 8},
         "deviceProperties": [{"id": 0, "name": "GPU zero"}, {"id": 1, "name": "GPU one"}],)");
  auto raw = readText(text);
  ASSERT_TRUE(raw.ok()) << raw.error();
  EXPECT_EQ(raw->rank, 3);
  EXPECT_EQ(raw->worldSize, 8);
  ASSERT_EQ(raw->gpu.size(), 1u);
  EXPECT_EQ(raw->gpu[0].start_ns, 1712195495519689047);  // the decimal text, to the nanosecond
  EXPECT_EQ(raw->gpu[0].dur_ns, 4928);
  EXPECT_EQ(raw->gpu[0].device, 1);
  EXPECT_EQ(raw->gpu[0].correlation, 42);
  const st::RankTrace rank = st::buildRankTrace(std::move(*raw));
  EXPECT_EQ(rank.device, "GPU one");  // deviceProperties entry of the events' device
  EXPECT_EQ(rank.originNs, 1712195495519689047);
  EXPECT_EQ(rank.intervals[0].cls, st::GpuClass::Gemm);
}

TEST(TraceReader, MissingFieldsFallBack) {
  // No args: device from pid, stream from tid. No dur: dropped and counted. No cat: not GPU.
  const std::string text = wrap(
      R"({"ph": "X", "cat": "kernel", "name": "k", "pid": 2, "tid": 5, "ts": 10, "dur": 1},
         {"ph": "X", "cat": "kernel", "name": "k", "pid": 2, "tid": 5, "ts": 20},
         {"ph": "X", "name": "k", "pid": 2, "tid": 5, "ts": 30, "dur": 1},
         {"cat": "gpu_memcpy", "ts": 40, "dur": 2})");
  auto raw = readText(text);
  ASSERT_TRUE(raw.ok()) << raw.error();
  ASSERT_EQ(raw->gpu.size(), 2u);
  EXPECT_EQ(raw->gpu[0].device, 2);
  EXPECT_EQ(raw->gpu[0].stream, 5);
  EXPECT_EQ(raw->gpu[1].kind, st::GpuEventKind::Memcpy);
  EXPECT_EQ(raw->gpuWithoutTime, 1u);
  EXPECT_EQ(raw->rank, -1);
  std::vector<st::RankTrace> ranks;
  ranks.push_back(st::buildRankTrace(std::move(*raw)));
  ranks.push_back(ranks[0]);
  st::fillMissingRanks(ranks);
  EXPECT_EQ(ranks[1].rank, 1);
  EXPECT_EQ(ranks[1].worldSize, 2);
  EXPECT_EQ(ranks[0].device, "unknown");  // no deviceProperties
}

TEST(TraceReader, CpuOnlyRankHasAnAllZeroBreakdown) {
  auto raw = readText(wrap(R"({"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1,
                           "ts": 5, "dur": 3})",
                           R"("distributedInfo": {"rank": 0, "world_size": 1},)"));
  ASSERT_TRUE(raw.ok()) << raw.error();
  const st::RankTrace rank = st::buildRankTrace(std::move(*raw));
  EXPECT_TRUE(rank.intervals.empty());
  const st::Breakdown b = st::breakdown(rank);
  EXPECT_EQ(b.gpuEvents, 0);
  EXPECT_EQ(b.times.span_s, 0.0);
  EXPECT_EQ(b.hta.idlePct, 0.0);
  EXPECT_EQ(rank.device, "unknown");
}

TEST(TraceReader, FlowsMetadataAndInstantsAreNotGpuWork) {
  auto raw = readText(wrap(R"({"ph": "s", "id": 1, "pid": 1, "tid": 1, "ts": 1, "cat": "ac2g"},
      {"ph": "f", "id": 1, "pid": 0, "tid": 7, "ts": 2, "cat": "ac2g", "bp": "e"},
      {"ph": "f", "id": 1, "pid": 0, "tid": 7, "ts": 2, "cat": "kernel", "name": "flow"},
      {"name": "process_name", "ph": "M", "pid": 0, "tid": 0, "args": {"name": "python"}},
      {"name": "Iteration Start", "ph": "i", "s": "g", "pid": "Traces", "tid": "T", "ts": 3})"));
  ASSERT_TRUE(raw.ok()) << raw.error();
  EXPECT_TRUE(raw->gpu.empty());
  EXPECT_EQ(raw->flowEvents, 3u);
  EXPECT_EQ(raw->events, 5u);
}

TEST(TraceReader, RocmAndNewerNcclNamesAreClassified) {
  // A ROCm GEMM (Tensile's Cijk_), a ROCm runtime call whose args.stream is a string (allowed
  // where the reader does not use it), and an NCCL >= 2.19 kernel whose kind comes from the
  // nccl:* annotation around its launch.
  const std::string text =
      wrap(kernel("Cijk_Alik_Bljk_SB_MT64x16x32_MI16x16x1", "100", "10") + "," +
           R"({"ph": "X", "cat": "cuda_runtime", "name": "hipMemcpyWithStream", "pid": 9, "tid": 9,
          "ts": 50, "dur": 1, "args": {"stream": "0x0", "correlation": 5}},
         {"ph": "X", "cat": "user_annotation", "name": "nccl:reduce_scatter", "pid": 9, "tid": 9,
          "ts": 200, "dur": 10, "args": {"Input Dims": [[1024, 2]], "Input type": ["c10::BFloat16"]}},
         {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 9,
          "ts": 205, "dur": 1, "args": {"correlation": 6}},)" +
           kernel("ncclDevKernel_Generic_4(ncclDevKernelArgsStorage<4096ul>)", "300", "20",
                  R"("device": 0, "stream": 9, "correlation": 6)"));
  auto raw = readText(text);
  ASSERT_TRUE(raw.ok()) << raw.error();
  const st::RankTrace rank = st::buildRankTrace(std::move(*raw));
  ASSERT_EQ(rank.intervals.size(), 2u);
  EXPECT_EQ(rank.intervals[0].cls, st::GpuClass::Gemm);
  EXPECT_EQ(rank.intervals[1].cls, st::GpuClass::Communication);
  ASSERT_EQ(rank.collectives.size(), 1u);
  EXPECT_EQ(rank.collectives[0].kind, "reducescatter");
  EXPECT_EQ(rank.collectives[0].bytes, 1024 * 2 * 2);  // BFloat16: 2 bytes an element
  EXPECT_EQ(rank.collectives[0].source, "nccl annotation");
}

TEST(TraceReader, BareArrayFormIsATrace) {
  auto raw = readText(std::string("[").append(kernel("k", "1", "1")).append("]"));
  ASSERT_TRUE(raw.ok()) << raw.error();
  EXPECT_EQ(raw->gpu.size(), 1u);
}

TEST(TraceReader, GzipIsDetectedByItsMagicAndConcatenatedMembersJoin) {
  const std::string text = wrap(kernel("k", "1", "1") + "," + kernel("k", "5", "1"));
  auto plain = readText(text);
  auto zipped = readText(tracetest::gzip(text));
  ASSERT_TRUE(plain.ok() && zipped.ok()) << zipped.error();
  EXPECT_TRUE(zipped->compressed);
  EXPECT_EQ(zipped->gpu.size(), plain->gpu.size());
  // Two gzip members, as `cat a.gz b.gz` makes: one text.
  const size_t half = text.size() / 2;
  auto joined =
      readText(tracetest::gzip(text.substr(0, half)) + tracetest::gzip(text.substr(half)));
  ASSERT_TRUE(joined.ok()) << joined.error();
  EXPECT_EQ(joined->gpu.size(), 2u);
}

TEST(TraceReader, TruncatedGzipIsRefused) {
  const std::string zipped = tracetest::gzip(wrap(kernel("k", "1", "1")));
  const std::string message = refusal(zipped.substr(0, zipped.size() - 12));
  EXPECT_NE(message.find(NAME), std::string::npos) << message;
  EXPECT_NE(message.find("gzip data truncated"), std::string::npos) << message;
  std::string corrupt = zipped;
  corrupt[corrupt.size() / 2] ^= 0x55;
  corrupt[corrupt.size() / 2 + 1] ^= 0x55;
  EXPECT_NE(refusal(corrupt).find("gzip"), std::string::npos) << refusal(corrupt);
  EXPECT_NE(refusal(zipped + "junk").find("after the end of the gzip stream"), std::string::npos);
}

TEST(TraceReader, TruncatedJsonIsRefusedAtItsEnd) {
  const std::string text = wrap(kernel("k", "1", "1") + "," + kernel("k", "5", "1"));
  for (size_t cut : {size_t(1), text.size() / 3, text.size() / 2, text.size() - 1}) {
    const std::string message = refusal(text.substr(0, cut));
    EXPECT_NE(message.find(NAME + ": "), std::string::npos) << message;
    EXPECT_NE(message.find("truncated"), std::string::npos) << cut << ": " << message;
  }
  EXPECT_NE(refusal("").find("truncated"), std::string::npos);
}

TEST(TraceReader, MalformedJsonIsRefusedWithItsByteOffset) {
  const std::string missingComma = refusal(R"({"traceEvents": [{"cat": "x"} {"cat": "y"}]})");
  EXPECT_NE(missingComma.find("byte 30: expected ',' or ']'"), std::string::npos) << missingComma;
  EXPECT_NE(refusal(R"({"traceEvents": [],})").find("expected a member name"), std::string::npos);
  EXPECT_NE(refusal(R"({"traceEvents": [{"ts": 01}]})").find("expected ',' or '}'"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"traceEvents": [{"x": tru}]})").find("malformed literal"),
            std::string::npos);
  EXPECT_NE(refusal("{\"traceEvents\": [{\"x\": \"a\tb\"}]}").find("control character"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"traceEvents": []} x)").find("after the end"), std::string::npos);
  EXPECT_NE(refusal(R"({"other": 1})").find("no 'traceEvents'"), std::string::npos);
  EXPECT_NE(refusal(R"("text")").find("top level"), std::string::npos);
}

TEST(TraceReader, WrongTypesAreRefusedNamingTheEventAndField) {
  const std::string ts = refusal(wrap(kernel("k", "1", "1") + "," + kernel("k", R"("12")", "1")));
  EXPECT_NE(ts.find("traceEvents[1]"), std::string::npos) << ts;
  EXPECT_NE(ts.find("'ts' must be a number"), std::string::npos) << ts;
  EXPECT_NE(refusal(wrap(R"({"cat": 7})")).find("'cat' must be a string"), std::string::npos);
  EXPECT_NE(refusal(wrap(R"({"cat": "kernel", "args": []})")).find("'args' must be an object"),
            std::string::npos);
  const std::string stream = refusal(wrap(kernel("k", "1", "1", R"("stream": "seven")")));
  EXPECT_NE(stream.find("'args.stream' has the wrong type"), std::string::npos) << stream;
  EXPECT_NE(refusal(wrap(R"(7)")).find("the event is not an object"), std::string::npos);
  EXPECT_NE(refusal(R"({"traceEvents": {}})").find("'traceEvents' must be an array"),
            std::string::npos);
  EXPECT_NE(refusal(wrap("", R"("distributedInfo": {"rank": "0"},)")).find("distributedInfo.rank"),
            std::string::npos);
  EXPECT_NE(refusal(wrap("", R"("distributedInfo": {"rank": 4, "world_size": 2},)"))
                .find("is not below its world_size"),
            std::string::npos);
}

TEST(TraceReader, HugeNumbersAndNegativeDurationsAreRefused) {
  EXPECT_NE(refusal(wrap(kernel("k", "1e400", "1"))).find("'ts' is out of range"),
            std::string::npos);
  EXPECT_NE(refusal(wrap(kernel("k", "1", "123456789012345678901234567890")))
                .find("'dur' is out of range"),
            std::string::npos);
  EXPECT_NE(refusal(wrap(kernel("k", "1", "-5"))).find("'dur' is negative"), std::string::npos);
  EXPECT_NE(refusal(wrap(kernel("k", "1", "1", R"("stream": 1e300)"))).find("args.stream"),
            std::string::npos);
  const std::string digits(80, '7');
  EXPECT_NE(refusal(wrap(kernel("k", digits, "1"))).find("number longer than"), std::string::npos);
}

TEST(TraceReader, DeepNestingIsRefusedWithoutRecursing) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const std::string message = refusal(wrap(R"({"cat": "x", "junk": )" + deep + "}"));
  EXPECT_NE(message.find("nested deeper than 64 levels"), std::string::npos) << message;
}

TEST(TraceReader, GiganticStringsAreRefused) {
  const std::string big(2u << 20, 'a');  // 2 MiB, over the 1 MiB cap
  const std::string message = refusal(wrap(kernel(big, "1", "1")));
  EXPECT_NE(message.find("string longer than 1048576 bytes"), std::string::npos) << message;
  // Also where the value is skipped, not kept.
  EXPECT_NE(refusal(wrap(R"({"skipped": ")" + big + R"("})")).find("string longer"),
            std::string::npos);
}

TEST(TraceReader, DuplicateKeysTheReaderUsesAreRefused) {
  EXPECT_NE(
      refusal(wrap(R"({"cat": "kernel", "ts": 1, "ts": 2, "dur": 1})")).find("'ts' appears twice"),
      std::string::npos);
  EXPECT_NE(refusal(wrap(kernel("k", "1", "1", R"("stream": 1, "stream": 2)")))
                .find("'args.stream' appears twice"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"traceEvents": [], "traceEvents": []})").find("appears twice"),
            std::string::npos);
  // Keys it does not read may repeat: they change nothing.
  auto ok = readText(wrap(R"({"cat": "kernel", "ph": "X", "ts": 1, "dur": 1, "id": 1, "id": 2})"));
  EXPECT_TRUE(ok.ok()) << ok.error();
}

TEST(TraceReader, CapsOnEventsAndRecordsBoundTheWork) {
  st::ReadLimits few;
  few.maxEvents = 2;
  const std::string three =
      wrap(kernel("k", "1", "1") + "," + kernel("k", "2", "1") + "," + kernel("k", "3", "1"));
  EXPECT_NE(refusal(three, few).find("more than 2 events"), std::string::npos);
  st::ReadLimits small;
  small.maxRecordBytes = 100;
  EXPECT_NE(refusal(three, small).find("memory budget"), std::string::npos)
      << refusal(three, small);
  st::ReadLimits names;
  names.maxNames = 1;
  EXPECT_NE(refusal(wrap(kernel("a", "1", "1") + "," + kernel("b", "2", "1")), names)
                .find("distinct names"),
            std::string::npos);
}

TEST(TraceReader, MissingFileIsRefusedNamingIt) {
  auto r = st::readKinetoFile("/nonexistent/trace.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("/nonexistent/trace.json"), std::string::npos);
}

TEST(TraceReader, EscapesAndBadUtf8InNamesComeOutPrintable) {
  auto raw = readText(wrap(kernel(R"(k\u00e9\n\ud83d\ude80\ud800)", "1", "1") + "," +
                           kernel("bad \xff\xfe utf8", "2", "1")));
  ASSERT_TRUE(raw.ok()) << raw.error();
  EXPECT_EQ(raw->names[raw->gpu[0].name], "k\xc3\xa9?\xf0\x9f\x9a\x80\xef\xbf\xbd");
  EXPECT_EQ(raw->names[raw->gpu[1].name], "bad ?? utf8");
}
