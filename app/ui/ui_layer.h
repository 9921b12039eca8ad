// The ImGui layer of the app: context, the UI fonts (Inter) at a size that follows the window
// (ui_layout.h), the style ("black box, lit from within": dark glass, light text, one accent),
// in-world labels (projected, decluttered) and the HUD laid out in regions that never overlap.
// Works the same in a window and headless.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/ui/ui_layout.h"
#include "world/scene/render_list.h"

struct ImDrawData;
struct ImFont;

namespace app {

struct HudInfo {
  std::string title;     // e.g. the station's name, or the chapter
  std::string subtitle;  // one line describing it
  std::string headline;  // booth: the step's one number in plain words ("GPU: 9.33× faster"),
                         // 3.6 em
  bool headlineIsWarning = false;   // drawn in the warning red (over capacity, a verdict of "no")
  std::string status;               // bottom-left lines: simulated time, scale, fps ...
  std::string help;                 // key help (window mode), bottom of the right column
  std::string caption;              // tour narration, large, above the timeline
  bool captionIsAction = false;     // the step's call to action: drawn in the accent
  std::string banner;               // centred notice (e.g. the kiosk's idle countdown)
  bool panelOnRight = false;        // a panel holds the right column
  bool timeline = false;            // the timeline is shown (its region is kept free)
  bool timelineComparison = false;  // ... with measured vs modelled under it (--trace)
  TextMode mode = TextMode::Engineer;
  std::string language = "en";  // of the UI's own words (legend, panels)
  uint64_t generation = 0;      // of the simulation the status line reads (SimHost::generation)
};

/// A label placed on screen: its box (pixels, x0 y0 x1 y1), where its leader line points, its
/// text and text colour.
struct PlacedLabel {
  float box[4] = {0, 0, 0, 0};
  float anchorX = 0, anchorY = 0;
  std::string text;
  uint32_t rgba = 0;
};

/// Label boxes: a dark plate with white text, 190/255 opaque (ui_layer.cpp draws it).
inline constexpr uint32_t LABEL_PLATE_RGBA = 0xbe120e0cu;  // IM_COL32(12, 14, 18, 190)

/// The UI's one accent: NVIDIA green #76B900 (active, selected, the call to action).
inline constexpr uint32_t ACCENT_RGBA = 0xff00b976u;  // IM_COL32(118, 185, 0, 255)

/// A window drawn in a UI frame: where, and whether its content did not fit (and did not
/// scroll either: something is cut off).
struct DrawnWindow {
  std::string name;
  ScreenRect rect{};
  bool clipped = false;
  bool scrolls = false;    // taller than its region: it has a scroll bar
  bool takesInput = true;  // a panel, a menu, a popup; not the HUD's text plates
};

/// Lays out `list`'s labels on a `width` x `height` screen, largest priority first: each box
/// (text measured by `measure`, plus `pad` on every side) sits above its anchor, pushed inside
/// the screen when its anchor is near an edge; a label whose anchor is behind the camera or off
/// screen, or whose box would overlap one already placed or one of `reserved` (the HUD's
/// windows), is left out.
std::vector<PlacedLabel> layoutLabels(
    const world::RenderList& list, float width, float height, float pad,
    const std::function<std::pair<float, float>(const std::string&)>& measure,
    const std::vector<ScreenRect>& reserved = {});

/// `text` broken into lines at most `width` wide as `measure` says: only at spaces and never
/// after a digit (so no number is split from its unit, and none inside itself as ImGui's wrap
/// does after a '.' or ','), and at every '\n'. A word wider than `width` gets a line of its own.
std::vector<std::string> wrapText(const std::string& text, float width,
                                  const std::function<float(const std::string&)>& measure);

class UiLayer {
 public:
  /// Creates the ImGui context and loads the UI fonts at `fontPixels` (Inter, else DejaVu Sans,
  /// else ImGui's built-in font): never below 6 px (a smaller UI cannot be drawn), rasterised at
  /// 64 px at most and scaled beyond (the font atlas's memory stays bounded).
  explicit UiLayer(float fontPixels);
  ~UiLayer();
  UiLayer(const UiLayer&) = delete;
  UiLayer& operator=(const UiLayer&) = delete;

  /// What the text size follows besides the screen (uiFontPixels): the monitor's HiDPI scale
  /// and the user's --ui-scale.
  void setScaling(float contentScale, double userScale);
  /// Sizes the fonts for a `width` x `height` screen; true when the font atlas was rebuilt (the
  /// renderer must upload it again: Renderer::reloadUiFonts). Call between frames.
  bool fitTo(uint32_t width, uint32_t height);
  /// The body text size in pixels.
  float fontPixels() const { return m_fontPixels; }

