// The chapter simulator panel: an ImGui window in the layout's right column showing a PanelView:
// the verdict first in large type, the controls (knobs, and buttons that change the running
// simulation), the pictures (the pixel race, the roofline, the memory bar that turns into "OUT
// OF MEMORY"), and, one key away (V), every row with its basis and source (on hover, or pinned
// by a click). Drawing only: the caller evaluates (evaluatePanel) and re-evaluates when a knob
// changes, and turns a pressed button into a simulation command.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/ui/panels.h"
#include "app/ui/ui_layout.h"

struct ImFont;

namespace app {

struct PanelDrawDesc {
  ScreenRect region{};            // where the window goes (UiLayout::panel)
  float raceCycle_s = 6.0f;       // wall-clock seconds the slower racer takes to finish a frame
  bool interactive = true;        // false: knobs are shown but cannot be moved (attract loop)
  bool details = false;           // every row, not only the verdict
  std::string language = "en";    // the UI's words (the view carries its own texts)
  ImFont* verdictFont = nullptr;  // the large font of the verdict (UiLayer::headlineFont)
};

/// What the visitor did in the panel this frame.
struct PanelInput {
  bool knobsChanged = false;     // a knob moved, or Reset
  std::optional<size_t> button;  // index into PanelView::buttons pressed
};

/// Draws `view`; a moved knob writes `knobValues` (resized to the panel's knobs, NaN = the
/// scenario's own value). Call between UiLayer::beginFrame and endFrame.
PanelInput drawPanel(const PanelView& view, std::vector<double>& knobValues,
                     const PanelDrawDesc& desc);

}  // namespace app
