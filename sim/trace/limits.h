// The declared domain of a Kineto trace file: every cap the streaming reader applies, so a hostile
// file is refused with a message instead of taking unbounded memory or time. Defaults are
// generous for real traces (a 1 GB capture is far inside them); tests lower them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sim::trace {

struct ReadLimits {
  /// Longest string (key or value) after unescaping, bytes. Kernel names run to a few KiB.
  size_t maxStringBytes = 1u << 20;
  /// Deepest nesting of objects and arrays (Kineto's own structure needs 5).
  int maxDepth = 64;
  /// Most entries in `traceEvents` (about 25 GB of JSON at Kineto's ~250 bytes an event).
  uint64_t maxEvents = 100'000'000;
  /// Bytes of compact records kept while streaming (GPU events, launches, annotations), of all
  /// the files one command reads (see recordBytesHeld).
  uint64_t maxRecordBytes = 1ull << 30;
  /// Distinct interned names (kernel names, collective kinds, dtypes) and their total bytes.
  size_t maxNames = 1u << 20;
  uint64_t maxNameBytes = 64ull << 20;
  /// Decoded (after gunzip) bytes of one file: 16 GiB, past the ~12 GiB of text 100 M events take
  /// at the JSON readers' pace.
  uint64_t maxDecodedBytes = 16ull << 30;
  /// Decoded bytes per compressed byte of a gzipped file, once past `ratioCheckAfterBytes`: Kineto
  /// JSON gzips 5-20:1, whitespace or one repeated event 1000:1 (a gzip bomb: 67 MB that inflate
  /// to 64 GiB), so a bomb is refused within its first `ratioCheckAfterBytes` + 256 KiB.
  uint64_t maxCompressionRatio = 200;
  uint64_t ratioCheckAfterBytes = 64ull << 20;
  /// Record bytes that earlier files of the same command already hold: `maxRecordBytes` is the
  /// budget of all of one command's trace files together (loadRankTraces sets it), not one's.
  uint64_t recordBytesHeld = 0;
};

/// Longest number literal accepted, characters (int64 needs 20; Kineto writes at most ~25).
inline constexpr size_t MAX_NUMBER_CHARS = 64;
/// |ts| at most 4e18 ns (4e15 us from the trace's zero: epoch-based ts reach the year 2096) and
/// dur at most 1e18 ns (31 years), so differences of ts plus a dur never overflow int64.
inline constexpr int64_t MAX_TS_NS = 4'000'000'000'000'000'000;
inline constexpr int64_t MAX_DUR_NS = 1'000'000'000'000'000'000;
/// Ranks, world sizes: at most 2^24 (16.7 M GPUs).
inline constexpr int64_t MAX_WORLD_SIZE = int64_t(1) << 24;

}  // namespace sim::trace
