// `dcwalk bench`: flies fixed paths headless through runFrame — the frame users see, HUD and
// labels included, the simulation advancing at 30 frames a second — and reports frame-time
// percentiles, each stage's CPU time, GPU time, triangles and draw calls, time to first frame,
// peak memory and validation errors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/session/render_options.h"

namespace app {

struct BenchOptions {
  RenderOptions render;
  std::vector<std::string> paths = {"stations", "campus", "overlays"};
  uint32_t frames = 300;
  uint32_t warmup = 20;
  bool noLod = false;
  bool noCull = false;
  int campusScale = 1;
  std::string scenario = "training_405b";
  std::string jsonOut;
  std::string traceOut;  // per-frame CSV: path, time on the path, frame/GPU ms, triangles
};

/// Runs the benchmark; returns the exit status (1 on a validation error).
int runBench(const BenchOptions& options);

}  // namespace app
