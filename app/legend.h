// The overlay legend: an ImGui window with the palette as a bar per scale (racks, hero rack
// GPUs), its min and max with units, the basis of the values and the simulated time.
#pragma once

#include "world/overlays.h"

namespace app {

/// Draws the legend of `overlay` in the top-right corner; nothing when no overlay is on. Call
/// between UiLayer::beginFrame and endFrame.
void drawLegend(const world::OverlayState& overlay);

}  // namespace app
