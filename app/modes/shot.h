// One still, headless: a station at a simulated time of an engine scenario, with faults, an
// overlay, traffic or coolant; or one glTF model on its own. A single runFrame of the station
// view, read back and written as a PNG.
#pragma once

#include <string>
#include <vector>

#include "app/session/render_options.h"
#include "app/session/trace_replay.h"
#include "sim/engine/engine_desc.h"
#include "world/live/overlays.h"

namespace app {

struct ShotOptions {
  RenderOptions render;
  std::string station = "rack";
  std::string out = "shot.png";
  std::string scenario = "training_405b";
  double time_s = 0;
  world::OverlayMetric overlay = world::OverlayMetric::None;
  std::vector<sim::engine::FaultDesc> faults;
  bool traffic = false;
  bool coolant = false;
  std::string model;   // a glTF file viewed on its own (station "model")
  TraceRequest trace;  // --trace: the traced job replayed on the scenario's cluster
  bool clean = false;  // the picture alone: no HUD, no labels, no panel
};

/// Renders and writes the still; prints what it shows. Returns the exit status.
int runShot(const ShotOptions& options);

}  // namespace app
