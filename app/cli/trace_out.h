// `--trace-out DIR` of `dcwalk sim --engine` and `dcwalk trace --scenario`: the engine's modelled
// step (or a window of simulated time) written as Kineto traces, one file per rank
// (DIR/dcwalk_rank<R>.pt.trace.json, .json.gz with --gzip), all or none: each is written to a
// temporary beside its target and the set is moved into place only when every one is written
// (app::NewFileSet); nothing is ever written over. A DIR that does not exist is created (its
// parent must exist) and removed again if the write fails; nothing else is ever removed.
// docs/trace.md "Writing the model's step".
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/engine/engine.h"
#include "sim/result.h"
#include "sim/trace/model_trace.h"

namespace app {

/// Ranks one command may write (one file each).
inline constexpr size_t MAX_TRACE_RANKS = 64;
/// Training steps one window may hold.
inline constexpr size_t MAX_TRACE_STEPS = 64;
/// Serving: the window when none is given (about fifty decode iterations of the default
/// service: batches joining and leaving, small enough to open at once), and the longest one.
inline constexpr double DEFAULT_SERVING_WINDOW_S = 0.5;
inline constexpr double MAX_SERVING_WINDOW_S = 60.0;
/// Kernels one file may hold: about 200 MB of JSON, what a browser's Perfetto tab opens.
inline constexpr size_t MAX_TRACE_KERNELS_PER_FILE = 500000;

struct TraceOutOptions {
  std::string dir;               ///< --trace-out; empty: no trace
  std::string ranks;             ///< --trace-ranks "0,8,16-23"; empty: the defaults
  bool gzip = false;             ///< --gzip
  std::optional<double> from_s;  ///< --trace-from: the window's start (simulated seconds)
};

/// The refusal of `dir` as a --trace-out target ("" when it can be one): an existing file, a
/// folder whose parent does not exist or is not a folder.
std::string checkTraceOutTarget(const std::string& dir);

/// --trace-ranks: comma-separated ranks and ranges ("0,8,16-23"), each below `worldSize`, no
/// rank twice, at most MAX_TRACE_RANKS; worldSize < 0 checks the syntax alone.
sim::Result<std::vector<int64_t>> parseTraceRanks(const std::string& text, int64_t worldSize);

/// The file a rank goes to.
std::string traceFileName(int64_t rank, bool gzip);

/// Writes `ranks` (each shifted by its offset_ns, same order; empty: none) to options.dir, all
/// or none; returns the paths written. Errors name the file and what failed.
sim::Result<std::vector<std::string>> writeTraceFiles(
    const TraceOutOptions& options, const std::vector<sim::trace::ModelRank>& ranks,
    const std::vector<int64_t>& offsets_ns, const std::string& source);

/// The world size ranks are numbered in: the training job's GPUs, or the service's replicas x tp.
int64_t traceWorldSize(const sim::engine::Engine& engine);

/// What a run gives back: the laid-out ranks and where the engine stopped.
struct ModelTraceRun {
  std::vector<sim::trace::ModelRank> ranks;
  double until_s = 0;
};

/// Runs `engine` (from time 0) in steps to `until_s` and lays out the window for `ranks` (empty:
/// the defaults: training, the first rank of every pipeline stage and the slowest GPU's;
/// serving, replica 0 and the slowest replica's first GPU). Training: every step that begins in
/// [--trace-from, until], by default the last one completed (the run goes on until one is);
/// serving: the engine steps in [--trace-from, until], by default the DEFAULT_SERVING_WINDOW_S
/// before until (at least that long a run). Refusals name the flag. `progress` is called with
/// the engine's time now and then.
sim::Result<ModelTraceRun> runModelTrace(sim::engine::Engine& engine,
                                         const TraceOutOptions& options, double until_s,
                                         const std::vector<int64_t>& ranks,
                                         const std::function<void(double)>& progress);

}  // namespace app
