// A traced job replayed on the cluster the engine simulates: for a window of trace time, each
// traced GPU's tensor-core activity (GEMM and attention kernels), HBM traffic (memcpy/memset
// bytes and NCCL input bytes, spread over their kernels), NVLink and fabric traffic (each NCCL
// kernel's bytes on the wire, by nccl-tests' bus factors, on NVLink when its communicator fits
// one NVLink domain, else through the GPU's NIC and its leaf's uplinks), written into a
// sim::engine::Snapshot in place of the engine's, so the world shows it without a path of its
// own. GPUs without a trace are marked (Snapshot::gpuNoData), not shown idle. See docs/trace.md
// "Replay".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/engine/cluster.h"
#include "sim/engine/snapshot.h"
#include "sim/result.h"
#include "sim/trace/activity.h"
#include "sim/trace/rank_trace.h"

namespace sim::trace {

/// Bytes moved over time as a step function of rates: each event spreads its bytes evenly over
/// its interval; bytesIn() integrates the sum of the rates over a window with two binary searches.
class ByteFlow {
 public:
  struct Event {
    int64_t start_ns = 0, end_ns = 0;
    double bytes = 0;
  };
  /// Events of zero length put their bytes at their instant.
  explicit ByteFlow(std::vector<Event> events = {});
  /// Bytes moved in [from_ns, to_ns) (0 when to <= from).
  double bytesIn(int64_t from_ns, int64_t to_ns) const;
  /// Bytes moved before t_ns.
  double bytesBefore(int64_t t_ns) const;

 private:
  std::vector<int64_t> m_times;  // breakpoints, sorted
  std::vector<double> m_rate;    // bytes/ns from m_times[k] to m_times[k + 1]
  std::vector<double> m_before;  // bytes moved before m_times[k]
};

/// Bytes one rank puts on the wire in an NCCL collective of `kind` whose input is `inputBytes`,
/// among `ranks` ranks: nccl-tests' bus factor (sim::calc::busBwFactor) times its buffer
/// (all-gather: the gathered output, ranks x input); sendrecv/send/recv and unknown kinds: the
/// input once.
double wireBytes(const std::string& kind, double inputBytes, int64_t ranks);

/// A note when `traceDevice` is not a GPU the catalog has (`catalogGpus`: display names): the
/// trace replays on `clusterGpu` anyway. "" when it matches (the catalog name's model, e.g. "A100",
/// is in the trace's name, and so is its capacity when the catalog name gives one, e.g. "80GB").
std::string deviceNote(const std::string& traceDevice, const std::string& clusterGpu,
                       const std::vector<std::string>& catalogGpus);

/// What one traced GPU does in a window.
struct GpuActivity {
  double tensor = 0;         ///< share of the window with a GEMM or attention kernel running
  double compute = 0;        ///< share with any compute kernel running
  double communication = 0;  ///< share with an NCCL kernel running
  double hbm_Bps = 0;        ///< memcpy/memset and NCCL input bytes per second
  double nvlink_Bps = 0;     ///< NCCL wire bytes per second inside the NVLink domain
  double fabric_Bps = 0;     ///< NCCL wire bytes per second through the NIC
};

class Replay {
 public:
  /// A still's window of trace time: one frame at 30 fps (an instant would show a kernel's edge).
  static constexpr int64_t STILL_WINDOW_NS = 33'333'333;

  /// `ranks`: one trace per file (fillMissingRanks done), all of one world size, no rank twice;
  /// `gpuOfRank`: a GPU of `cluster` for every rank of the world (rank_layout.h).
  static Result<Replay> create(std::vector<RankTrace> ranks, std::vector<uint32_t> gpuOfRank,
                               const engine::Cluster& cluster);

  int64_t worldSize() const { return m_worldSize; }
  /// The traced ranks, by file order.
  const std::vector<RankTrace>& ranks() const { return m_traces; }
  /// GPU of each traced rank (same order as ranks()).
  const std::vector<uint32_t>& tracedGpus() const { return m_gpus; }
  /// First GPU event of any rank to the last end of any, ns (the ranks on one clock).
  int64_t span_ns() const { return m_span_ns; }
  /// Where rank file `i`'s own clock starts on the replay's clock, ns (>= 0).
  int64_t offset_ns(size_t i) const { return m_offset_ns[i]; }
  /// Start of ProfilerStep#number on the replay's clock (the earliest rank's), or nullopt
  /// when no rank has that step.
  std::optional<int64_t> stepStart_ns(int64_t number) const;
  /// Steps any rank has, sorted.
  std::vector<int64_t> stepNumbers() const;

  /// Traced rank file `i` in [from_ns, to_ns) of the replay's clock.
  GpuActivity activity(size_t i, int64_t from_ns, int64_t to_ns) const;

  /// Writes the window [from_ns, to_ns) into `snapshot` (taken from an engine on the same
  /// cluster): utilisation, HBM and link arrays point at the replay's, untraced GPUs are marked
  /// in gpuNoData and show 0, time_s is to_ns in seconds, nvlinkBytes the NVLink bytes moved
  /// before to_ns. Thermal and power stay the engine's. Valid until the next apply.
  void apply(int64_t from_ns, int64_t to_ns, engine::Snapshot& snapshot);

 private:
  struct RankFlows {
    ActivityIndex activity;
    ByteFlow hbm, nvlink, fabric;
  };
  int64_t m_worldSize = 0;
  int64_t m_span_ns = 0;
  std::vector<RankTrace> m_traces;
  std::vector<RankFlows> m_flows;
  std::vector<uint32_t> m_gpus;
  std::vector<int64_t> m_offset_ns;
  // The arrays apply() points the snapshot at.
  std::vector<float> m_utilisation, m_hbm, m_links;
  std::vector<uint8_t> m_noData;
};

}  // namespace sim::trace
