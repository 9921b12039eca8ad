#include "app/ui/timeline_panel.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "app/ui/legend.h"

namespace app {
namespace {

// Seconds with a unit that suits them: "4.21 s", "12.3 ms", "850 µs".
std::string formatSeconds(double s) {
  char text[32];
  if (s >= 1.0) {
    std::snprintf(text, sizeof(text), "%.2f s", s);
  } else if (s >= 1e-3) {
    std::snprintf(text, sizeof(text), "%.1f ms", s * 1e3);
  } else {
    std::snprintf(text, sizeof(text), "%.0f µs", s * 1e6);
  }
  return text;
}

// One horizontal bar of segments, each as wide as its share of `total_s`; the labels go in
// the segments wide enough to hold them. Returns the bar's left edge and width.
void drawSegments(const std::vector<TimelineSegment>& segments, double total_s, float width,
                  float height, double paletteOffset, double cursor_s) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  float x = origin.x;
  for (size_t i = 0; i < segments.size(); ++i) {
    const float w = total_s > 0 ? float(segments[i].duration_s / total_s) * width : 0.0f;
    const double t = paletteOffset + 0.8 * double(i) / double(std::max<size_t>(1, segments.size()));
    draw->AddRectFilled(ImVec2(x, origin.y), ImVec2(x + w, origin.y + height), paletteColour(t));
    const ImVec2 textSize = ImGui::CalcTextSize(segments[i].label.c_str());
    if (textSize.x + 6.0f < w) {
      const ImU32 ink = t > 0.55 ? IM_COL32(20, 20, 30, 255) : IM_COL32(245, 245, 245, 255);
      draw->AddText(ImVec2(x + 3.0f, origin.y + (height - textSize.y) * 0.5f), ink,
                    segments[i].label.c_str());
    }
    x += w;
  }
  if (cursor_s >= 0 && total_s > 0) {
    const float cx = origin.x + float(std::min(1.0, cursor_s / total_s)) * width;
    draw->AddLine(ImVec2(cx, origin.y - 3.0f), ImVec2(cx, origin.y + height + 3.0f),
                  IM_COL32(255, 80, 60, 255), 3.0f);
  }
  ImGui::Dummy(ImVec2(width, height));
}

}  // namespace

void drawTimeline(const Timeline& timeline, const TimeState& state,
                  std::vector<SimCommand>& commands) {
  const ImGuiIO& io = ImGui::GetIO();
  const float em = ImGui::GetFontSize();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, em * 0.6f), 0, ImVec2(0.5f, 0.0f));
  ImGui::SetNextWindowBgAlpha(0.8f);
  ImGui::Begin("##timeline", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing);
  if (ImGui::Button(state.paused ? "Play (P)" : "Pause (P)"))
    commands.push_back(SimCommand::togglePause());
  ImGui::SameLine();
  if (ImGui::Button("Step (N)")) commands.push_back(SimCommand::step());
  ImGui::SameLine();
  if (ImGui::Button("Slower ([)")) commands.push_back(SimCommand::scaleSpeed(0.5));
  ImGui::SameLine();
  if (ImGui::Button("Faster (])")) commands.push_back(SimCommand::scaleSpeed(2.0));
  ImGui::SameLine();
  ImGui::Text("t = %s   x%g%s", formatSeconds(state.time_s).c_str(), state.speed,
              state.paused ? "   paused" : "");
  float scrub = float(state.time_s);
  ImGui::SetNextItemWidth(em * 30.0f);
  ImGui::SliderFloat("##scrub", &scrub, 0.0f, float(std::max(state.scrubMax_s, state.time_s)),
                     "scrub %.2f s");
  if (ImGui::IsItemDeactivatedAfterEdit()) commands.push_back(SimCommand::scrub(double(scrub)));

  if (timeline.training) {
    const float width = em * 30.0f;
    ImGui::Text("Training step as routed now: %s", formatSeconds(timeline.step_s).c_str());
    if (timeline.lastStep_s > 0) {
      ImGui::SameLine();
      ImGui::Text("  last %s  fault-free %s", formatSeconds(timeline.lastStep_s).c_str(),
                  formatSeconds(timeline.faultFreeStep_s).c_str());
    }
    drawSegments(timeline.phases, timeline.step_s, width, em * 1.3f, 0.1, timeline.cursor_s);
    const double pipeline_s = timeline.phases.empty() ? 0.0 : timeline.phases[0].duration_s;
    std::string makeup = "pipeline:";
    for (const auto& s : timeline.pipeline) {
      char part[96];
      std::snprintf(part, sizeof(part), "  %s %s", s.label.c_str(),
                    formatSeconds(s.duration_s).c_str());
      makeup += part;
    }
    drawSegments(timeline.pipeline, pipeline_s, width, em * 0.6f, 0.2, -1.0);
    ImGui::TextUnformatted(makeup.c_str());
  } else {
    ImGui::TextUnformatted("Inference service: requests arrive and decode continuously.");
  }
  ImGui::End();
}

}  // namespace app
