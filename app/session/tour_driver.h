// What every live mode of the tour shares (the window, booth mode, the headless soak, tour and
// clip): the tour player, the camera it drives, a free fly-to, the visitor's overlay choice, and
// the simulation each step asks for (as a command for the sim host, never the engine itself). No
// window library here: the window adds keys, mouse flight and picking on top.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/session/sim_host.h"
#include "app/ui/ui_layer.h"
#include "sim/engine/snapshot.h"
#include "world/live/hbm_fill.h"
#include "world/live/overlays.h"
#include "world/scene/camera.h"
#include "world/scene/flight.h"
#include "world/tour/tour_player.h"
#include "world/world.h"

namespace app {

class TourDriver {
 public:
  explicit TourDriver(world::TourPlayer player);

  /// Starts the tour: a flight from the current camera, or with `cut` (and under reduced
  /// motion) straight at the first view. The first step's simulation goes into `commands`.
  void start(std::vector<SimCommand>& commands, bool cut = false);
  /// Replaces the player (attract loop <-> tour) and starts it with a flight.
  void setPlayer(world::TourPlayer player, std::vector<SimCommand>& commands);
  world::TourPlayer& player() { return m_player; }
  const world::TourPlayer& player() const { return m_player; }

  void next() { m_player.next(); }
  void prev() { m_player.prev(); }
  /// Number keys: 1-9 chapters 1-9, 0 chapter 10; from free flight, a flight back to the path
  /// there.
  void chapter(int digit) {
    if (m_player.jumpToChapterKey(digit) && !m_player.onPath()) returnToPath();
  }
  /// Leaves the path (the visitor flies); cancels a fly-to.
  void leavePath();
  /// Back to the tour from free flight, flying from where the camera is.
  void returnToPath() { m_player.returnToPath(m_camera.pose()); }
  /// Off the path: an eased flight from the camera to `target`.
  void flyTo(const world::OrbitPose& target);
  /// Whether a flyTo flight is under way.
  bool flying() const { return m_flight.has_value(); }

  /// The world was rebuilt: the player takes its views (on the path the camera cuts to the
  /// step's view in it); off the path the camera goes to `free` (the place it was at).
  void rehome(std::map<std::string, world::OrbitPose> views, std::vector<world::FlightRoom> rooms,
              const world::Pose& free);

  /// Advances `dt_s`: the fly-to or the tour places the camera; a step that names an engine
  /// scenario asks for it (a restart at t = 0 of the step's scenario and faults; the host keeps
  /// the running engine when that is what already runs).
  void advance(double dt_s, std::vector<SimCommand>& commands);

  /// The tour's HUD: chapter, caption (a free-flight hint off the path) and the sim status.
  HudInfo hud(const std::string& language, const sim::engine::Snapshot& snapshot) const;

  /// Traffic particles: the visitor's choice (toggleTraffic) for the rest of its chapter, else
  /// whether the tour step lists the "traffic" overlay.
  bool traffic() const;
  void toggleTraffic();
  /// The frame description for a width x height view (with traffic(), the step's coolant, the
  /// HBM fill of the chapter panel's memory bar if any, and the animations at simulated time
  /// `animation_s`).
  world::FrameDesc frameDesc(uint32_t width, uint32_t height, const world::HbmFill* hbmFill,
                             double animation_s) const;

  /// The visitor's overlay (cycleOverlay) for the rest of its chapter, else what the tour step
  /// asks for.
  world::OverlayMetric overlay() const;
  /// Next heat overlay in world::overlayMetrics() order, then none.
  void cycleOverlay();

  world::Camera& camera() { return m_camera; }
  const world::Camera& camera() const { return m_camera; }

 private:
  void followStep(std::vector<SimCommand>& commands);

  world::TourPlayer m_player;
  world::Camera m_camera;
  std::optional<world::FlyTo> m_flight;
  double m_flightElapsed_s = 0;
  world::OverlayMetric m_overlay = world::OverlayMetric::None;
  bool m_overlayChosen = false;
  size_t m_overlayChapter = 0;  // where the overlay was chosen: it holds there only
  bool m_traffic = false;
  bool m_trafficChosen = false;
  size_t m_trafficChapter = 0;
  uint64_t m_stepSerial = UINT64_MAX;
};

}  // namespace app
