#include "app/ui/panel_view.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <imgui.h>

#include "app/ui/legend.h"
#include "app/ui/ui_layer.h"
#include "app/ui/ui_text.h"
#include "app/ui/widgets.h"
#include "sim/basis.h"

namespace app {
namespace {

// Over capacity: a red that stays distinct from viridis for the common colour-vision deficiencies
// (the warning is also written out, never colour alone).
const ImVec4 WARNING_TEXT(1.0f, 0.38f, 0.33f, 1.0f);
const ImU32 WARNING_LINE = IM_COL32(255, 80, 70, 255);
const ImU32 CAPACITY_LINE = IM_COL32(255, 255, 255, 255);
const ImU32 BAR_BACKGROUND = IM_COL32(255, 255, 255, 28);

// Where a number comes from: its basis and source, or the evaluation it is an output of.
void drawProvenance(const PanelRowView& row, const std::string& language) {
  const std::string basis = row.basis ? std::string(sim::basisName(*row.basis)) : "derived";
  ImGui::TextDisabled("%s", withValue(uiText("panel.basis", language), basis).c_str());
  const std::string source =
      row.source.empty() ? "dcwalk sim: " + row.key + " (docs/sim.md)" : row.source;
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + ImGui::GetFontSize() * 24.0f);
  ImGui::TextWrapped("%s", withValue(uiText("panel.source", language), source).c_str());
  ImGui::PopTextWrapPos();
}

// The rows as a table; a row's basis and source show on hover and stay open once clicked.
void drawRows(const PanelView& view, const std::string& language) {
  static std::string pinned;  // the row key whose source is open (one panel on screen at a time)
  if (view.rows.empty()) return;
  if (!ImGui::BeginTable("##rows", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp))
    return;
  ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthStretch, 3.0f);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 2.0f);
  for (const PanelRowView& row : view.rows) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextWrapped("%s", row.label.c_str());
    ImGui::TableSetColumnIndex(1);
    const float width = ImGui::CalcTextSize(row.text.c_str()).x;
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::max(0.0f, ImGui::GetColumnWidth() - width));
    if (row.isFlag && row.value == 0.0) {
      ImGui::TextColored(WARNING_TEXT, "%s", row.text.c_str());
    } else {
      ImGui::TextUnformatted(row.text.c_str());
    }
    if (ImGui::IsItemClicked()) pinned = pinned == row.key ? std::string() : row.key;
    if (ImGui::IsItemHovered() && pinned != row.key) {
      ImGui::BeginTooltip();
      drawProvenance(row, language);
      ImGui::EndTooltip();
    }
    if (pinned == row.key) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      drawProvenance(row, language);
    }
  }
  ImGui::EndTable();
}

// Two lanes filling at the chips' real relative rates; the slower one takes `cycle_s` of wall
// time, then both start again.
void drawRace(const PixelRaceView& race, float width, float cycle_s) {
  const double slowest_s = std::max(race.cpuFrame_s, race.gpuFrame_s);
  if (!(slowest_s > 0) || !(cycle_s > 0)) return;
  const double wall_s = std::fmod(ImGui::GetTime(), double(cycle_s) * 1.25);
  const double simulated_s = wall_s / cycle_s * slowest_s;
  const float height = ImGui::GetFontSize() * 1.2f;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const struct {
    const char* name;
    double frame_s;
    double colour;
  } lanes[] = {{"CPU", race.cpuFrame_s, 0.25}, {"GPU", race.gpuFrame_s, 0.85}};
  for (const auto& lane : lanes) {
    const double done = std::clamp(simulated_s / lane.frame_s, 0.0, 1.0);
    const std::string text = std::string(lane.name) + "  " +
                             sim::formatQuantity(done * race.pixels, "race.pixels") + "\u00a0px";
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    draw->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + height), BAR_BACKGROUND,
                        height * 0.25f);
    draw->AddRectFilled(origin, ImVec2(origin.x + width * float(done), origin.y + height),
                        paletteColour(lane.colour), height * 0.25f);
    draw->AddText(ImVec2(origin.x + ImGui::GetFontSize() * 0.3f, origin.y + height * 0.08f),
                  lane.colour > 0.5 ? IM_COL32(10, 12, 16, 255) : CAPACITY_LINE, text.c_str());
    ImGui::Dummy(ImVec2(width, height));
  }
}

