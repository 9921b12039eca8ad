#include "app/ui/ui_layer.h"

#include "app/ui/widgets.h"

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <filesystem>
#include <optional>
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>  // the windows of the frame, for labels to keep clear of

namespace app {
namespace {

// Debian paths of the UI fonts, in order of preference (fonts-inter, fonts-dejavu-core).
constexpr const char* FONT_CANDIDATES[] = {
    "/usr/share/fonts/opentype/inter/Inter-Regular.otf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
};
constexpr const char* STRONG_FONT_CANDIDATES[] = {
    "/usr/share/fonts/opentype/inter/Inter-SemiBold.otf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
};

// The characters the strings use: Latin with the German letters, Greek (alpha, beta, Delta, mu),
// m with a dot above (the mass flow in Q = ṁ·c_p·ΔT), general punctuation (dashes, quotes,
// ellipsis, the no-break spaces), super/subscripts, arrows and maths (minus, times, approx,
// less-or-equal). Zero-terminated pairs; ImGui keeps the pointer, so they are static.
constexpr ImWchar BODY_GLYPHS[] = {
    0x0020, 0x017F,  // Basic Latin, Latin-1, Latin Extended-A
    0x0370, 0x03FF,  // Greek
    0x1E40, 0x1E41,  // Ṁ ṁ
    0x2000, 0x209F,  // General Punctuation, Superscripts and Subscripts
    0x2100, 0x22FF,  // Letterlike Symbols, Number Forms, Arrows, Mathematical Operators
    0,
};
// The large fonts (titles, captions, headlines) carry text and numbers, not formulas: a smaller
// atlas at 4K.
constexpr ImWchar LARGE_GLYPHS[] = {
    0x0020, 0x017F, 0x0394, 0x0394, 0x03BC, 0x03BC, 0x1E41, 0x1E41, 0x2009, 0x2026, 0x202F,
    0x202F, 0x2190, 0x2193, 0x2212, 0x2212, 0x2248, 0x2248, 0x2264, 0x2265, 0,
};

// Sizes of the other fonts in body heights.
constexpr float TITLE_SCALE = 1.6f;
constexpr float CAPTION_SCALE = 1.3f;
constexpr float HEADLINE_SCALE = 2.0f;  // the engineer panel's verdict
// The booth's one number, read from three to five metres: 3.6 em (97 px at 1920x1080; issue 35).
constexpr float BOOTH_HEADLINE_SCALE = 3.6f;

// The UI's size guard. Below MIN_FONT_PIXELS ImGui's scaled style sizes round to nothing
// (WindowMinSize < 1 aborts with "Invalid style setting": a 16-pixel-tall image asked for a
// 0.4 px font), so the UI is drawn at that size and may overflow a tiny image. Fonts are
// rasterised at MAX_FONT_RASTER_PIXELS at most (the body; the larger fonts at their scale of it)
// and scaled up beyond it: the atlas grows with the square of the size (a 204 px font for an
// 8192-pixel-tall image took 1.6 GB).
constexpr float MIN_FONT_PIXELS = 6.0f;
constexpr float MAX_FONT_RASTER_PIXELS = 64.0f;

ImFont* loadFirst(const char* const* candidates, size_t count, float pixels,
                  const ImWchar* ranges) {
  ImGuiIO& io = ImGui::GetIO();
  for (size_t i = 0; i < count; ++i) {
    std::error_code ec;
    if (std::filesystem::exists(candidates[i], ec)) {
      ImFontConfig config;
      // Oversampling sharpens small text; large text is sharp without (and the atlas at 4K
      // would be twice the size).
      config.OversampleH = pixels < 40.0f ? 2 : 1;
      if (ImFont* font = io.Fonts->AddFontFromFileTTF(candidates[i], pixels, &config, ranges)) {
        return font;
      }
    }
  }
  return nullptr;
}

ImVec4 rgba(int r, int g, int b, float a = 1.0f) {
  return ImVec4(float(r) / 255.0f, float(g) / 255.0f, float(b) / 255.0f, a);
}

// "Black box, lit from within": dark translucent glass, light text, generous padding, one
// accent (NVIDIA green) for what is active or chosen. Sizes are in body heights (`em`).
void applyStyle(float em) {
  ImGuiStyle& style = ImGui::GetStyle();
  style = ImGuiStyle();
  ImGui::StyleColorsDark(&style);
  const float k = em / 16.0f;  // ImGuiStyle's sizes are made for a 16 px font
  style.WindowPadding = ImVec2(0.8f * em, 0.65f * em);
  style.FramePadding = ImVec2(0.5f * em, 0.25f * em);
  style.ItemSpacing = ImVec2(0.5f * em, 0.3f * em);
  style.ItemInnerSpacing = ImVec2(0.35f * em, 0.25f * em);
  style.CellPadding = ImVec2(0.3f * em, 0.15f * em);
  style.WindowRounding = 0.55f * em;
  style.ChildRounding = style.FrameRounding = style.PopupRounding = 0.3f * em;
  style.GrabRounding = style.ScrollbarRounding = 0.3f * em;
  style.ScrollbarSize = 0.7f * em;
  style.GrabMinSize = 0.7f * em;
  style.IndentSpacing = 1.2f * em;
  style.WindowBorderSize = std::max(1.0f, k);
  style.FrameBorderSize = 0.0f;
  style.PopupBorderSize = std::max(1.0f, k);
  style.DisplaySafeAreaPadding = ImVec2(0, 0);
  // Lines drawn from the white pixel, not from a baked texture: then every textured quad is a
  // glyph, which the text-count tests rely on (UiLayer::glyphQuads).
  style.AntiAliasedLinesUseTex = false;
  ImVec4* c = style.Colors;
  const ImVec4 accent = rgba(118, 185, 0);
  c[ImGuiCol_Text] = rgba(232, 236, 240);
  c[ImGuiCol_TextDisabled] = rgba(150, 158, 170);
  c[ImGuiCol_WindowBg] = rgba(10, 12, 16, 0.78f);
  c[ImGuiCol_ChildBg] = rgba(0, 0, 0, 0.0f);
  c[ImGuiCol_PopupBg] = rgba(14, 16, 21, 0.97f);
  c[ImGuiCol_Border] = rgba(255, 255, 255, 0.09f);
  c[ImGuiCol_Separator] = rgba(255, 255, 255, 0.12f);
  c[ImGuiCol_FrameBg] = rgba(255, 255, 255, 0.07f);
  c[ImGuiCol_FrameBgHovered] = rgba(255, 255, 255, 0.13f);
  c[ImGuiCol_FrameBgActive] = rgba(118, 185, 0, 0.30f);
  c[ImGuiCol_Button] = rgba(255, 255, 255, 0.09f);
  c[ImGuiCol_ButtonHovered] = rgba(118, 185, 0, 0.38f);
  c[ImGuiCol_ButtonActive] = rgba(118, 185, 0, 0.62f);
  c[ImGuiCol_Header] = rgba(255, 255, 255, 0.08f);
  c[ImGuiCol_HeaderHovered] = rgba(118, 185, 0, 0.30f);
  c[ImGuiCol_HeaderActive] = rgba(118, 185, 0, 0.50f);
  c[ImGuiCol_SliderGrab] = accent;
  c[ImGuiCol_SliderGrabActive] = rgba(150, 215, 40);
  c[ImGuiCol_CheckMark] = accent;
  c[ImGuiCol_ScrollbarBg] = rgba(0, 0, 0, 0.0f);
  c[ImGuiCol_ScrollbarGrab] = rgba(255, 255, 255, 0.16f);
  c[ImGuiCol_ScrollbarGrabHovered] = rgba(255, 255, 255, 0.26f);
  c[ImGuiCol_ScrollbarGrabActive] = rgba(118, 185, 0, 0.6f);
  c[ImGuiCol_TableRowBg] = rgba(0, 0, 0, 0.0f);
  c[ImGuiCol_TableRowBgAlt] = rgba(255, 255, 255, 0.035f);
  c[ImGuiCol_TableBorderLight] = rgba(255, 255, 255, 0.06f);
  c[ImGuiCol_PlotLines] = accent;
  c[ImGuiCol_TitleBg] = c[ImGuiCol_TitleBgActive] = rgba(14, 16, 21, 0.95f);
  c[ImGuiCol_NavHighlight] = accent;
}

// The last character of `text` before byte `end`, and whether it is a digit.
bool digitBefore(const std::string& text, size_t end) {
  return end > 0 && std::isdigit(static_cast<unsigned char>(text[end - 1]));
}

}  // namespace

std::vector<std::string> wrapText(const std::string& text, float width,
                                  const std::function<float(const std::string&)>& measure) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string paragraph = text.substr(start, end - start);
    // Break points: spaces not right after a digit.
    std::string line;
    size_t pos = 0;
    while (pos < paragraph.size()) {
      size_t next = paragraph.find(' ', pos);
      while (next != std::string::npos && digitBefore(paragraph, next))
        next = paragraph.find(' ', next + 1);
      if (next == std::string::npos) next = paragraph.size();
      const std::string word = paragraph.substr(pos, next - pos);
      const std::string candidate = line.empty() ? word : line + " " + word;
      if (!line.empty() && measure(candidate) > width) {
        lines.push_back(line);
        line = word;
      } else {
        line = candidate;
      }
      pos = next + 1;
    }
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

UiLayer::UiLayer(float fontPixels) {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // no imgui.ini written next to the user's files
  buildFonts(std::round(fontPixels));
}

UiLayer::~UiLayer() {
  ImGui::DestroyContext();
}

void UiLayer::buildFonts(float fontPixels) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  m_fontPixels = fontPixels;  // as asked, so that fitTo compares like with like
  if (!(fontPixels >= MIN_FONT_PIXELS)) fontPixels = MIN_FONT_PIXELS;  // NaN too
  const float raster = std::min(fontPixels, MAX_FONT_RASTER_PIXELS);
  io.FontGlobalScale = fontPixels / raster;
  ImFont* body = loadFirst(FONT_CANDIDATES, std::size(FONT_CANDIDATES), raster, BODY_GLYPHS);
  if (!body) {
    ImFontConfig config;
    config.SizePixels = raster;
    io.Fonts->AddFontDefault(&config);
  }
  m_titleFont = loadFirst(STRONG_FONT_CANDIDATES, std::size(STRONG_FONT_CANDIDATES),
                          raster * TITLE_SCALE, LARGE_GLYPHS);
  m_captionFont =
      loadFirst(FONT_CANDIDATES, std::size(FONT_CANDIDATES), raster * CAPTION_SCALE, LARGE_GLYPHS);
  m_headlineFont = loadFirst(STRONG_FONT_CANDIDATES, std::size(STRONG_FONT_CANDIDATES),
                             raster * HEADLINE_SCALE, LARGE_GLYPHS);
  m_boothHeadlineFont = loadFirst(STRONG_FONT_CANDIDATES, std::size(STRONG_FONT_CANDIDATES),
                                  raster * BOOTH_HEADLINE_SCALE, LARGE_GLYPHS);
  io.Fonts->Build();
  applyStyle(fontPixels);
}

