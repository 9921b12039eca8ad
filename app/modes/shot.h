// One still, headless: a station at a simulated time of an engine scenario, with faults, an
// overlay, traffic or coolant; or one glTF model on its own. A single runFrame of the station
// view, read back and written as a PNG.
#pragma once

#include <string>
#include <vector>

#include "app/session/render_options.h"
#include "app/session/session.h"
#include "app/session/tour_view.h"
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
  // --supersample N: the 3D picture drawn at N times the size along each axis, in tiles, and
  // box-filtered down (renderer::StillSpec); 1: one pass at the size
  uint32_t supersample = 1;
  // --compare A B: the station for two scenarios side by side (shot_compare.h); `scenario` unused
  std::vector<std::string> compare;
};

/// How the still of `options` is drawn: supersampled in tiles with --supersample above 1.
renderer::StillSpec shotStill(const ShotOptions& options);

/// Renders and writes the still; prints what it shows. Returns the exit status.
int runShot(const ShotOptions& options);

/// Opens the session of `options` (its scenario, faults, trace or model, at its render size),
/// finds its station and runs the simulation to its time. Returns an exit status (the message is
/// printed); on EXIT_OK `station` is the station to show.
int openShotSession(const ShotOptions& options, Session& session, const world::Station*& station);

/// Poses `view` at `station`'s viewpoint with the overlay, traffic, coolant and text of `options`.
void setUpShotView(const ShotOptions& options, const world::Station& station, StationView& view);

}  // namespace app
