#include "app/ui/ui_layer.h"

#include <algorithm>
#include <cfloat>
#include <filesystem>
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>  // the windows of the frame, for labels to keep clear of

#include "app/ui/panel_view.h"

namespace app {
namespace {

// Debian paths of the UI fonts, in order of preference (fonts-inter, fonts-dejavu-core).
constexpr const char* FONT_CANDIDATES[] = {
    "/usr/share/fonts/opentype/inter/Inter-Regular.otf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
};
constexpr const char* TITLE_FONT_CANDIDATES[] = {
    "/usr/share/fonts/opentype/inter/Inter-SemiBold.otf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
};

// The characters the strings use: Latin with the German letters, Greek (alpha, beta), general
// punctuation (dashes, quotes, ellipsis), super/subscripts, arrows and maths (minus, times,
// less-or-equal). Zero-terminated pairs; ImGui keeps the pointer, so it is static.
constexpr ImWchar GLYPH_RANGES[] = {
    0x0020, 0x017F,  // Basic Latin, Latin-1, Latin Extended-A
    0x0370, 0x03FF,  // Greek
    0x2000, 0x209F,  // General Punctuation, Superscripts and Subscripts
    0x2100, 0x22FF,  // Letterlike Symbols, Number Forms, Arrows, Mathematical Operators
    0,
};

// The UI's size guard. Below MIN_FONT_PIXELS ImGui's scaled style sizes round to nothing
// (WindowMinSize < 1 aborts with "Invalid style setting": a 16-pixel-tall image asked for a
// 0.4 px font), so the UI is drawn at that size and may overflow a tiny image. Fonts are
// rasterised at MAX_FONT_RASTER_PIXELS at most and scaled up beyond it: the atlas grows with the
// square of the size (a 204 px font for an 8192-pixel-tall image took 1.6 GB).
constexpr float MIN_FONT_PIXELS = 6.0f;
constexpr float MAX_FONT_RASTER_PIXELS = 64.0f;

ImFont* loadFirst(const char* const* candidates, size_t count, float pixels) {
  ImGuiIO& io = ImGui::GetIO();
  for (size_t i = 0; i < count; ++i) {
    std::error_code ec;
    if (std::filesystem::exists(candidates[i], ec)) {
      ImFontConfig config;
      config.OversampleH = 2;
      if (ImFont* font =
              io.Fonts->AddFontFromFileTTF(candidates[i], pixels, &config, GLYPH_RANGES)) {
        return font;
      }
    }
  }
  return nullptr;
}

void applyStyle(float scale) {
  ImGuiStyle& style = ImGui::GetStyle();
  ImGui::StyleColorsDark(&style);
  style.WindowRounding = 6.0f;
  style.FrameRounding = 4.0f;
  style.WindowBorderSize = 0.0f;
  style.Colors[ImGuiCol_WindowBg] = ImVec4(0.06f, 0.07f, 0.09f, 0.78f);
  style.ScaleAllSizes(scale);
}

}  // namespace

UiLayer::UiLayer(float fontPixels) {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // no imgui.ini written next to the user's files
  if (!(fontPixels >= MIN_FONT_PIXELS)) fontPixels = MIN_FONT_PIXELS;  // NaN too
  const float raster = std::min(fontPixels, MAX_FONT_RASTER_PIXELS);
  io.FontGlobalScale = fontPixels / raster;
  ImFont* body = loadFirst(FONT_CANDIDATES, std::size(FONT_CANDIDATES), raster);
  if (!body) {
    ImFontConfig config;
    config.SizePixels = raster;
    io.Fonts->AddFontDefault(&config);
  }
  m_titleFont = loadFirst(TITLE_FONT_CANDIDATES, std::size(TITLE_FONT_CANDIDATES), raster * 1.6f);
  m_captionFont = loadFirst(FONT_CANDIDATES, std::size(FONT_CANDIDATES), raster * 1.3f);
  applyStyle(fontPixels / 16.0f);
}

UiLayer::~UiLayer() {
  ImGui::DestroyContext();
}

void UiLayer::beginFrame(float width, float height, float deltaSeconds) {
  ImGuiIO& io = ImGui::GetIO();
  if (width > 0 && height > 0) io.DisplaySize = ImVec2(width, height);
  io.DeltaTime = deltaSeconds > 0 ? deltaSeconds : 1.0f / 60.0f;
  ImGui::NewFrame();
}

std::vector<PlacedLabel> layoutLabels(
    const world::RenderList& list, float width, float height, float pad,
    const std::function<std::pair<float, float>(const std::string&)>& measure,
    const std::vector<ScreenRect>& reserved) {
  std::vector<PlacedLabel> placed;
  if (list.labels.empty() || width <= 0 || height <= 0) return placed;
  float viewProj[16];
  world::viewProjection(list.view, width / height, viewProj);
  std::vector<const world::Label*> order;
  for (const world::Label& label : list.labels) order.push_back(&label);
  std::stable_sort(order.begin(), order.end(), [](const world::Label* a, const world::Label* b) {
    return a->priority > b->priority;
  });
  for (const world::Label* label : order) {
    const float* a = label->anchor;
    float clip[4];
    for (int row = 0; row < 4; ++row) {
      clip[row] = viewProj[0 * 4 + row] * a[0] + viewProj[1 * 4 + row] * a[1] +
                  viewProj[2 * 4 + row] * a[2] + viewProj[3 * 4 + row];
    }
    if (clip[3] <= 0) continue;  // behind the camera
    const float x = (clip[0] / clip[3] * 0.5f + 0.5f) * width;
    const float y = (clip[1] / clip[3] * 0.5f + 0.5f) * height;
    if (x < 0 || y < 0 || x > width || y > height) continue;
    const auto [textW, textH] = measure(label->text);
    const float w = textW + 2 * pad, h = textH + 2 * pad;
    if (w > width || h > height) continue;
    // Above the anchor, centred on it, kept whole on screen (the leader line still points at
    // the anchor).
    const float x0 = std::clamp(x - 0.5f * w, 0.0f, width - w);
    const float y0 = std::clamp(y - h, 0.0f, height - h);
    PlacedLabel out{{x0, y0, x0 + w, y0 + h}, x, y, label->text, label->rgba};
    auto overlaps = [&](const float* o) {
      return out.box[0] < o[2] && o[0] < out.box[2] && out.box[1] < o[3] && o[1] < out.box[3];
    };
    if (std::any_of(placed.begin(), placed.end(),
                    [&](const PlacedLabel& o) { return overlaps(o.box); }) ||
        std::any_of(reserved.begin(), reserved.end(),
                    [&](const ScreenRect& r) { return overlaps(r.data()); })) {
      continue;
    }
    placed.push_back(out);
  }
  return placed;
}

namespace {

std::vector<ScreenRect> windowsDrawnThisFrame() {
  std::vector<ScreenRect> rects;
  for (const ImGuiWindow* window : ImGui::GetCurrentContext()->Windows) {
    // Begun this frame and shown (an auto-sized window is hidden in its first frame while it
    // measures itself); not ImGui's implicit fallback window, not a child inside another.
    if (!window->Active || window->Hidden || window->IsFallbackWindow ||
        (window->Flags & ImGuiWindowFlags_ChildWindow)) {
      continue;
    }
    rects.push_back({window->Pos.x, window->Pos.y, window->Pos.x + window->Size.x,
                     window->Pos.y + window->Size.y});
  }
  return rects;
}

}  // namespace

int UiLayer::drawLabels(const world::RenderList& list, float width, float height) {
  const float pad = ImGui::GetFontSize() * 0.3f;
  m_placedLabels = layoutLabels(
      list, width, height, pad,
      [](const std::string& text) {
        const ImVec2 size = ImGui::CalcTextSize(text.c_str());
        return std::pair{size.x, size.y};
      },
      windowsDrawnThisFrame());
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  for (const PlacedLabel& p : m_placedLabels) {
    const ImVec2 min(p.box[0], p.box[1]), max(p.box[2], p.box[3]);
    draw->AddRectFilled(min, max, LABEL_PLATE_RGBA, pad);
    draw->AddLine(ImVec2(p.anchorX, max.y), ImVec2(p.anchorX, max.y + pad * 2),
                  IM_COL32(255, 255, 255, 160), 1.5f);
    draw->AddText(ImVec2(min.x + pad, min.y + pad), p.rgba, p.text.c_str());
  }
  return int(m_placedLabels.size());
}

void UiLayer::drawHud(const HudInfo& hud) {
  const ImGuiIO& io = ImGui::GetIO();
  const float margin = ImGui::GetFontSize();
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                                 ImGuiWindowFlags_NoInputs;
  m_titleBottom = 0;
  if (!hud.title.empty()) {
    ImGui::SetNextWindowPos(ImVec2(margin, margin));
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(io.DisplaySize.x * 0.45f, FLT_MAX));
    ImGui::Begin("##title", nullptr, flags);
    if (m_titleFont) ImGui::PushFont(m_titleFont);
    ImGui::TextUnformatted(hud.title.c_str());
    if (m_titleFont) ImGui::PopFont();
    if (!hud.subtitle.empty()) {
      ImGui::PushTextWrapPos(io.DisplaySize.x * 0.42f);
      ImGui::TextUnformatted(hud.subtitle.c_str());
      ImGui::PopTextWrapPos();
    }
    m_titleBottom = ImGui::GetWindowPos().y + ImGui::GetWindowHeight();
    ImGui::End();
  }
  if (!hud.status.empty()) {
    ImGui::SetNextWindowPos(ImVec2(margin, io.DisplaySize.y - margin), 0, ImVec2(0, 1));
    ImGui::Begin("##status", nullptr, flags);
    ImGui::TextUnformatted(hud.status.c_str());
    ImGui::End();
  }
  float helpHeight = 0;  // the caption sits above the key help, never under it
  if (!hud.help.empty()) {
    ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - margin, io.DisplaySize.y - margin), 0,
                            ImVec2(1, 1));
    ImGui::Begin("##help", nullptr, flags);
    ImGui::TextUnformatted(hud.help.c_str());
    helpHeight = ImGui::GetWindowHeight() + margin;
    ImGui::End();
  }
  if (!hud.caption.empty()) {
    // Centred in what the panel leaves free.
    const float free = io.DisplaySize.x - (hud.panelOnRight ? margin * (PANEL_WIDTH_EM + 3.0f) : 0);
    const float width = std::min(free * 0.62f, ImGui::GetFontSize() * 40.0f);
    ImGui::SetNextWindowPos(
        ImVec2(free * 0.5f, io.DisplaySize.y - std::max(margin * 4.0f, helpHeight)), 0,
        ImVec2(0.5f, 1.0f));
    ImGui::SetNextWindowSize(ImVec2(width, 0));
    ImGui::Begin("##caption", nullptr, flags & ~ImGuiWindowFlags_AlwaysAutoResize);
    if (m_captionFont) ImGui::PushFont(m_captionFont);
    ImGui::PushTextWrapPos(0.0f);
    if (hud.captionIsAction) {
      ImGui::TextColored(ImVec4(1.0f, 0.82f, 0.35f, 1.0f), "%s", hud.caption.c_str());
    } else {
      ImGui::TextUnformatted(hud.caption.c_str());
    }
    ImGui::PopTextWrapPos();
    if (m_captionFont) ImGui::PopFont();
    ImGui::End();
  }
  if (!hud.banner.empty()) {
    ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.4f), 0,
                            ImVec2(0.5f, 0.5f));
    ImGui::Begin("##banner", nullptr, flags);
    if (m_titleFont) ImGui::PushFont(m_titleFont);
    ImGui::TextUnformatted(hud.banner.c_str());
    if (m_titleFont) ImGui::PopFont();
    ImGui::End();
  }
}

std::optional<size_t> UiLayer::drawChapterMenu(const std::string& heading,
                                               const std::vector<std::string>& entries,
                                               size_t current) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.45f), 0,
                          ImVec2(0.5f, 0.5f));
  ImGui::Begin("##chapters", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                   ImGuiWindowFlags_NoSavedSettings);
  if (m_titleFont) ImGui::PushFont(m_titleFont);
  ImGui::TextUnformatted(heading.c_str());
  if (m_titleFont) ImGui::PopFont();
  std::optional<size_t> clicked;
  const float width = ImGui::GetFontSize() * 22.0f;
  for (size_t i = 0; i < entries.size(); ++i) {
    const bool here = i == current;
    if (here) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.20f, 0.45f, 0.75f, 1.0f));
    ImGui::PushID(int(i));
    if (ImGui::Button(entries[i].c_str(), ImVec2(width, 0))) clicked = i;
    ImGui::PopID();
    if (here) ImGui::PopStyleColor();
  }
  ImGui::End();
  return clicked;
}

ImDrawData* UiLayer::endFrame() {
  ImGui::EndFrame();
  m_windowRects = windowsDrawnThisFrame();
  ImGui::Render();
  return ImGui::GetDrawData();
}

}  // namespace app
