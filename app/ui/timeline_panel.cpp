#include "app/ui/timeline_panel.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "app/ui/legend.h"
#include "app/ui/panels.h"
#include "app/ui/ui_layer.h"
#include "app/ui/ui_text.h"
#include "app/ui/widgets.h"

namespace app {
namespace {

// Seconds with a unit that suits them, as the panels write them ("4.21 s", "12.3 ms").
std::string formatSeconds(double s) {
  return sim::formatQuantity(s, "time_s");
}

// A segment's name in the UI's language.
std::string segmentName(const std::string& label, const std::string& language) {
  const std::string key = "segment." + label;
  const char* text = uiText(key, language);
  return key == text ? label : std::string(text);
}

// One horizontal bar of segments, each as wide as its share of `total_s`; the labels go in
// the segments wide enough to hold them.
void drawSegments(const std::vector<TimelineSegment>& segments, double total_s, float width,
                  float height, double paletteOffset, double cursor_s,
                  const std::string& language) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  float x = origin.x;
  for (size_t i = 0; i < segments.size(); ++i) {
    const float w = total_s > 0 ? float(segments[i].duration_s / total_s) * width : 0.0f;
    const double t = paletteOffset + 0.8 * double(i) / double(std::max<size_t>(1, segments.size()));
    draw->AddRectFilled(ImVec2(x, origin.y), ImVec2(x + w, origin.y + height), paletteColour(t));
    const std::string name = segmentName(segments[i].label, language);
    const ImVec2 textSize = ImGui::CalcTextSize(name.c_str());
    if (textSize.x + 6.0f < w && textSize.y <= height) {
      const ImU32 ink = t > 0.55 ? IM_COL32(20, 20, 30, 255) : IM_COL32(245, 245, 245, 255);
      draw->AddText(ImVec2(x + 3.0f, origin.y + (height - textSize.y) * 0.5f), ink, name.c_str());
    }
    x += w;
  }
  if (cursor_s >= 0 && total_s > 0) {
    const float cx = origin.x + float(std::min(1.0, cursor_s / total_s)) * width;
    draw->AddLine(ImVec2(cx, origin.y - 3.0f), ImVec2(cx, origin.y + height + 3.0f),
                  IM_COL32(255, 255, 255, 255), 3.0f);
  }
  ImGui::Dummy(ImVec2(width, height));
}

// Play/pause, step, slower/faster, the clock and the scrub slider.
void drawControls(const TimeState& state, float width, const std::string& language,
                  std::vector<SimCommand>& commands) {
  if (stableButton(uiText(state.paused ? "time.play" : "time.pause", language), "play"))
    commands.push_back(SimCommand::togglePause());
  ImGui::SameLine();
  if (stableButton(uiText("time.step", language), "step")) commands.push_back(SimCommand::step());
  ImGui::SameLine();
  if (stableButton(uiText("time.slower", language), "slower"))
    commands.push_back(SimCommand::scaleSpeed(0.5));
  ImGui::SameLine();
  if (stableButton(uiText("time.faster", language), "faster"))
    commands.push_back(SimCommand::scaleSpeed(2.0));
  ImGui::SameLine();
  const double shown_s = shownTime_s(state);
  char clock[96];
  std::snprintf(clock, sizeof clock, "t = %s   ×%g%s%s", formatSeconds(shown_s).c_str(),
                state.speed, state.paused ? "   " : "",
                state.paused ? uiText("time.paused", language) : "");
  ImGui::TextUnformatted(clock);
  // The slider shows where the simulation is going while it catches up, so a released scrub
  // holds where it was let go instead of snapping back to the old engine's time.
  float scrub = float(shown_s);
  const std::string format = std::string(uiText("time.scrub", language)) + " %.2f s";
  ImGui::SetNextItemWidth(width);
  ImGui::SliderFloat("##scrub", &scrub, 0.0f, float(std::max(state.scrubMax_s, shown_s)),
                     format.c_str());
  recordControl(format, "scrub");
  // In the frame the button is released the slider writes nothing, so `scrub` is the engine's
  // time again: the time to go to is the last one the drag wrote, kept in ImGui's storage.
  ImGuiStorage* storage = ImGui::GetStateStorage();
  const ImGuiID dragged = ImGui::GetID("##scrub");  // the slider's own ID
  if (ImGui::IsItemEdited()) storage->SetFloat(dragged, scrub);
  if (ImGui::IsItemDeactivatedAfterEdit())
    commands.push_back(SimCommand::scrub(double(storage->GetFloat(dragged, scrub))));
}

// The traced step: its length, its shares as one bar, the compute's make-up as a thin one,
// and the measured vs modelled lines.
void drawMeasured(const Timeline& timeline, float width, float em, const std::string& language) {
  std::string line =
      timeline.stepNumber >= 0
          ? withValue(uiText("time.measured_step", language), std::to_string(timeline.stepNumber))
          : std::string(uiText("time.measured_trace", language));
  line += " (" + withValue(uiText("time.rank", language), std::to_string(timeline.rank)) +
          "): " + formatSeconds(timeline.step_s);
  ImGui::TextUnformatted(line.c_str());
  drawSegments(timeline.phases, timeline.step_s, width, em * 1.15f, 0.1, timeline.cursor_s,
               language);
  // The compute classes are unions of their own: on several streams they may overlap, so the
  // thin bar is as long as their sum when that exceeds the compute's union.
  double kernels_s = 0;
  for (const TimelineSegment& s : timeline.pipeline) kernels_s += s.duration_s;
  const double compute_s = timeline.phases.empty() ? 0.0 : timeline.phases[0].duration_s;
  drawSegments(timeline.pipeline, std::max(kernels_s, compute_s), width, em * 0.45f, 0.2, -1.0,
               language);
  std::string makeup = uiText("time.kernels", language);
  for (const TimelineSegment& s : timeline.pipeline)
    makeup += "  " + segmentName(s.label, language) + " " + formatSeconds(s.duration_s);
  ImGui::TextDisabled("%s", makeup.c_str());
  // Wrapped at the panel's edge: the shares line is longer than a narrow window.
  ImGui::PushTextWrapPos(0.0f);
  for (const std::string& text : timeline.comparison) ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
}

}  // namespace

