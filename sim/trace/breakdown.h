// Where a rank's GPU time went, two ways:
//  - overlapping unions (Times): each class is the length of the union of its intervals over all
//    of the rank's streams together, so classes that run at once are each counted in full and the
//    classes can add up to more than the span (the JSON fields).
//  - HTA's exclusive temporal breakdown (HtaTimes), which adds up to the span: idle = span minus
//    the union of all GPU events; compute = union of compute kernels; non-compute = the rest
//    (time when only communication or memory events run). See docs/trace.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/trace/rank_trace.h"

namespace sim::trace {

/// A half-open time span [start, end), ns.
struct Span {
  int64_t start = 0, end = 0;
};
/// Length of the union of `spans` (sorts them), ns.
int64_t unionLength(std::vector<Span>& spans);

/// Overlapping unions over all streams, seconds.
struct Times {
  double span_s = 0;     ///< first GPU event start to last GPU event end
  double compute_s = 0;  ///< union of non-NCCL kernels
  double gemm_s = 0, attention_s = 0, otherCompute_s = 0;  ///< unions of each compute class
  double communication_s = 0;                              ///< union of NCCL kernels
  double exposedCommunication_s = 0;                       ///< NCCL time not covered by compute
  double memcpy_s = 0;                                     ///< union of memcpy and memset events
  double busy_s = 0;                                       ///< union of all GPU events
  double idle_s = 0;                                       ///< span - busy
};

/// HTA's get_temporal_breakdown: exclusive, idle + compute + non-compute = kernel time (span).
struct HtaTimes {
  double kernelTime_s = 0, idle_s = 0, compute_s = 0, nonCompute_s = 0;
  double idlePct = 0, computePct = 0, nonComputePct = 0;  ///< of kernel time; 0 when it is 0
};

/// Calls of one collective kind with one algorithm and protocol.
struct CollectiveSummary {
  std::string kind, algorithm, protocol;
  int64_t count = 0;
  int64_t bytes = 0;       ///< sum over the calls whose bytes are known
  int64_t bytesKnown = 0;  ///< how many calls those are
  double time_s = 0;       ///< sum of their kernel durations
};

/// One stream's busy time per class (unions on that stream).
struct StreamSummary {
  GpuStream stream;
  int64_t events = 0;
  double compute_s = 0, communication_s = 0, memcpy_s = 0, busy_s = 0;
};

struct Breakdown {
  int64_t gpuEvents = 0;
  Times times;
  HtaTimes hta;
  std::vector<CollectiveSummary> collectives;  ///< by kind, algorithm, protocol
  std::vector<StreamSummary> streams;          ///< streams with events, in RankTrace order
};

/// The breakdown of every GPU event of `rank`, or (with `step`) of those launched in that
/// ProfilerStep, whose span is then the step's GPU window.
Breakdown breakdown(const RankTrace& rank, std::optional<int64_t> step = std::nullopt);
/// One breakdown per entry of rank.steps, in that order, in one pass over the intervals
/// (O(n log n) however many steps and streams there are).
std::vector<Breakdown> stepBreakdowns(const RankTrace& rank);

}  // namespace sim::trace
