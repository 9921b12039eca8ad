#include "app/ui/widgets.h"

#include <imgui.h>
#include <imgui_internal.h>  // whether the button was disabled

namespace app {
namespace {

std::vector<DrawnButton>& registry() {
  static std::vector<DrawnButton> buttons;
  return buttons;
}

void record(const std::string& label, const char* id, bool pressed) {
  const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
  const bool enabled =
      (ImGui::GetCurrentContext()->CurrentItemFlags & ImGuiItemFlags_Disabled) == 0;
  registry().push_back({id, label, {min.x, min.y, max.x, max.y}, enabled, pressed});
}

}  // namespace

bool stableButton(const std::string& label, const char* id, float width) {
  const std::string full = label + "###" + id;
  const bool pressed = ImGui::Button(full.c_str(), ImVec2(width, 0));
  record(label, id, pressed);
  return pressed;
}

bool stableSmallButton(const std::string& label, const char* id) {
  const std::string full = label + "###" + id;
  const bool pressed = ImGui::SmallButton(full.c_str());
  record(label, id, pressed);
  return pressed;
}

void recordControl(const std::string& label, const char* id) {
  record(label, id, false);
}

const std::vector<DrawnButton>& drawnButtons() {
  return registry();
}

void clearDrawnButtons() {
  registry().clear();
}

}  // namespace app
