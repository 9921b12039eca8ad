// One rank's GPU timeline, built from its Kineto trace: what the classification reports and what
// the replay plays. Times are integer nanoseconds from the rank's first GPU event (its origin),
// so every interval is >= 0. "GPU events" are the kernel, gpu_memcpy and gpu_memset categories.
//
// Replay use (per rank, per frame):
//   auto rank = sim::trace::loadRankTrace(path);          // or buildRankTrace(raw)
//   sim::trace::ActivityIndex activity(*rank);            // activity.h: O(log n) queries
//   activity.activeAt(t_ns) / activity.busyFraction(cls, t0_ns, t1_ns) / activity.collectiveAt(t)
//   rank->steps: ProfilerStep windows on the GPU clock, to pick a step by its number.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/result.h"
#include "sim/trace/classify.h"
#include "sim/trace/kineto.h"

namespace sim::trace {

/// A GPU stream: Kineto's args.device / args.stream (or pid / tid when args lack them).
struct GpuStream {
  int64_t device = 0;
  int64_t stream = 0;
};

/// One NCCL kernel's collective, from the best source the trace offers (see docs/trace.md).
struct Collective {
  std::string kind;        ///< collectiveKind() name, or "unknown"
  std::string algorithm;   ///< RING, TREE ...; "" when the trace does not say
  std::string protocol;    ///< LL, LL128, SIMPLE; "" when the trace does not say
  std::string dtype;       ///< element type as written, "" when unknown
  int64_t bytes = -1;      ///< this rank's input message, bytes; -1 when unknown
  int64_t groupSize = -1;  ///< ranks in the communicator, -1 when unknown
  /// Where the kind came from: "kernel args", "record_param_comms", "nccl annotation", "kernel
  /// name", or "" (unknown); where the bytes came from (the first three), or "".
  std::string source;
  std::string bytesSource;
};

/// One GPU event on the rank's timeline.
struct GpuInterval {
  int64_t start_ns = 0;  ///< from the rank's origin (first GPU event start), >= 0
  int64_t end_ns = 0;    ///< >= start_ns
  uint32_t stream = 0;   ///< index into RankTrace::streams
  GpuClass cls = GpuClass::OtherCompute;
  int32_t collective = -1;  ///< index into RankTrace::collectives (Communication), else -1
  int64_t step = -1;        ///< ProfilerStep number it was launched in, -1 when none
  int64_t bytes = -1;       ///< memcpy/memset bytes, or the collective's bytes; -1 unknown
  uint32_t name = NO_NAME;  ///< index into RankTrace::names
};

/// A ProfilerStep#N on the GPU clock: from the first start to the last end of the GPU events
/// whose launch (runtime call, matched by correlation id) fell inside the CPU-side annotation.
/// Consecutive windows may overlap (the GPU runs step N while the CPU launches N+1).
struct StepWindow {
  int64_t number = 0;
  int64_t start_ns = 0, end_ns = 0;  ///< from the origin; both 0 when it launched nothing
  int64_t gpuEvents = 0;
};

struct RankTrace {
  std::string file;
  int64_t rank = -1;                    ///< distributedInfo.rank, or set by fillMissingRanks
  int64_t worldSize = -1;               ///< distributedInfo.world_size, or set by fillMissingRanks
  bool rankFromTrace = false;           ///< whether rank and worldSize came from distributedInfo
  std::string device = "unknown";       ///< deviceProperties name of the busiest device
  int64_t deviceId = -1;                ///< that device's id, -1 without GPU events
  int64_t originNs = 0;                 ///< absolute trace time of the first GPU event, ns
  std::vector<GpuStream> streams;       ///< sorted by (device, stream)
  std::vector<GpuInterval> intervals;   ///< sorted by start, then end, then stream
  std::vector<Collective> collectives;  ///< one per NCCL kernel, in interval order
  std::vector<std::string> names;       ///< kernel and memcpy names
  std::vector<StepWindow> steps;        ///< sorted by number
  uint64_t events = 0, gpuWithoutTime = 0, flowEvents = 0;

  /// First GPU event start to last GPU event end, ns (0 without GPU events).
  int64_t span_ns() const;
  /// The step numbered `number`, or nullptr.
  const StepWindow* step(int64_t number) const;
};

/// Classifies and links the records of one trace (consumes them).
RankTrace buildRankTrace(RawTrace&& raw);
/// readKinetoFile + buildRankTrace.
Result<RankTrace> loadRankTrace(const std::filesystem::path& path, const ReadLimits& limits = {});
/// Bytes `rank` holds in memory (its arrays and strings): what it keeps of a command's budget.
uint64_t heldBytes(const RankTrace& rank);
/// loadRankTrace of every file in order, all within one memory budget (limits.maxRecordBytes):
/// each file is read with what the ranks before it hold as limits.recordBytesHeld, so many files
/// each inside the cap are refused together, naming the one that crossed it, not run out of memory.
Result<std::vector<RankTrace>> loadRankTraces(const std::vector<std::string>& files,
                                              ReadLimits limits = {});
/// Ranks without distributedInfo take their position in `ranks` as rank and its size as world
/// size (one file per rank, given in rank order).
void fillMissingRanks(std::vector<RankTrace>& ranks);
/// "" when `ranks` are one job's: one world size, every rank inside it, none twice; else the
/// refusal naming the file (what `trace` and the replay both require).
std::string rankSetError(const std::vector<RankTrace>& ranks);

}  // namespace sim::trace
