// The model's timeline of one rank, as a profiler would have recorded it: GPU kernels on
// streams (compute on one, each kind of NCCL collective on its own), the CPU-side step
// annotations that launched them, integer nanoseconds. Built from the engine by
// sim/trace/training_trace.h (a training step's 1F1B schedule) and serving_trace.h (prefill and
// decode iterations); written as a Kineto trace by sim/trace/kineto_writer.h. See docs/trace.md
// "Writing the model's step".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/precision.h"
#include "sim/trace/classify.h"

namespace sim::trace {

/// The streams of a modelled rank, in the order the writer numbers them.
enum class ModelStream : uint8_t {
  Compute,
  TensorParallel,
  PipelineParallel,
  DataParallel,
  Expert
};
inline constexpr int MODEL_STREAM_COUNT = 5;
/// Kineto's stream id of `s` (CUDA's default stream is 7 in the traces; NCCL's follow).
int64_t streamId(ModelStream s);
/// "compute", "tp nccl", "pp nccl", "dp nccl", "ep nccl".
const char* streamLabel(ModelStream s);

/// One NCCL collective call, with what Kineto's kernel args say of it.
struct ModelCollective {
  std::string kind;  ///< Kineto's "Collective name": allreduce, allgather, reducescatter ...
  int64_t inElements = 0, outElements = 0;
  std::string dtype;                ///< c10's name: "BFloat16", "Float" ...
  std::vector<int64_t> groupRanks;  ///< the communicator's ranks (global), this rank among them
  std::string groupName;            ///< "tp", "pp", "dp", "ep"
};

/// One GPU kernel of the modelled rank.
struct ModelKernel {
  int64_t start_ns = 0;  ///< absolute (the run's clock), >= 0
  int64_t dur_ns = 0;    ///< > 0
  ModelStream stream = ModelStream::Compute;
  GpuClass cls = GpuClass::OtherCompute;
  uint32_t name = 0;        ///< index into ModelRank::names
  int32_t collective = -1;  ///< index into ModelRank::collectives (NCCL kernels), else -1
};

/// A ProfilerStep#number annotation on the CPU: [start, end) on the run's clock.
struct ModelStep {
  int64_t number = 0;
  int64_t start_ns = 0, end_ns = 0;
};

struct ModelRank {
  int64_t rank = 0;       ///< global rank (Megatron's order: tp fastest, then dp, then pp)
  int64_t worldSize = 0;  ///< ranks of the job (or of the service: replicas x tp)
  uint32_t gpu = 0;       ///< the engine's GpuId it runs on
  int64_t device = 0;     ///< CUDA device index inside its node
  std::string deviceName;
  double deviceMemory_bytes = 0;
  std::string role;  ///< "stage 3 of 16, replica 0, tp rank 0" ...
  std::vector<std::string> names;
  std::vector<ModelCollective> collectives;
  std::vector<ModelKernel> kernels;  ///< sorted by start (ties: the order they were added)
  std::vector<ModelStep> steps;      ///< sorted by number, not overlapping

  /// Index of `name` in names (added when new; a rank has a few dozen distinct names).
  uint32_t nameId(const std::string& name);
  /// Appends a kernel of `dur_s` seconds at `start_s` (both rounded to the nanosecond) unless it
  /// rounds to nothing; returns its end, ns.
  int64_t addKernel(double start_s, double dur_s, ModelStream stream, GpuClass cls,
                    const std::string& name, int32_t collective = -1);
};

/// A collective of `kind` moving `inBytes` in and `outBytes` out of this rank, elements of
/// `precision` (c10's dtype name; FP4 and INT4 as bytes), over `groupRanks`.
ModelCollective modelCollective(std::string kind, double inBytes, double outBytes,
                                Precision precision, std::vector<int64_t> groupRanks,
                                std::string groupName);

/// Seconds to the nanosecond (rounded; the writer's and the reader's unit).
int64_t toNs(double seconds);

/// Sorts a rank's kernels by start (stable) once they are all added.
void sortKernels(ModelRank& rank);

}  // namespace sim::trace
