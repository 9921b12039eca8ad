// The overlay legend: one ImGui window with the palette as one bar, the metric's name and basis,
// and the bar's ends with units for the racks and for the hero rack's GPUs (the two scales the
// heat map colours).
#pragma once

#include <string>

#include "app/ui/ui_layout.h"
#include "world/live/overlays.h"

namespace app {

/// The colour-blind-safe palette (viridis) at `t` in 0..1 as an ImGui colour (ImU32).
unsigned int paletteColour(double t);

/// Draws the legend of `overlay` in `region` (UiLayout::legend), in `language`; nothing when no
/// overlay is on. Call between UiLayer::beginFrame and endFrame.
void drawLegend(const world::OverlayState& overlay, const ScreenRect& region,
                const std::string& language);

}  // namespace app