// Log-log roofline: the roof (bandwidth slope, then the flat peak), the ridge, and each point
// at its intensity on the roof, labelled memory- or compute-bound.
void drawRoofline(const RooflineView& roof, float width, const std::string& language) {
  const float em = ImGui::GetFontSize();
  const float height = em * 6.5f;
  double lo = roof.ridge_flops_per_byte, hi = roof.ridge_flops_per_byte;
  for (const auto& p : roof.points) {
    lo = std::min(lo, p.intensity_flops_per_byte);
    hi = std::max(hi, p.intensity_flops_per_byte);
  }
  const double x0 = std::log10(lo) - 0.5, x1 = std::log10(hi) + 0.5;
  const double y1 = std::log10(roof.peak_flops) + 0.3;
  const double y0 = std::log10(roof.bandwidth_Bps * std::pow(10.0, x0)) - 0.3;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  auto at = [&](double intensity, double flops) {
    const double u = (std::log10(intensity) - x0) / (x1 - x0);
    const double v = (std::log10(flops) - y0) / (y1 - y0);
    return ImVec2(origin.x + float(u) * width, origin.y + height - float(v) * height);
  };
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + height),
                      IM_COL32(255, 255, 255, 14), em * 0.2f);
  const double left = std::pow(10.0, x0), right = std::pow(10.0, x1);
  const ImU32 roofColour = ACCENT_RGBA;
  draw->AddLine(at(left, roof.bandwidth_Bps * left), at(roof.ridge_flops_per_byte, roof.peak_flops),
                roofColour, 2.5f);
  draw->AddLine(at(roof.ridge_flops_per_byte, roof.peak_flops), at(right, roof.peak_flops),
                roofColour, 2.5f);
  const std::string ridgeText =
      withValue(uiText("panel.ridge", language),
                sim::formatQuantity(roof.ridge_flops_per_byte, "ridge_flops_per_byte"));
  const ImVec2 ridge = at(roof.ridge_flops_per_byte, roof.peak_flops);
  draw->AddText(ImVec2(ridge.x + 4.0f, ridge.y + 2.0f), IM_COL32(220, 220, 220, 255),
                ridgeText.c_str());
  for (size_t i = 0; i < roof.points.size(); ++i) {
    const auto& p = roof.points[i];
    const ImVec2 c = at(p.intensity_flops_per_byte, p.attainable_flops);
    const ImU32 colour = paletteColour((double(i) + 0.5) / double(roof.points.size()) * 0.7);
    draw->AddCircleFilled(c, em * 0.35f, colour);
    draw->AddCircle(c, em * 0.35f, IM_COL32(255, 255, 255, 220), 0, 1.5f);
    const std::string text =
        p.label + ": " +
        uiText(p.memoryBound ? "panel.memory_bound" : "panel.compute_bound", language);
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    const float tx = std::clamp(c.x - size.x * 0.5f, origin.x, origin.x + width - size.x);
    const float ty = p.memoryBound ? c.y + em * 0.5f : c.y - em * 1.5f;
    draw->AddText(ImVec2(tx, ty), IM_COL32(240, 240, 240, 255), text.c_str());
  }
  ImGui::Dummy(ImVec2(width, height));
  ImGui::TextDisabled("%s", uiText("panel.roofline", language));
}

void drawBar(const PanelBarView& bar, float width) {
  ImGui::TextUnformatted(bar.label.c_str());
  const double full = std::max(bar.capacity, bar.total);
  if (!(full > 0)) return;
  const float height = ImGui::GetFontSize() * 1.4f;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + height), BAR_BACKGROUND);
  const size_t n = bar.segments.size();
  double start = 0;
  for (size_t i = 0; i < n; ++i) {
    const double value = std::max(0.0, bar.segments[i].value);
    const float x0 = origin.x + width * float(start / full);
    const float x1 = origin.x + width * float((start + value) / full);
    draw->AddRectFilled(ImVec2(x0, origin.y), ImVec2(x1, origin.y + height),
                        paletteColour((double(i) + 0.5) / double(n)));
    start += value;
  }
  const float capX = origin.x + width * float(bar.capacity / full);
  draw->AddLine(ImVec2(capX, origin.y - 3.0f), ImVec2(capX, origin.y + height + 3.0f),
                CAPACITY_LINE, 3.0f);
  if (bar.over)
    draw->AddRect(origin, ImVec2(origin.x + width, origin.y + height), WARNING_LINE, 0.0f, 0, 3.0f);
  ImGui::Dummy(ImVec2(width, height + 4.0f));
  for (size_t i = 0; i < n; ++i) {
    const float box = ImGui::GetFontSize() * 0.8f;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    draw->AddRectFilled(ImVec2(at.x, at.y + box * 0.15f), ImVec2(at.x + box, at.y + box * 1.15f),
                        paletteColour((double(i) + 0.5) / double(n)));
    ImGui::Dummy(ImVec2(box, box));
    ImGui::SameLine();
    ImGui::Text("%s  %s", bar.segments[i].label.c_str(), bar.segments[i].text.c_str());
  }
  // In words too, never colour alone.
  ImGui::Text("%s / %s", bar.totalText.c_str(), bar.capacityText.c_str());
  if (bar.over) {
    ImGui::SameLine();
    ImGui::TextColored(WARNING_TEXT, "%s", bar.overText.c_str());
  }
}