double ScrubRange::update(uint64_t run, double time_s) {
  m_max_s = run == m_run ? std::max(m_max_s, time_s) : time_s;
  m_run = run;
  return m_max_s;
}

double shownTime_s(const TimeState& state) {
  return state.catchingUp ? state.catchUpTarget_s : state.time_s;
}

void drawTimeline(const Timeline& timeline, const TimeState& state, const ScreenRect& region,
                  const std::string& language, std::vector<SimCommand>& commands) {
  if (emptyRect(region)) return;
  const float em = ImGui::GetFontSize();
  placeInRegion(region, 0.0f, 1.0f, region[2] - region[0]);
  ImGui::Begin("##timeline", nullptr, panelWindowFlags());
  const float width = ImGui::GetContentRegionAvail().x;
  if (state.controls) drawControls(state, width, language, commands);
  if (timeline.measured) {
    drawMeasured(timeline, width, em, language);
  } else if (timeline.training) {
    std::string line =
        withValue(uiText("time.step_routed", language), formatSeconds(timeline.step_s));
    if (timeline.lastStep_s > 0) {
      line += "   " + withValue(uiText("time.last", language), formatSeconds(timeline.lastStep_s));
      line += "   " + withValue(uiText("time.fault_free", language),
                                formatSeconds(timeline.faultFreeStep_s));
    }
    ImGui::TextUnformatted(line.c_str());
    // A held step (a PFC pause, a stall) says how long it has run; the bar stays the routed step,
    // its cursor where the step is held.
    if (timeline.held) {
      ImGui::SameLine();
      ImGui::TextColored(
          ImVec4(1.0f, 0.72f, 0.3f, 1.0f), "   %s",
          withValue(uiText("time.held", language), formatSeconds(timeline.soFar_s)).c_str());
    }
    drawSegments(timeline.phases, timeline.step_s, width, em * 1.15f, 0.1, timeline.cursor_s,
                 language);
    const double pipeline_s = timeline.phases.empty() ? 0.0 : timeline.phases[0].duration_s;
    std::string makeup = uiText("time.pipeline", language);
    for (const auto& s : timeline.pipeline)
      makeup += "  " + segmentName(s.label, language) + " " + formatSeconds(s.duration_s);
    drawSegments(timeline.pipeline, pipeline_s, width, em * 0.45f, 0.2, -1.0, language);
    ImGui::TextDisabled("%s", makeup.c_str());
  } else {
    ImGui::TextDisabled("%s", uiText("time.inference", language));
  }
  ImGui::End();
}

}  // namespace app
