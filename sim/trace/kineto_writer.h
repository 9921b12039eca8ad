// Writes a modelled rank (sim/trace/model_trace.h) as the PyTorch profiler's Kineto
// Chrome-trace JSON, so that Perfetto, TensorBoard, Holistic Trace Analysis and `dcwalk trace`
// read it as they read a real one: `deviceProperties`, `distributedInfo`, and `traceEvents` with
// the CPU thread's ProfilerStep#N annotations (cat user_annotation) and kernel launches
// (cuda_runtime cudaLaunchKernel, zero long at their kernel's start: the model has no CPU side),
// and the GPU's kernels (cat kernel) on their streams with Kineto's args (device, stream,
// correlation, External id; on NCCL kernels Collective name, In/Out msg nelems, Group size,
// dtype, Process Group Name/Description/Ranks). Times are microseconds with three decimals
// (exact nanoseconds). A pure function: text out to a stream, no files.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include "sim/trace/model_trace.h"

namespace sim::trace {

struct KinetoWriteOptions {
  int64_t offset_ns = 0;  ///< added to every time: a real trace's clock to line up with (>= 0)
  std::string source;     ///< what wrote it ("dcwalk sim --engine link_down ..."), kept in the file
};

/// Writes `rank` as one Kineto trace file's JSON text.
void writeKinetoTrace(std::ostream& out, const ModelRank& rank, const KinetoWriteOptions& options);

/// `text` compressed as one gzip member (RFC 1952), what `--gzip` writes.
std::string gzipText(std::string_view text);

}  // namespace sim::trace
