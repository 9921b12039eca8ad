// The tour player: where the tour is (chapter, step, beat), what the app shows each frame (the
// camera pose, the caption in the chosen language, overlays, panel, scenario) and the visitor's
// controls: next/prev, jump to a chapter, leave the path and return, reduced motion. Pure logic
// over time steps: no window, no GPU.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/result.h"
#include "world/scene/camera.h"
#include "world/scene/flight.h"
#include "world/tour/tour.h"

namespace world {

struct TourPlayerDesc {
  std::string language = "en";
  bool reducedMotion = false;   // cut to each target instead of flying
  bool autoAdvance = false;     // beats advance by themselves (attract loop, headless)
  bool loop = false;            // after the last step, start over
  bool highlightsOnly = false;  // play only chapters marked "highlight" (the attract loop)
  FlyToDesc flight;
};

/// What the app needs this frame.
struct TourFrame {
  size_t chapter = 0;  // index into the tour's chapters
  size_t step = 0;     // index into the chapter's steps
  // 1..beatTotal: this beat among all the beats of the tour's played order, the pages Space
  // turns (a visitor's "step 23 of 72").
  size_t beatNumber = 1;
  size_t beatTotal = 1;
  size_t beat = 0;  // 0..beatCount-1: the narration chunks, then the action
  size_t beatCount = 1;
  int chapterNumber = 0;  // 1..10; 0 for the finale
  std::string chapterTitle;
  std::string caption;  // the current chunk or the action, in the chosen language
  bool captionIsAction = false;
  std::string boothCaption;   // the step's one booth line ("" = none), in the chosen language
  std::string boothHeadline;  // the step's booth headline, placeholders unfilled ("" = none)
  std::vector<std::string> controls;  // what the action names (TourStep::controls)
  bool freeFlight = false;            // the visitor left the path: the app drives the camera
  Pose cameraPose;                    // where the camera is (meaningless in free flight)
  bool cameraMoving = false;
  std::string station;  // the step's station ("" when it gives an explicit orbit)
  OrbitPose target;     // where the camera is going
  StepOverlays overlays;
  std::string panel;
  std::string scenario;
  std::string engineScenario;
  std::vector<sim::engine::FaultDesc> faults;
  uint64_t stepSerial = 0;  // changes whenever the step changes: reload scenario and faults
};

class TourPlayer {
 public:
  /// A player for `bundle`; every station the tour names must have a viewpoint in `views`.
  static sim::Result<TourPlayer> create(TourBundle bundle, std::map<std::string, OrbitPose> views,
                                        TourPlayerDesc desc = {});

  /// The world was rebuilt: its stations' viewpoints replace the old ones and the camera cuts
  /// to the step's view in it. False (and no change) when a station the tour names has none.
  /// The rooms flights keep to from the next flight on (FlyToDesc::rooms): a new world's halls.
  void setRooms(std::vector<FlightRoom> rooms) { m_desc.flight.rooms = std::move(rooms); }
  /// How the tour's flights fly (their rooms among it): every other flight of the view too.
  const FlyToDesc& flightDesc() const { return m_desc.flight; }
  bool setViews(std::map<std::string, OrbitPose> views);
  /// Starts at the first step, flying from `from` (cut under reduced motion).
  void start(const Pose& from);
  /// Next beat (the next step after the action); false at the end (unless looping).
  bool next();
  /// Previous beat (the previous step's last beat from a first beat); false at the start.
  bool prev();
  /// First beat of the next step; false at the end (unless looping).
  bool nextStep();
  /// First beat of the previous step; false at the start.
  bool prevStep();
  /// Jumps to chapter `index` (into the tour's chapters); false when it is not being played.
  bool jumpToChapter(size_t index);
  /// Number keys: 1-9 go to chapters 1-9, 0 to chapter 10; false when there is no such chapter.
  bool jumpToChapterKey(int digit);
  /// Jumps to the finale; false when the tour has none.
  bool jumpToFinale();
  /// Leaves the path: the app flies freely, the tour waits.
  void leavePath();
  /// Back to the path with one call: flies from `current` (the free camera) to the step's view.
  void returnToPath(const Pose& current);
  bool onPath() const { return !m_free; }
  /// Advances time: the flight, and the beats when auto-advancing.
  void advance(double dt_s);
  /// Ends the current flight at its target: a cut, once.
  void land();
  /// Cuts the current flight short and cuts future moves (or brings them back).
  void setReducedMotion(bool on);
  bool reducedMotion() const { return m_desc.reducedMotion; }
  /// Switches the caption language; false (and no change) when the bundle lacks it.
  bool setLanguage(const std::string& code);
  void setAutoAdvance(bool on) { m_desc.autoAdvance = on; }
  bool autoAdvance() const { return m_desc.autoAdvance; }
  /// True once the last beat of the last step has been shown for its time (no loop).
  bool finished() const { return m_finished; }
  /// The frame's outputs.
  TourFrame frame() const;
  /// A strings key in the current language (keys were checked on load; unknown: the key).
  std::string text(const std::string& key) const;
  const Tour& tour() const { return m_bundle.tour; }
  /// The tour with its strings in every language.
  const TourBundle& bundle() const { return m_bundle; }
  /// The steps played in order, as (chapter, step) index pairs.
  const std::vector<std::pair<size_t, size_t>>& order() const { return m_order; }
  /// Seconds one beat of the current step lasts when auto-advancing.
  double beatDuration_s() const;

 private:
  TourPlayer() = default;
  const TourStep& step() const;
  const TourStep* stepWithoutView(const std::map<std::string, OrbitPose>& views) const;
  size_t beatCount() const;
  OrbitPose targetOf(const TourStep& step) const;
  void goTo(size_t orderIndex, size_t beat);
  void flyTo(const Pose& from, const OrbitPose& to);
  void flyFromOrbit(const OrbitPose& from, const OrbitPose& to);

  TourBundle m_bundle;
  std::map<std::string, OrbitPose> m_views;
  TourPlayerDesc m_desc;
  size_t m_language = 0;  // index into m_bundle.languages (an index survives moves)
  std::vector<std::pair<size_t, size_t>> m_order;
  size_t m_index = 0;
  size_t m_beat = 0;
  double m_beatElapsed_s = 0;
  bool m_free = false;
  bool m_finished = false;
  uint64_t m_stepSerial = 0;
  Pose m_pose;
  OrbitPose m_target;
  std::optional<FlyTo> m_flight;
  double m_flightElapsed_s = 0;
};

}  // namespace world