bool drawKnobs(const PanelView& view, std::vector<double>& knobValues, float width,
               const std::string& language) {
  bool changed = false;
  ImGui::PushItemWidth(width * 0.5f);
  for (size_t i = 0; i < view.knobs.size(); ++i) {
    const PanelKnobView& knob = view.knobs[i];
    ImGui::PushID(int(i));  // the label changes with the language; the ID must not
    const std::string label = knob.label + "###knob";
    if (!knob.choices.empty()) {
      const int current = int(knob.value);
      const char* preview =
          current >= 0 ? knob.choices[size_t(current)].c_str() : knob.text.c_str();
      if (ImGui::BeginCombo(label.c_str(), preview)) {
        for (size_t c = 0; c < knob.choices.size(); ++c) {
          if (ImGui::Selectable(knob.choices[c].c_str(), int(c) == current) && int(c) != current) {
            knobValues[i] = double(c);
            changed = true;
          }
        }
        ImGui::EndCombo();
      }
    } else {
      double value = std::isnan(knobValues[i]) ? knob.value : knobValues[i];
      if (std::isnan(value)) value = knob.min;
      // The evaluated value with its unit (as text: '%' escaped), else a plain number.
      std::string format;
      for (char c : knob.text) format += c == '%' ? std::string("%%") : std::string(1, c);
      if (format.empty()) format = knob.step >= 1.0 ? "%.0f" : "%.2f";
      const ImGuiSliderFlags flags =
          ImGuiSliderFlags_AlwaysClamp | (knob.log ? ImGuiSliderFlags_Logarithmic : 0);
      if (ImGui::SliderScalar(label.c_str(), ImGuiDataType_Double, &value, &knob.min, &knob.max,
                              format.c_str(), flags)) {
        knobValues[i] = value;
        changed = true;
      }
    }
    ImGui::PopID();
  }
  ImGui::PopItemWidth();
  if (!view.knobs.empty() && stableButton(uiText("panel.reset", language), "reset")) {
    std::fill(knobValues.begin(), knobValues.end(), std::nan(""));
    changed = true;
  }
  return changed;
}

}  // namespace

PanelInput drawPanel(const PanelView& view, std::vector<double>& knobValues,
                     const PanelDrawDesc& desc) {
  PanelInput input;
  knobValues.resize(view.knobs.size(), std::nan(""));
  if (emptyRect(desc.region)) return input;
  const std::string& language = desc.language;
  placeInRegion(desc.region, 1.0f, 0.0f, desc.region[2] - desc.region[0]);
  ImGui::Begin("##panel", nullptr, panelWindowFlags());
  const float width = ImGui::GetContentRegionAvail().x;
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  ImGui::TextUnformatted(view.title.c_str());
  ImGui::TextDisabled("%s", view.scenario.c_str());
  ImGui::Separator();
  if (!view.error.empty()) ImGui::TextColored(WARNING_TEXT, "%s", view.error.c_str());
  if (view.verdict) {
    // The verdict first, in large type; its basis is one hover or click away like every row's.
    if (desc.verdictFont) ImGui::PushFont(desc.verdictFont);
    if (view.verdict->warning) ImGui::PushStyleColor(ImGuiCol_Text, WARNING_TEXT);
    // Broken as the captions are: never between a number and its unit ("7.49 / ms").
    ImGui::BeginGroup();
    for (const std::string& line : wrapText(view.verdict->text, width, [](const std::string& l) {
           return ImGui::CalcTextSize(l.c_str()).x;
         }))
      ImGui::TextUnformatted(line.c_str());
    ImGui::EndGroup();
    if (view.verdict->warning) ImGui::PopStyleColor();
    if (desc.verdictFont) ImGui::PopFont();
    if (ImGui::IsItemHovered()) {
      if (const PanelRowView* row = view.value(view.verdict->key)) {
        ImGui::BeginTooltip();
        drawProvenance(*row, language);
        ImGui::EndTooltip();
      }
    }
  }
  if (view.race) {
    ImGui::Spacing();
    drawRace(*view.race, width, desc.raceCycle_s);
  }
  if (view.roofline) {
    ImGui::Spacing();
    drawRoofline(*view.roofline, width, language);
  }
  if (view.bar) {
    ImGui::Spacing();
    drawBar(*view.bar, width);
  }
  if (!view.knobs.empty() || !view.buttons.empty()) {
    ImGui::Spacing();
    ImGui::Separator();
    if (!desc.interactive) ImGui::BeginDisabled();
    input.knobsChanged = drawKnobs(view, knobValues, width, language) && desc.interactive;
    for (size_t i = 0; i < view.buttons.size(); ++i) {
      if (i > 0 && ImGui::GetItemRectMax().x +
                           ImGui::CalcTextSize(view.buttons[i].label.c_str()).x +
                           ImGui::GetFontSize() * 2 <
                       ImGui::GetWindowPos().x + width)
        ImGui::SameLine();
      if (stableButton(view.buttons[i].label, view.buttons[i].id.c_str()) && desc.interactive)
        input.button = i;
    }
    if (!desc.interactive) ImGui::EndDisabled();
  }
  ImGui::Spacing();
  ImGui::TextDisabled("%s",
                      uiText(desc.details ? "hud.details_hide" : "hud.details_hint", language));
  if (desc.details) drawRows(view, language);
  ImGui::PopTextWrapPos();
  ImGui::End();
  return input;
}

}  // namespace app
