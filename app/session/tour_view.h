// The frame source of every mode that shows the tour (window, booth, soak, headless tour and
// clip): the tour driver's camera and overlay, the chapter's simulator panel, the tour HUD in the
// text mode chosen (booth: title, headline, one caption line; engineer: the panel with its
// verdict first; off: the picture alone); in booth mode also the booth's banner, blank and
// attract state (setBooth, every frame).
#pragma once

#include <string>

#include "app/session/frame.h"
#include "app/session/tour_driver.h"
#include "app/ui/tour_panel.h"

namespace app {

class TourView : public FrameSource {
 public:
  TourView(TourDriver& driver, TourPanel& panel, std::string language)
      : m_driver(driver), m_panel(panel), m_language(std::move(language)) {}

  void setLanguage(std::string language) { m_language = std::move(language); }
  const std::string& language() const { return m_language; }
  TourDriver& driver() { return m_driver; }
  TourPanel& panel() { return m_panel; }
  /// Knobs can be moved (false in the booth's attract loop and headless).
  void setInteractive(bool interactive) { m_interactive = interactive; }
  /// How much text the frame carries.
  void setTextMode(TextMode mode) { m_mode = mode; }
  TextMode textMode() const { return m_mode; }
  /// Engineer: every row of the panel, or the verdict and the controls only (V).
  void toggleDetails() { m_details = !m_details; }
  bool details() const { return m_details; }
  /// Booth mode's state for this frame: the presenter's blank, the attract loop (knobs cannot
  /// move), the idle countdown banner, a hint for a visitor who just woke the booth.
  void setBooth(bool blanked, bool attract, std::string banner, std::string hint = {}) {
    m_blanked = blanked;
    m_attract = attract;
    m_banner = std::move(banner);
    m_hint = std::move(hint);
  }

  void advance(double dt_s, std::vector<SimCommand>& commands) override;
  /// Key frames: the step's visual events as they stand `s` seconds after the camera landed.
  void holdEventsAt(double s) { m_eventTime_s = s; }
  const world::Camera& camera() const override { return m_driver.camera(); }
  world::OverlayMetric overlay() const override { return m_driver.overlay(); }
  world::FrameDesc frameDesc(VkExtent2D extent, const SimHost& sim) const override;
  void follow(FrameContext& context) override;
  HudInfo hud(FrameContext& context) override;
  void drawWindows(FrameContext& context) override;
  bool blanked() const override { return m_blanked; }
  bool reducedMotion() const override { return m_driver.player().reducedMotion(); }
  void worldRebuilt(const world::World& old, const world::World& world) override;

  /// The studio the frame is lit and filtered as: a landed step's station; in free flight, the
  /// one the visitor left (or a smaller one flown into) while the camera stays within its reach;
  /// else none (the world finds one from what the view looks at).
  std::string studio() const;
  /// The size of the place the camera is in, in studio(): the pace of free flight.
  double placeScale(const world::World& world) const;
  /// Free flight: leaves the path and moves along `axes` (right, up, forward; 1 is full speed)
  /// for `dt_s` at the pace of the place, stopping short of what it flies into.
  void fly(const glm::dvec3& axes, double dt_s, const world::World& world);
  /// Free flight: `steps` notches of the wheel towards what is ahead (negative: away).
  void dolly(double steps, const world::World& world);
  /// One rung of the scale ladder out (+1) or in (-1): from the rung a ladder flight is going to,
  /// else the studio the camera is in, else the rung nearest its pose; a flight there, landing in
  /// that station's studio. False at the ladder's ends.
  bool zoom(int direction, const world::World& world);
  /// Another flight or the world's rebuild ends a ladder flight's claim on the next rung.
  void forgetLadder() { m_ladderTarget.clear(); }

 private:
  TourDriver& m_driver;
  TourPanel& m_panel;
  std::string m_language;
  TextMode m_mode = TextMode::Engineer;
  bool m_details = false;
  bool m_interactive = false;
  bool m_blanked = false, m_attract = false;
  std::string m_banner, m_hint;
  // The step whose visual events run, and for how long they have (seconds since the camera
  // landed at the step's station).
  uint64_t m_eventSerial = UINT64_MAX;
  double m_eventTime_s = 0;
  // In free flight: the studio kept from the path or a ladder flight landed in (see studio()).
  std::string m_flightStudio;
  std::string m_ladderTarget;  // the station a ladder flight goes to
};

/// The frame source of the station views (shot, bench): a camera the mode places, a heat
/// overlay, traffic and coolant, and the station's HUD with the simulation's status (none with
/// TextMode::Off: the clean plate).
class StationView : public FrameSource {
 public:
  StationView() = default;
  world::Camera& camera() { return m_camera; }
  /// The station the HUD names (nullptr: no title, as for a model of one's own); with `studio`
  /// the view is in its studio (a still of it; the bench's paths find theirs from the camera).
  void setStation(const world::Station* station, bool studio = true) {
    m_station = station;
    m_stationStudio = studio;
  }
  void setOverlay(world::OverlayMetric metric) { m_overlay = metric; }
  void setTraffic(bool on) { m_traffic = on; }
  void setCoolant(bool on) { m_coolant = on; }
  void setTextMode(TextMode mode) { m_mode = mode; }
  /// The HUD's title instead of the station's (shot --model: the file's name).
  void setTitle(std::string title) { m_title = std::move(title); }
  /// Frame description tweaks of the benchmark's naive baselines.
  void setBaseline(double lodScale, bool cull, uint64_t triangleBudget);

  void advance(double, std::vector<SimCommand>&) override {}
  const world::Camera& camera() const override { return m_camera; }
  world::OverlayMetric overlay() const override { return m_overlay; }
  world::FrameDesc frameDesc(VkExtent2D extent, const SimHost& sim) const override;
  HudInfo hud(FrameContext& context) override;
  void worldRebuilt(const world::World& old, const world::World& world) override;

 private:
  world::Camera m_camera;
  const world::Station* m_station = nullptr;
  bool m_stationStudio = true;
  world::OverlayMetric m_overlay = world::OverlayMetric::None;
  bool m_traffic = false, m_coolant = false;
  TextMode m_mode = TextMode::Engineer;
  std::string m_title;
  double m_lodScale = 1.0;
  bool m_cull = true;
  uint64_t m_triangleBudget = world::FrameDesc{}.triangleBudget;
};

}  // namespace app
