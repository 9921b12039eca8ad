// The overlay legend: an ImGui window with the palette as a bar per scale (racks, hero rack
// GPUs), its min and max with units, the basis of the values and the simulated time.
#pragma once

#include "world/live/overlays.h"

namespace app {

/// The colour-blind-safe palette (viridis) at `t` in 0..1 as an ImGui colour (ImU32).
unsigned int paletteColour(double t);

/// Draws the legend of `overlay` in the top-right corner, or top-left from `belowY` pixels down
/// when the right side is taken (belowY >= 0); nothing when no overlay is on. Call between
/// UiLayer::beginFrame and endFrame.
void drawLegend(const world::OverlayState& overlay, float belowY = -1.0f);

}  // namespace app
