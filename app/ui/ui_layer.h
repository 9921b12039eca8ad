// The ImGui layer of the app: context, a readable TTF font scaled for the display, in-world
// labels (projected, decluttered) and the HUD. Works the same in a window and headless.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "world/scene/render_list.h"

struct ImDrawData;
struct ImFont;

namespace app {

struct HudInfo {
  std::string title;     // e.g. the station's name
  std::string subtitle;  // one line describing it
  std::string status;    // bottom-left line: scale, speed, fps ...
  std::string help;      // bottom-right key help (window mode)
  std::string caption;   // tour narration, large, bottom centre (captions for all narration)
  bool captionIsAction = false;  // the step's call to action: drawn highlighted
  std::string banner;            // centred notice (e.g. the kiosk's idle countdown)
  bool panelOnRight = false;     // a simulator panel holds the right side: the caption moves left
  uint64_t generation = 0;       // of the simulation the status line reads (SimHost::generation)
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

/// A screen rectangle in pixels: x0, y0, x1, y1.
using ScreenRect = std::array<float, 4>;

/// Lays out `list`'s labels on a `width` x `height` screen, largest priority first: each box
/// (text measured by `measure`, plus `pad` on every side) sits above its anchor, pushed inside
/// the screen when its anchor is near an edge; a label whose anchor is behind the camera or off
/// screen, or whose box would overlap one already placed or one of `reserved` (the HUD's
/// windows), is left out.
std::vector<PlacedLabel> layoutLabels(
    const world::RenderList& list, float width, float height, float pad,
    const std::function<std::pair<float, float>(const std::string&)>& measure,
    const std::vector<ScreenRect>& reserved = {});

class UiLayer {
 public:
  /// Creates the ImGui context and loads the UI font at `fontPixels` (Inter, else DejaVu Sans,
  /// else ImGui's built-in font): never below 6 px (a smaller UI cannot be drawn), rasterised at
  /// 64 px at most and scaled beyond (the font atlas's memory stays bounded).
  explicit UiLayer(float fontPixels);
  ~UiLayer();
  UiLayer(const UiLayer&) = delete;
  UiLayer& operator=(const UiLayer&) = delete;

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
  void drawHud(const HudInfo& hud);
  /// Where the last drawHud's title box ends (pixels from the top; 0 without a title).
  float titleBottom() const { return m_titleBottom; }
  /// The chapter menu: one button per entry ("3  The 3 AM crash"), `current` highlighted.
  /// Returns the entry clicked this frame.
  std::optional<size_t> drawChapterMenu(const std::string& heading,
                                        const std::vector<std::string>& entries, size_t current);
  /// Ends the frame; the draw data stays valid until the next beginFrame.
  ImDrawData* endFrame();

 private:
  ImFont* m_titleFont = nullptr;
  ImFont* m_captionFont = nullptr;
  float m_titleBottom = 0;
  std::vector<PlacedLabel> m_placedLabels;
  std::vector<ScreenRect> m_windowRects;
};

}  // namespace app
