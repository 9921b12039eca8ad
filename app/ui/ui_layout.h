// Where each part of the UI goes on a screen of any size: the UI scale (text size) from the
// window's size, the monitor's HiDPI scale and the user's --ui-scale, and one rectangle per
// region (title, narration, headline, panel, timeline, legend, key help, status line, banner)
// that never overlaps another. Windows are placed inside their region and sized at most to it,
// so two windows never overlap whatever they hold (a panel taller than its region scrolls).
// Pure arithmetic: no ImGui.
#pragma once

#include <array>
#include <cstdint>

namespace app {

/// A screen rectangle in pixels: x0, y0, x1, y1.
using ScreenRect = std::array<float, 4>;

/// How much text a frame carries (issue 21): `Booth` a title, one headline number and one caption
/// line, readable from two metres; `Engineer` the verdict first and the panel one key away;
/// `Off` the picture alone (no HUD, no labels, no panel: the clean plate).
enum class TextMode { Booth, Engineer, Off };

/// "booth", "engineer", "off".
const char* textModeName(TextMode mode);
/// The mode called `name`; false when there is none.
bool parseTextMode(const char* name, TextMode& out);

/// The UI font size at 1280x720 (the booth's legibility floor).
inline constexpr float BASE_FONT_PX = 18.0f;

/// The body text size (pixels) for a `width` x `height` framebuffer: 18 px at 1280x720, growing
/// with the smaller of the two ratios to it (so a 16:9 screen of any size lays out the same), at
/// least 0.8 x the monitor's HiDPI scale x 18 px, times the user's scale; rounded to whole
/// pixels, within 10..160 px.
float uiFontPixels(uint32_t width, uint32_t height, float contentScale, double userScale);

/// The panel's content width in font heights (booth-readable); the layout keeps the rest clear.
inline constexpr float PANEL_WIDTH_EM = 25.0f;

/// What is on screen this frame.
struct LayoutDesc {
  float width = 1280, height = 720;
  float em = BASE_FONT_PX;  // body font size in pixels
  TextMode mode = TextMode::Engineer;
  bool rightColumn = false;  // a panel (chapter, selection, what-if) holds the right side
  bool timeline = false;
  bool timelineComparison = false;  // the timeline also holds measured vs modelled (--trace)
  bool help = false;
  bool legend = false;
};

/// Every region of the screen (empty rectangles for what is not shown).
struct UiLayout {
  float margin = 0;
  ScreenRect title{};     // top left: chapter or station title and subtitle
  ScreenRect headline{};  // booth: the one big number, under the title
  ScreenRect caption{};   // the narration (engineer: above the timeline; booth: under the
                          // headline)
  ScreenRect timeline{};  // bottom left, above the status line
  ScreenRect status{};    // bottom left: simulated time, scale, fps
  ScreenRect legend{};    // top of the right column (or the top-right corner without a panel)
  ScreenRect panel{};     // the right column under the legend
  ScreenRect help{};      // the key help (H): the panel's place while it is shown
  ScreenRect banner{};    // notices, the idle countdown: the middle of the left column
};

/// The regions for `desc`; none overlaps another and each lies inside the screen.
UiLayout layoutUi(const LayoutDesc& desc);

/// Whether two rectangles share any area.
bool overlaps(const ScreenRect& a, const ScreenRect& b);
/// Whether `r` has no area.
inline bool emptyRect(const ScreenRect& r) {
  return !(r[2] > r[0] && r[3] > r[1]);
}

}  // namespace app