  /// Starts a frame of `width` x `height` pixels (headless; window mode calls the GLFW backend's
  /// NewFrame first, which sets the size itself).
  void beginFrame(float width, float height, float deltaSeconds);
  /// Draws the render list's labels at their projected positions (behind every window); labels
  /// that would overlap one of higher priority, or a window already drawn in this UI frame (the
  /// HUD, a panel, the legend: call it after them), are dropped. Returns how many were drawn.
  int drawLabels(const world::RenderList& list, float width, float height);
  /// The labels the last drawLabels placed.
  const std::vector<PlacedLabel>& placedLabels() const { return m_placedLabels; }
  /// The windows the last endFrame drew (what labels keep clear of).
  const std::vector<ScreenRect>& windowRects() const { return m_windowRects; }
  /// The same with their names and whether their content fitted (tests of the layout).
  const std::vector<DrawnWindow>& drawnWindows() const { return m_drawnWindows; }
  /// Whether a window of the last frame that takes input (a panel, a popup) covers (x, y): a
  /// click there is the UI's. ImGui's WantCaptureMouse says so only once the pointer has been
  /// over the window for a frame, and a touch (or a quick hand) moves and clicks in one.
  bool takesPoint(float x, float y) const;
  /// Lays out this frame for `hud` (and the legend when `legend`), then draws the HUD's
  /// windows in their regions; the panels and the legend take theirs from layout().
  void drawHud(const HudInfo& hud, bool legend);
  /// The regions of this frame (set by drawHud).
  const UiLayout& layout() const { return m_layout; }
  /// The chapter menu: one button per entry ("3  The 3 AM crash"), `current` marked and
  /// `highlighted` (the keyboard's choice) lit. Returns the entry clicked this frame.
  std::optional<size_t> drawChapterMenu(const std::string& heading,
                                        const std::vector<std::string>& entries, size_t current,
                                        size_t highlighted);
  /// Ends the frame; the draw data stays valid until the next beginFrame.
  ImDrawData* endFrame();

  /// Records the text the HUD and the labels draw into capturedText(), one line per line drawn,
  /// and counts the glyphs the whole frame drew (glyphQuads): when the two agree, the captured
  /// text is every text of the frame, which is what a word count of a frame needs.
  void setTextCapture(bool on) { m_captureText = on; }
  const std::string& capturedText() const { return m_capturedText; }
  /// Glyphs drawn by the last frame (with text capture on).
  size_t glyphQuads() const { return m_glyphQuads; }
  /// The height in pixels of the last headline drawn (0 without one).
  float headlinePixels() const { return m_headlinePixels; }

  /// The fonts: body (fontPixels), title (1.6x, semibold), caption (1.3x), headline (2x,
  /// semibold: the panel's verdict; the booth's headline is 3.6x). Null only when no TTF font
  /// was found.
  ImFont* titleFont() const { return m_titleFont; }
  ImFont* captionFont() const { return m_captionFont; }
  ImFont* headlineFont() const { return m_headlineFont; }

 private:
  void buildFonts(float fontPixels);
  void drawWrapped(const std::string& text, float width, ImFont* font, uint32_t colour);
  // The status lines wrapped at `width`, or, when that is taller than `height`, one line per
  // line of `text`, each cut to `width` (its last items dropped, fitLine).
  void drawStatus(const std::string& text, float width, float height, uint32_t colour);

  float m_fontPixels = 0;
  float m_contentScale = 1.0f;
  double m_userScale = 1.0;
  ImFont* m_titleFont = nullptr;
  ImFont* m_captionFont = nullptr;
  ImFont* m_headlineFont = nullptr;
  ImFont* m_boothHeadlineFont = nullptr;
  UiLayout m_layout;
  std::vector<PlacedLabel> m_placedLabels;
  std::vector<ScreenRect> m_windowRects;
  std::vector<DrawnWindow> m_drawnWindows;
  bool m_captureText = false;
  std::string m_capturedText;
  size_t m_glyphQuads = 0;
  float m_headlinePixels = 0;
};

/// Places the next ImGui window inside `region`: anchored at its top-left (pivot 0, 0), or
/// another corner by `pivotX`/`pivotY` (1 = right/bottom), as wide as `width` (0: as its
/// content wants, up to the region) and at most as tall as the region.
void placeInRegion(const ScreenRect& region, float pivotX = 0, float pivotY = 0, float width = 0);

/// The window flags of a HUD window that takes no input (title, caption, status ...).
int hudWindowFlags();
/// The window flags of a panel: no title bar or move, scrolling when taller than its region.
int panelWindowFlags();

}  // namespace app
