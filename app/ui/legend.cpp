#include "app/ui/legend.h"

#include <cstdio>
#include <string>

#include <imgui.h>

#include "app/ui/ui_layer.h"
#include "app/ui/ui_text.h"

namespace app {
namespace {

// Bar steps: enough that the piecewise palette looks continuous.
constexpr int BAR_STEPS = 48;

std::string formatEnd(double value, const std::string& unit) {
  char text[48];
  std::snprintf(text, sizeof(text), "%.0f\u00a0%s", value, unit.c_str());
  return text;
}

// "racks  0 kW" on the left and "132 kW" on the right of a `width` line.
void drawEnds(const char* what, const world::LegendRange& range, float width) {
  const std::string lo = std::string(what) + "  " + formatEnd(range.min, range.unit);
  const std::string hi = formatEnd(range.max, range.unit);
  const float startX = ImGui::GetCursorPosX();
  ImGui::TextDisabled("%s", lo.c_str());
  ImGui::SameLine(startX + width - ImGui::CalcTextSize(hi.c_str()).x);
  ImGui::TextDisabled("%s", hi.c_str());
}

// The metric's name in the UI's words.
const char* metricKey(world::OverlayMetric metric) {
  switch (metric) {
    case world::OverlayMetric::Power:
      return "legend.power";
    case world::OverlayMetric::Temperature:
      return "legend.temperature";
    case world::OverlayMetric::Utilisation:
      return "legend.utilisation";
    case world::OverlayMetric::LinkLoad:
      return "legend.link_load";
    case world::OverlayMetric::Stage:
      return "legend.stage";
    case world::OverlayMetric::None:
      break;
  }
  return "legend.none";
}

}  // namespace

// The palette is sRGB and ImGui writes its colours unconverted into the 8-bit target.
unsigned int paletteColour(double t) {
  const world::Rgb c = world::viridis(t);
  return IM_COL32(int(c.r * 255.0f + 0.5f), int(c.g * 255.0f + 0.5f), int(c.b * 255.0f + 0.5f),
                  255);
}

void drawLegend(const world::OverlayState& overlay, const ScreenRect& region,
                const std::string& language) {
  if (!overlay.active() || emptyRect(region)) return;
  placeInRegion(region, 0, 0, region[2] - region[0]);
  ImGui::Begin("##legend", nullptr, hudWindowFlags());
  const float width = ImGui::GetContentRegionAvail().x;
  const std::string title =
      withValue(uiText("legend.title", language), uiText(metricKey(overlay.metric), language));
  ImGui::TextUnformatted(title.c_str());
  const float height = ImGui::GetFontSize() * 0.7f;
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
  drawEnds(uiText("legend.racks", language), overlay.rackRange, width);
  if (overlay.gpuRange.unit != overlay.rackRange.unit ||
      overlay.gpuRange.max != overlay.rackRange.max) {
    drawEnds(uiText("legend.gpus", language), overlay.gpuRange, width);
  }
  ImGui::End();
}

}  // namespace app
