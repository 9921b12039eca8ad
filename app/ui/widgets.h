// Buttons with stable ImGui IDs, and a record of where each one was drawn this frame. The label
// may change from frame to frame (a live time, a language, Play and Pause) while the ID stays:
// ImGui matches a click to the widget by its ID across the press and the release, so a label that
// changed the ID every frame made clicks vanish while the simulation ran (issue 22). The record
// lets tests click each button of each panel through ImGui.
#pragma once

#include <string>
#include <vector>

#include "app/ui/ui_layout.h"

namespace app {

/// A button drawn this frame: its ID, its label and where it is on screen.
struct DrawnButton {
  std::string id;
  std::string label;
  ScreenRect rect{};
  bool enabled = true;
  bool pressed = false;  // clicked in this frame
};

/// ImGui::Button with `label` shown and `id` as its identity ("label###id"); recorded.
/// `width` 0 sizes it to the label.
bool stableButton(const std::string& label, const char* id, float width = 0);
/// The same for a small button (no frame padding).
bool stableSmallButton(const std::string& label, const char* id);

/// Records the last ImGui item (a slider, a combo) as drawn with `label` and `id`, so tests
/// find it as they find buttons; never pressed.
void recordControl(const std::string& label, const char* id);

/// The buttons recorded since the last clearDrawnButtons (UiLayer::beginFrame clears them).
const std::vector<DrawnButton>& drawnButtons();
void clearDrawnButtons();

}  // namespace app
