// `dcwalk bench`: flies fixed paths headless through runFrame — the frame users see, HUD and
// labels included, the simulation advancing at 30 frames a second — and reports frame-time
// percentiles, each stage's CPU time, GPU time, triangles and draw calls, time to first frame,
// peak memory and validation errors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/modes/bench_paths.h"
#include "app/session/render_options.h"
#include "app/session/session.h"

namespace app {

struct BenchOptions {
  RenderOptions render;
  std::vector<std::string> paths = {"stations", "campus", "overlays", "tour"};
  uint32_t frames = 300;
  uint32_t warmup = 20;
  bool keyFrames = false;  // one frame at each of a path's key moments instead of `frames`
  bool noLod = false;
  bool noCull = false;
  int campusScale = 1;
  std::string scenario = "training_405b";
  std::string jsonOut;
  std::string traceOut;  // per-frame CSV: path, time on the path, frame/GPU ms, triangles
};

/// One measured frame of a path.
struct BenchFrame {
  double time_s = 0;    // where on the path
  std::string station;  // held there, or flown to
  double frame_ms = 0, sim_ms = 0, world_ms = 0, ui_ms = 0, record_ms = 0;
  double gpu_ms = -1;             // -1: not known (no timestamps)
  double overdraw = -1;           // samples passing the depth test per pixel; -1: unknown
  double fragmentsPerPixel = -1;  // fragment-shader invocations per pixel; -1: unknown
  double triangles = 0, heldBack = 0, draws = 0;
  bool swapping = false;  // a world was being rebuilt, or swapped in, during the frame
};

/// Flies `path` in `session` (options' size, frames or key frames, warm-up, baselines) with the
/// overdraw queries on; false with `error` when the path's view cannot be made.
bool flyPath(Session& session, const BenchPath& path, const BenchOptions& options,
             std::vector<BenchFrame>& out, std::string& error);

/// Runs the benchmark; returns the exit status (1 on a validation error).
int runBench(const BenchOptions& options);

}  // namespace app
