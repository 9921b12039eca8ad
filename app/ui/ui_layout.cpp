#include "app/ui/ui_layout.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace app {
namespace {

// Region heights in font heights (em), each enough for what its window holds at most: the title
// (two lines of the 1.6 em title font and two of subtitle), three caption lines of the 1.3 em
// caption font, the timeline's four rows, two status lines, one legend bar.
constexpr float TITLE_EM = 7.6f;
constexpr float CAPTION_EM = 6.6f;
constexpr float TIMELINE_EM = 7.6f;
constexpr float COMPARISON_EM = 5.0f;  // measured vs modelled under a traced step (3 lines, and
                                       // the window's time controls above)
constexpr float STATUS_EM = 4.0f;
constexpr float LEGEND_EM = 6.4f;
// Booth: the headline font is 3.6 em (97 px at 1080p) and wraps to two lines at most, the title
// to two lines.
constexpr float BOOTH_TITLE_EM = 7.2f;
constexpr float BOOTH_HEADLINE_EM = 10.0f;
constexpr float BOOTH_CAPTION_EM = 9.0f;
// Widths: the caption reads best at most this wide; booth text keeps to the right 40 %, so the
// subject can be framed in the left 60 % (visual_brief.md, "Text and panel density").
constexpr float CAPTION_MAX_EM = 42.0f;
constexpr float TITLE_MAX_EM = 30.0f;  // a title box wider than this would cover the picture
constexpr float BOOTH_TEXT_SHARE = 0.40f;
constexpr float RIGHT_COLUMN_MAX_SHARE = 0.45f;
constexpr float WINDOW_PADDING_EM = 0.8f;  // ui_layer.cpp's style: padding on each side

ScreenRect rect(float x0, float y0, float x1, float y1) {
  return {x0, y0, std::max(x0, x1), std::max(y0, y1)};
}

}  // namespace

const char* textModeName(TextMode mode) {
  switch (mode) {
    case TextMode::Booth:
      return "booth";
    case TextMode::Engineer:
      return "engineer";
    case TextMode::Off:
      return "off";
  }
  return "engineer";
}

bool parseTextMode(const char* name, TextMode& out) {
  for (TextMode mode : {TextMode::Booth, TextMode::Engineer, TextMode::Off}) {
    if (std::strcmp(name, textModeName(mode)) == 0) {
      out = mode;
      return true;
    }
  }
  return false;
}

float uiFontPixels(uint32_t width, uint32_t height, float contentScale, double userScale) {
  const float bySize = std::min(float(width) / 1280.0f, float(height) / 720.0f);
  const float byMonitor = 0.8f * std::max(1.0f, contentScale);
  const float px = BASE_FONT_PX * std::max(bySize, byMonitor) * float(userScale);
  return std::clamp(std::round(px), 10.0f, 160.0f);
}

bool overlaps(const ScreenRect& a, const ScreenRect& b) {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
}

UiLayout layoutUi(const LayoutDesc& d) {
  UiLayout l;
  const float em = std::max(1.0f, d.em), W = d.width, H = d.height;
  const float m = std::round(0.75f * em), gap = std::round(0.5f * em);
  l.margin = m;
  if (d.mode == TextMode::Off) return l;

  if (d.mode == TextMode::Booth) {
    // Title, headline and caption down the right 40 %; the left 60 % is the picture's.
    const float x0 = std::round(W * (1.0f - BOOTH_TEXT_SHARE)), x1 = W - m;
    const float scale =
        std::min(1.0f, (H - 2 * m - 2 * gap) /
                           (em * (BOOTH_TITLE_EM + BOOTH_HEADLINE_EM + BOOTH_CAPTION_EM)));
    float y = m;
    l.title = rect(x0, y, x1, y + scale * BOOTH_TITLE_EM * em);
    y = l.title[3] + gap;
    l.headline = rect(x0, y, x1, y + scale * BOOTH_HEADLINE_EM * em);
    y = l.headline[3] + gap;
    l.caption = rect(x0, y, x1, y + scale * BOOTH_CAPTION_EM * em);
    l.banner = rect(m, H * 0.3f, x0 - gap, H * 0.7f);
    return l;
  }

  // Engineer: a right column (legend, panel, key help) and a left one (title at the top; the
  // caption, the timeline and the status line at the bottom).
  const bool right = d.rightColumn || d.legend || d.help;
  const float rightW =
      std::min(em * (PANEL_WIDTH_EM + 2 * WINDOW_PADDING_EM), W * RIGHT_COLUMN_MAX_SHARE);
  const float rightX0 = right ? W - m - rightW : W - m;
  const float leftX1 = right ? rightX0 - gap : W - m;

  // Heights, shrunk together when the screen is too short for them all (a large --ui-scale).
  const float timelineEm =
      d.timeline ? TIMELINE_EM + (d.timelineComparison ? COMPARISON_EM : 0.0f) : 0.0f;
  const float wantLeft = em * (TITLE_EM + CAPTION_EM + timelineEm + STATUS_EM);
  const float haveLeft = H - 2 * m - 3 * gap;
  const float k = std::min(1.0f, haveLeft / std::max(1.0f, wantLeft));
  const float titleH = k * TITLE_EM * em, captionH = k * CAPTION_EM * em;
  const float timelineH = k * timelineEm * em, statusH = k * STATUS_EM * em;

  l.title = rect(m, m, std::min(leftX1, m + TITLE_MAX_EM * em), m + titleH);
  l.status = rect(m, H - m - statusH, leftX1, H - m);
  float bottom = l.status[1] - gap;
  if (d.timeline) {
    l.timeline = rect(m, bottom - timelineH, leftX1, bottom);
    bottom = l.timeline[1] - gap;
  }
  const float captionW = std::min(leftX1 - m, CAPTION_MAX_EM * em);
  const float captionX0 = std::round(m + 0.5f * (leftX1 - m - captionW));
  l.caption = rect(captionX0, bottom - captionH, captionX0 + captionW, bottom);
  l.banner = rect(m, l.title[3] + gap, leftX1, l.caption[1] - gap);

  if (right) {
    float top = m;
    if (d.legend) {
      l.legend = rect(rightX0, top, W - m, top + std::min(LEGEND_EM * em, 0.3f * H));
      top = l.legend[3] + gap;
    }
    // The key help, asked for with H, takes the column below the legend while it is shown.
    if (d.help) {
      l.help = rect(rightX0, top, W - m, H - m);
    } else if (d.rightColumn) {
      l.panel = rect(rightX0, top, W - m, H - m);
    }
  }
  return l;
}

}  // namespace app
