// The chapter simulator panel: an ImGui window at the right edge of the screen showing a
// PanelView (rows of evaluated numbers with their basis on hover, the pixel race, a stacked
// memory bar that turns into "OUT OF MEMORY"), with sliders and choices for its knobs. Drawing
// only: the caller evaluates (evaluatePanel) and re-evaluates when a knob changes.
#pragma once

#include <string>
#include <vector>

#include "app/ui/panels.h"

namespace app {

/// The panel's content width in font heights (booth-readable); the HUD keeps the caption clear
/// of it.
inline constexpr float PANEL_WIDTH_EM = 27.0f;

struct PanelDrawDesc {
  float widthEm = PANEL_WIDTH_EM;  // window content width in font heights
  float raceCycle_s = 6.0f;        // wall-clock seconds the slower racer takes to finish a frame
  bool interactive = true;         // false: knobs are shown but cannot be moved (attract loop)
  std::string language = "en";     // "de": German button text (the view carries its own texts)
};

/// Draws `view` right of centre; a moved knob writes `knobValues` (resized to the panel's knobs,
/// NaN = the scenario's own value) and returns true, and so does "Reset". Call between
/// UiLayer::beginFrame and endFrame.
bool drawPanel(const PanelView& view, std::vector<double>& knobValues,
               const PanelDrawDesc& desc = {});

}  // namespace app