void UiLayer::setScaling(float contentScale, double userScale) {
  m_contentScale = contentScale;
  m_userScale = userScale;
}

bool UiLayer::fitTo(uint32_t width, uint32_t height) {
  if (width == 0 || height == 0) return false;
  const float px = uiFontPixels(width, height, m_contentScale, m_userScale);
  if (px == m_fontPixels) return false;
  buildFonts(px);
  return true;
}

void UiLayer::beginFrame(float width, float height, float deltaSeconds) {
  ImGuiIO& io = ImGui::GetIO();
  if (width > 0 && height > 0) io.DisplaySize = ImVec2(width, height);
  io.DeltaTime = deltaSeconds > 0 ? deltaSeconds : 1.0f / 60.0f;
  ImGui::NewFrame();
  clearDrawnButtons();
  m_layout = layoutUi({io.DisplaySize.x, io.DisplaySize.y, ImGui::GetFontSize()});
  m_headlinePixels = 0;
  m_capturedText.clear();
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
    // the anchor); below it where the place above is taken by a window or another label.
    const float x0 = std::clamp(x - 0.5f * w, 0.0f, width - w);
    auto free = [&](const ScreenRect& box) {
      auto hits = [&](const ScreenRect& r) { return overlaps(box, r); };
      return std::none_of(placed.begin(), placed.end(),
                          [&](const PlacedLabel& o) {
                            return hits({o.box[0], o.box[1], o.box[2], o.box[3]});
                          }) &&
             std::none_of(reserved.begin(), reserved.end(), hits);
    };
    std::optional<PlacedLabel> out;
    for (const float wantedY0 : {y - h, y}) {
      const float y0 = std::clamp(wantedY0, 0.0f, height - h);
      if (free({x0, y0, x0 + w, y0 + h})) {
        out = PlacedLabel{{x0, y0, x0 + w, y0 + h}, x, y, label->text, label->rgba};
        break;
      }
    }
    if (!out) continue;
    placed.push_back(*out);
  }
  return placed;
}

