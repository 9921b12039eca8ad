// A Kineto (PyTorch profiler) trace reduced, while it streams, to compact records: what the
// classification and the replay need and nothing else. One file is one rank. Kineto's format is
// Chrome-trace JSON: {"distributedInfo": {...}, "deviceProperties": [...], "traceEvents": [...]},
// `ts` and `dur` in microseconds (whatever `displayTimeUnit` says; it only affects display).
//
// Kept: GPU events (categories kernel, gpu_memcpy, gpu_memset; phase "X"), runtime launches
// (cuda_runtime / cuda_driver: correlation id, thread, time), and three kinds of CPU ranges on
// their thread (cpu_op / user_annotation): `nccl:*` annotations, `record_param_comms` and
// `ProfilerStep#N`. Everything else (cpu_op, python, flow "s"/"f"/"t", metadata "M", instant "i")
// is checked for well-formedness and dropped.
//
// Duplicate keys: a key the reader uses ("ph", "cat", "name", "ts", "dur", "pid", "tid", "args",
// the args it reads, and the top-level "traceEvents", "distributedInfo", "deviceProperties")
// appearing twice in one object is refused; duplicates of keys it does not read are ignored.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "sim/result.h"
#include "sim/trace/limits.h"

namespace sim::trace {

/// An absent name (index into RawTrace::names).
inline constexpr uint32_t NO_NAME = UINT32_MAX;

/// A CPU thread as written (pid, tid); string ids are interned and mapped below -2^62.
struct ThreadKey {
  int64_t pid = 0, tid = 0;
  bool operator==(const ThreadKey&) const = default;
  auto operator<=>(const ThreadKey&) const = default;
};

enum class GpuEventKind : uint8_t { Kernel, Memcpy, Memset };

/// NCCL metadata from an event's `args`: kernels of newer PyTorch ("Collective name", "In msg
/// nelems", "dtype" ...), record_param_comms, and the "Input Dims"/"Input type" of annotations.
struct CommArgs {
  uint32_t collective = NO_NAME;  // "Collective name"
  uint32_t dtype = NO_NAME;       // "dtype"
  uint32_t algorithm = NO_NAME;   // "algorithm" / "Algorithm"
  uint32_t protocol = NO_NAME;    // "protocol" / "Protocol"
  uint32_t inputType = NO_NAME;   // "Input type"[0]
  int64_t inNelems = -1, outNelems = -1, groupSize = -1;
  int64_t inputElements = -1;  // product of "Input Dims"[0]; -1 when absent or empty
};

struct RawGpuEvent {
  int64_t start_ns = 0, dur_ns = 0;  // trace clock, nanoseconds
  int64_t device = 0, stream = 0;    // args.device / args.stream, else pid / tid
  int64_t correlation = -1, externalId = -1;
  int64_t bytes = -1;  // memcpy/memset args.bytes
  uint32_t name = NO_NAME;
  uint32_t comm = NO_NAME;  // index into RawTrace::comms
  GpuEventKind kind = GpuEventKind::Kernel;
};

/// A runtime call that launched GPU work: links a GPU event (same correlation) to its thread.
struct RawLaunch {
  int64_t correlation = 0;
  ThreadKey thread;
  int64_t ts_ns = 0;
};

enum class CpuRangeKind : uint8_t { NcclAnnotation, RecordParamComms, Step };

struct RawCpuRange {
  ThreadKey thread;
  int64_t start_ns = 0, end_ns = 0;
  int64_t externalId = -1;
  int64_t step = -1;        // ProfilerStep#N: N
  uint32_t name = NO_NAME;  // nccl:NAME: NAME
  uint32_t comm = NO_NAME;  // index into RawTrace::comms
  CpuRangeKind kind = CpuRangeKind::Step;
};

struct DeviceProperty {
  int64_t id = 0;
  std::string name;
};

struct RawTrace {
  std::string file;
  int64_t rank = -1, worldSize = -1;  // distributedInfo; -1 when absent
  std::vector<DeviceProperty> devices;
  std::vector<std::string> names;
  std::vector<RawGpuEvent> gpu;
  std::vector<CommArgs> comms;
  std::vector<RawLaunch> launches;
  std::vector<RawCpuRange> ranges;
  uint64_t events = 0;          // entries of traceEvents
  uint64_t gpuWithoutTime = 0;  // GPU events lacking ts or dur (dropped)
  uint64_t flowEvents = 0;
  bool compressed = false;
};

/// Streams `path` (plain or gzipped). Refusals name the file, the event index and byte offset
/// (in the decoded text) and the field: "f.json: traceEvents[12] (byte 3456): 'dur' is negative".
Result<RawTrace> readKinetoFile(const std::filesystem::path& path, const ReadLimits& limits = {});
/// The same from bytes in memory, named `name` in messages.
Result<RawTrace> readKinetoBytes(std::string_view bytes, const std::string& name,
                                 const ReadLimits& limits = {});

}  // namespace sim::trace
