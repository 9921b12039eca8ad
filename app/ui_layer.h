// The ImGui layer of the app: context, a readable TTF font scaled for the display, in-world
// labels (projected, decluttered) and the HUD. Works the same in a window and headless.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "world/render_list.h"

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
};

class UiLayer {
 public:
  /// Creates the ImGui context and loads the UI font at `fontPixels` (Inter, else DejaVu Sans,
  /// else ImGui's built-in font).
  explicit UiLayer(float fontPixels);
  ~UiLayer();
  UiLayer(const UiLayer&) = delete;
  UiLayer& operator=(const UiLayer&) = delete;

  /// Starts a frame of `width` x `height` pixels (headless; window mode calls the GLFW backend's
  /// NewFrame first, which sets the size itself).
  void beginFrame(float width, float height, float deltaSeconds);
  /// Draws the render list's labels at their projected positions; overlapping labels of lower
  /// priority are dropped. Returns how many were drawn.
  int drawLabels(const world::RenderList& list, float width, float height);
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
};

}  // namespace app