namespace {

std::vector<DrawnWindow> windowsDrawnThisFrame() {
  std::vector<DrawnWindow> out;
  for (const ImGuiWindow* window : ImGui::GetCurrentContext()->Windows) {
    // Begun this frame and shown (an auto-sized window is hidden in its first frame while it
    // measures itself); not ImGui's implicit fallback window, not a child inside another.
    if (!window->Active || window->Hidden || window->IsFallbackWindow ||
        (window->Flags & ImGuiWindowFlags_ChildWindow)) {
      continue;
    }
    DrawnWindow w;
    w.name = window->Name;
    w.rect = {window->Pos.x, window->Pos.y, window->Pos.x + window->Size.x,
              window->Pos.y + window->Size.y};
    // Its content (as measured last frame: a settled still's is this frame's) against its size.
    const ImVec2 need(window->ContentSize.x + 2 * window->WindowPadding.x,
                      window->ContentSize.y + 2 * window->WindowPadding.y);
    w.scrolls = window->ScrollbarY;
    w.takesInput = (window->Flags & ImGuiWindowFlags_NoMouseInputs) == 0;
    w.clipped = (!w.scrolls && need.y > window->Size.y + 1.0f) || need.x > window->Size.x + 1.0f;
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace

int UiLayer::drawLabels(const world::RenderList& list, float width, float height) {
  const float pad = ImGui::GetFontSize() * 0.3f;
  std::vector<ScreenRect> reserved;
  for (const DrawnWindow& w : windowsDrawnThisFrame()) reserved.push_back(w.rect);
  m_placedLabels = layoutLabels(
      list, width, height, pad,
      [](const std::string& text) {
        const ImVec2 size = ImGui::CalcTextSize(text.c_str());
        return std::pair{size.x, size.y};
      },
      reserved);
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  for (const PlacedLabel& p : m_placedLabels) {
    const ImVec2 min(p.box[0], p.box[1]), max(p.box[2], p.box[3]);
    draw->AddRectFilled(min, max, LABEL_PLATE_RGBA, pad);
    // The leader from the plate's edge toward the anchor: down from above it, up from below.
    const bool below = min.y >= p.anchorY;
    const float edge = below ? min.y : max.y;
    draw->AddLine(ImVec2(p.anchorX, edge), ImVec2(p.anchorX, edge + (below ? -2 : 2) * pad),
                  IM_COL32(255, 255, 255, 160), 1.5f);
    draw->AddText(ImVec2(min.x + pad, min.y + pad), p.rgba, p.text.c_str());
    if (m_captureText) m_capturedText += p.text + "\n";
  }
  return int(m_placedLabels.size());
}

void placeInRegion(const ScreenRect& region, float pivotX, float pivotY, float width) {
  const float w = region[2] - region[0], h = region[3] - region[1];
  ImGui::SetNextWindowPos(ImVec2(region[0] + pivotX * w, region[1] + pivotY * h), 0,
                          ImVec2(pivotX, pivotY));
  const float fixed = width > 0 ? std::min(width, w) : 0.0f;
  ImGui::SetNextWindowSizeConstraints(ImVec2(fixed, 0), ImVec2(fixed > 0 ? fixed : w, h));
}

int hudWindowFlags() {
  return ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
         ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
         ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs;
}

int panelWindowFlags() {
  return ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
         ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_AlwaysAutoResize |
         ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
         ImGuiWindowFlags_NoNav;
}

void UiLayer::drawWrapped(const std::string& text, float width, ImFont* font, uint32_t colour) {
  if (font) ImGui::PushFont(font);
  const std::vector<std::string> lines = wrapText(
      text, width, [](const std::string& line) { return ImGui::CalcTextSize(line.c_str()).x; });
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  for (const std::string& line : lines) {
    ImGui::TextUnformatted(line.c_str());
    if (m_captureText) m_capturedText += line + "\n";
  }
  ImGui::PopStyleColor();
  if (font) ImGui::PopFont();
}

namespace {

// `line` cut to `width`: its last "   ·   " items dropped until it fits, the first one cut with an
// ellipsis when even it alone is wider.
std::string fitLine(std::string line, float width) {
  const std::string separator = "   \u00b7   ";
  auto wide = [](const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; };
  while (wide(line) > width) {
    const size_t at = line.rfind(separator);
    if (at == std::string::npos || at == 0) break;
    line.erase(at);
  }
  if (wide(line) <= width) return line;
  const std::string ellipsis = "\u2026";
  while (!line.empty() && wide(line + ellipsis) > width) {
    // The last UTF-8 code point: its continuation bytes, then its first byte.
    while (!line.empty() && (line.back() & 0xC0) == 0x80) line.pop_back();
    if (!line.empty()) line.pop_back();
  }
  return line + ellipsis;
}

}  // namespace

void UiLayer::drawStatus(const std::string& text, float width, float height, uint32_t colour) {
  std::vector<std::string> lines = wrapText(
      text, width, [](const std::string& line) { return ImGui::CalcTextSize(line.c_str()).x; });
  const float spacing = ImGui::GetStyle().ItemSpacing.y;
  if (float(lines.size()) * ImGui::GetTextLineHeightWithSpacing() - spacing > height) {
    // Wrapped, it would run out of its region (a long selection's name): one line per line.
    lines.clear();
    size_t begin = 0;
    while (begin <= text.size()) {
      const size_t end = std::min(text.find('\n', begin), text.size());
      lines.push_back(fitLine(text.substr(begin, end - begin), width));
      begin = end + 1;
    }
  }
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  for (const std::string& line : lines) {
    ImGui::TextUnformatted(line.c_str());
    if (m_captureText) m_capturedText += line + "\n";
  }
  ImGui::PopStyleColor();
}

void UiLayer::drawHud(const HudInfo& hud, bool legend) {
  const ImGuiIO& io = ImGui::GetIO();
  const float em = ImGui::GetFontSize();
  LayoutDesc desc{io.DisplaySize.x, io.DisplaySize.y, em, hud.mode};
  desc.rightColumn = hud.panelOnRight;
  desc.timeline = hud.timeline;
  desc.timelineComparison = hud.timelineComparison;
  desc.help = !hud.help.empty();
  desc.legend = legend;
  m_layout = layoutUi(desc);
  if (hud.mode == TextMode::Off) return;
  const int flags = hudWindowFlags();
  const float padX = ImGui::GetStyle().WindowPadding.x;
  const uint32_t text = ImGui::GetColorU32(ImGuiCol_Text);
  const uint32_t dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  auto inner = [&](const ScreenRect& r) { return r[2] - r[0] - 2 * padX; };
  if (!hud.title.empty()) {
    placeInRegion(m_layout.title);
    ImGui::Begin("##title", nullptr, flags);
    drawWrapped(hud.title, inner(m_layout.title), m_titleFont, text);
    if (!hud.subtitle.empty()) drawWrapped(hud.subtitle, inner(m_layout.title), nullptr, dim);
    ImGui::End();
  }
  if (!hud.headline.empty() && !emptyRect(m_layout.headline)) {
    placeInRegion(m_layout.headline);
    ImGui::Begin("##headline", nullptr, flags);
    const uint32_t colour = hud.headlineIsWarning ? IM_COL32(255, 96, 84, 255) : text;
    drawWrapped(hud.headline, inner(m_layout.headline), m_boothHeadlineFont, colour);
    m_headlinePixels =
        m_boothHeadlineFont ? m_boothHeadlineFont->FontSize * ImGui::GetIO().FontGlobalScale : em;
    ImGui::End();
  }
  if (!hud.status.empty() && !emptyRect(m_layout.status)) {
    placeInRegion(m_layout.status, 0, 1);
    ImGui::Begin("##status", nullptr, flags);
    const float padY = ImGui::GetStyle().WindowPadding.y;
    drawStatus(hud.status, inner(m_layout.status),
               m_layout.status[3] - m_layout.status[1] - 2 * padY, dim);
    ImGui::End();
  }
  if (!hud.help.empty() && !emptyRect(m_layout.help)) {
    placeInRegion(m_layout.help, 0, 0, m_layout.help[2] - m_layout.help[0]);
    ImGui::Begin("##help", nullptr, flags);
    drawWrapped(hud.help, inner(m_layout.help), nullptr, dim);
    ImGui::End();
  }
  if (!hud.caption.empty()) {
    // Engineer: at the bottom of its region, just above the timeline; booth: under the headline.
    const bool booth = hud.mode == TextMode::Booth;
    placeInRegion(m_layout.caption, booth ? 0.0f : 0.5f, booth ? 0.0f : 1.0f,
                  booth ? 0.0f : m_layout.caption[2] - m_layout.caption[0]);
    ImGui::Begin("##caption", nullptr, flags);
    drawWrapped(hud.caption, inner(m_layout.caption), m_captionFont,
                hud.captionIsAction ? ACCENT_RGBA : text);
    ImGui::End();
  }
  if (!hud.banner.empty()) {
    placeInRegion(m_layout.banner, 0.5f, 0.5f);
    ImGui::SetNextWindowBgAlpha(0.92f);
    ImGui::Begin("##banner", nullptr, flags);
    drawWrapped(hud.banner, inner(m_layout.banner), m_titleFont, text);
    ImGui::End();
  }
}

bool UiLayer::takesPoint(float x, float y) const {
  for (const DrawnWindow& w : m_drawnWindows)
    if (w.takesInput && x >= w.rect[0] && x < w.rect[2] && y >= w.rect[1] && y < w.rect[3])
      return true;
  return false;
}

std::optional<size_t> UiLayer::drawChapterMenu(const std::string& heading,
                                               const std::vector<std::string>& entries,
                                               size_t current, size_t highlighted) {
  const ImGuiIO& io = ImGui::GetIO();
  const float em = ImGui::GetFontSize();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), 0,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0),
                                      ImVec2(io.DisplaySize.x * 0.9f, io.DisplaySize.y * 0.9f));
  ImGui::SetNextWindowBgAlpha(0.97f);  // a menu over text must be readable: nearly opaque
  ImGui::Begin("##chapters", nullptr, panelWindowFlags() & ~ImGuiWindowFlags_NoFocusOnAppearing);
  if (m_titleFont) ImGui::PushFont(m_titleFont);
  ImGui::TextUnformatted(heading.c_str());
  if (m_titleFont) ImGui::PopFont();
  ImGui::Spacing();
  std::optional<size_t> clicked;
  const float width = em * 24.0f;
  for (size_t i = 0; i < entries.size(); ++i) {
    const bool here = i == current, lit = i == highlighted;
    if (lit) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.46f, 0.73f, 0.0f, 0.55f));
    if (here) ImGui::PushStyleColor(ImGuiCol_Text, ACCENT_RGBA);
    ImGui::PushID(int(i));
    const std::string label = (here ? "• " : "   ") + entries[i];
    if (ImGui::Button(label.c_str(), ImVec2(width, 0))) clicked = i;
    ImGui::PopID();
    if (here) ImGui::PopStyleColor();
    if (lit) ImGui::PopStyleColor();
  }
  ImGui::End();
  return clicked;
}

ImDrawData* UiLayer::endFrame() {
  ImGui::EndFrame();
  m_drawnWindows = windowsDrawnThisFrame();
  m_windowRects.clear();
  for (const DrawnWindow& w : m_drawnWindows) m_windowRects.push_back(w.rect);
  ImGui::Render();
  ImDrawData* data = ImGui::GetDrawData();
  m_glyphQuads = 0;
  if (m_captureText) {
    // Glyphs are the quads textured from the font atlas; everything else ImGui draws samples
    // its white pixel (anti-aliased lines too: applyStyle turns their texture off).
    const ImVec2 white = ImGui::GetIO().Fonts->TexUvWhitePixel;
    for (int l = 0; l < data->CmdListsCount; ++l) {
      const ImDrawList* list = data->CmdLists[l];
      for (const ImDrawVert& v : list->VtxBuffer)
        if (v.uv.x != white.x || v.uv.y != white.y) ++m_glyphQuads;
    }
    m_glyphQuads /= 4;
  }
  return data;
}

}  // namespace app
