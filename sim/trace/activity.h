// What a rank's GPU is doing at a time, cheaply: per class, the union of its intervals merged
// once into sorted disjoint runs with running totals, so each query is a binary search
// (O(log n)); a frame asking for 72 GPUs does 72 x a few searches. For the replay.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/trace/rank_trace.h"

namespace sim::trace {

class ActivityIndex {
 public:
  /// Indexes `rank` (copies what it needs; indices returned refer to rank.intervals).
  explicit ActivityIndex(const RankTrace& rank);

  /// A bit (1u << int(GpuClass)) for each class running on some stream at `t_ns` (from the
  /// rank's origin; an interval [start, end) runs at start and not at end).
  uint32_t activeAt(int64_t t_ns) const;
  /// Whether `cls` runs on some stream at `t_ns`.
  bool active(GpuClass cls, int64_t t_ns) const;
  /// Nanoseconds of [from_ns, to_ns) in which `cls` runs on some stream (0 when to <= from).
  int64_t busyTime(GpuClass cls, int64_t from_ns, int64_t to_ns) const;
  /// busyTime over the window's length, in [0, 1] (0 for an empty window): e.g. the tensor-core
  /// glow over a frame's slice of trace time, which does not flicker as an instant would.
  double busyFraction(GpuClass cls, int64_t from_ns, int64_t to_ns) const;
  /// Share of [from_ns, to_ns) in which a tensor-core class (GEMM or attention) runs on some
  /// stream, in [0, 1]: the union of both classes, so two streams at once count once.
  double tensorFraction(int64_t from_ns, int64_t to_ns) const;
  /// Share of [from_ns, to_ns) in which any compute kernel (not NCCL) runs, in [0, 1].
  double computeFraction(int64_t from_ns, int64_t to_ns) const;
  /// Index into rank.intervals of the NCCL kernel running at `t_ns` that started last (its
  /// collective and bytes drive the traffic), or -1.
  int64_t collectiveAt(int64_t t_ns) const;

 private:
  struct Runs {
    std::vector<int64_t> starts, ends;
    std::vector<int64_t> before;  // total length of the runs before each one
  };
  static void extend(Runs& runs, const GpuInterval& iv);  // iv starts at or after the last run
  int64_t covered(const Runs& runs, int64_t t) const;     // busy time before t
  double fraction(const Runs& runs, int64_t from, int64_t to) const;

  Runs m_runs[GPU_CLASS_COUNT];
  Runs m_tensor;   // GEMM and attention together
  Runs m_compute;  // every compute class together
  // collectiveAt as a step function: from m_pieceStart[k] until the next piece, the answer is
  // m_pieceAnswer[k] (an index into rank.intervals, or -1). Built by one sweep in the constructor.
  std::vector<int64_t> m_pieceStart, m_pieceAnswer;
};

}  // namespace sim::trace
