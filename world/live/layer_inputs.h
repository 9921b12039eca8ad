// What the panels and the tour feed the live layers besides the snapshot (world/live/layer.h):
// one struct, not a field per visual, and the values it carries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace world {

/// What the hero HBM stack fills with (world/live/hbm_fill.h): the panel's memory bar.
struct HbmFill {
  std::vector<double> segments_bytes;  // bottom up, in the memory bar's order
  double capacity_bytes = 0;
  uint64_t generation = 0;  // of the simulation whose frame it fills (the panel's follow)
};

/// How busy the hero GPU's tensor cores are and what share of its HBM bandwidth it streams
/// (0..1 each): from the engine, or from a chapter's calculator (the roofline of its phase).
struct ComputeShares {
  double tensor = 0;
  double hbm = 0;
};

/// A panel's answer as one bar behind the hero (world/live/events/value_bars.h).
struct ValueBar {
  std::string label;  // what it is and its value, as the panel shows it ("H100  $0.87")
  double value = 0;   // >= 0, in one unit across the bars
  bool chosen = false;
};

/// One side of a race on two screens behind the hero (world/live/events/pixel_race.h).
struct RaceLane {
  double frame_s = 0;   // the side's time for the whole piece of work
  double lanes = 0;     // its parallel units (FP32 lanes, cores, tensor cores)
  uint32_t stamps = 0;  // 0: lit smoothly; else in this many equal steps per band
  std::string label;    // shown above its screen in engineer mode
};
struct PixelRaceDesc {
  RaceLane left, right;
};

/// One phase of a workload, drawn on one die of the hero package beside the others
/// (world/live/events/phases.h).
struct DiePhase {
  std::string label;  // what the phase is ("prefill"), shown over its die in engineer mode
  ComputeShares shares;
};

struct LayerInputs {
  double animationTime_s = 0;  // the animations' clock (the systolic wave): paused with the sim
  double eventTime_s = 0;      // display seconds since the tour step began (the events' clock)
  const HbmFill* hbmFill = nullptr;        // the memory bar the hero HBM stack fills with
  std::optional<ComputeShares> compute;    // the hero GPU's glow from a chapter's calculator
  std::vector<ValueBar> valueBars;         // a panel's answer as bars behind the hero
  std::optional<PixelRaceDesc> pixelRace;  // a panel's race on two screens behind the hero
  std::vector<DiePhase> phases;            // a chapter's phases side by side, one a die
};

}  // namespace world
