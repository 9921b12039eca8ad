#include "app/ui/legend.h"

#include <cfloat>
#include <cstdio>
#include <string>

#include <imgui.h>

namespace app {
namespace {

// Bar steps: enough that the piecewise palette looks continuous.
constexpr int BAR_STEPS = 48;

std::string formatEnd(double value, const std::string& unit) {
  char text[48];
  std::snprintf(text, sizeof(text), "%.0f %s", value, unit.c_str());
  return text;
}

void drawBar(const world::LegendRange& range) {
  ImGui::TextUnformatted(range.label.c_str());
  const float width = ImGui::GetFontSize() * 14.0f;
  const float height = ImGui::GetFontSize() * 0.9f;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (int i = 0; i < BAR_STEPS; ++i) {
    const float x0 = origin.x + width * float(i) / BAR_STEPS;
    const float x1 = origin.x + width * float(i + 1) / BAR_STEPS;
    const ImU32 left = paletteColour(double(i) / BAR_STEPS);
    const ImU32 right = paletteColour(double(i + 1) / BAR_STEPS);
    draw->AddRectFilledMultiColor(ImVec2(x0, origin.y), ImVec2(x1, origin.y + height), left, right,
                                  right, left);
  }
  ImGui::Dummy(ImVec2(width, height));
  const std::string lo = formatEnd(range.min, range.unit);
  const std::string hi = formatEnd(range.max, range.unit);
  const float startX = ImGui::GetCursorPosX();
  ImGui::TextUnformatted(lo.c_str());
  ImGui::SameLine(startX + width - ImGui::CalcTextSize(hi.c_str()).x);
  ImGui::TextUnformatted(hi.c_str());
}

}  // namespace

// The palette is sRGB and ImGui writes its colours unconverted into the 8-bit target.
unsigned int paletteColour(double t) {
  const world::Rgb c = world::viridis(t);
  return IM_COL32(int(c.r * 255.0f + 0.5f), int(c.g * 255.0f + 0.5f), int(c.b * 255.0f + 0.5f),
                  255);
}

void drawLegend(const world::OverlayState& overlay, float belowY) {
  if (!overlay.active()) return;
  const ImGuiIO& io = ImGui::GetIO();
  const float margin = ImGui::GetFontSize();
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                                 ImGuiWindowFlags_NoInputs;
  if (belowY >= 0) {
    ImGui::SetNextWindowPos(ImVec2(margin, belowY + margin * 0.5f));
  } else {
    ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - margin, margin), 0, ImVec2(1, 0));
  }
  ImGui::Begin("##legend", nullptr, flags);
  const std::string title = "overlay: " + std::string(world::overlayMetricName(overlay.metric)) +
                            " (" + std::string(sim::basisName(overlay.basis)) + ")";
  ImGui::TextUnformatted(title.c_str());
  ImGui::Separator();
  drawBar(overlay.rackRange);
  ImGui::Spacing();
  drawBar(overlay.gpuRange);
  ImGui::End();
}

}  // namespace app
