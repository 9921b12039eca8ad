// What every live mode of the tour shares (the window, booth mode, the headless soak and clip):
// the tour player, the camera it drives, a free fly-to, the visitor's overlay choice, and the
// simulation following each step's engine scenario and faults. No window library here: the
// window adds keys, mouse flight and picking on top.
#pragma once

#include <optional>
#include <string>

#include "app/session/session.h"
#include "app/ui/ui_layer.h"
#include "world/live/overlays.h"
#include "world/scene/camera.h"
#include "world/scene/flight.h"
#include "world/tour/tour_player.h"
#include "world/world.h"

namespace app {

class TourDriver {
 public:
  TourDriver(Session& session, world::TourPlayer player);

  /// Starts the tour: a flight from the current camera, or with `cut` (and under reduced
  /// motion) straight at the first view.
  void start(bool cut = false);
  /// Replaces the player (attract loop <-> tour) and starts it with a flight.
  void setPlayer(world::TourPlayer player);
  world::TourPlayer& player() { return m_player; }
  const world::TourPlayer& player() const { return m_player; }

  void next() { m_player.next(); }
  void prev() { m_player.prev(); }
  /// Number keys: 1-9 chapters 1-9, 0 chapter 10.
  void chapter(int digit) { m_player.jumpToChapterKey(digit); }
  /// Leaves the path (the visitor flies); cancels a fly-to.
  void leavePath();
  /// Back to the tour from free flight, flying from where the camera is.
  void returnToPath() { m_player.returnToPath(m_camera.pose()); }
  /// Off the path: an eased flight from the camera to `target`.
  void flyTo(const world::OrbitPose& target);

  /// Advances `dt_s`: the fly-to or the tour places the camera; the engine follows the step's
  /// scenario and faults and runs `dt_s` x the sim speed of simulated time (none when paused).
  void advance(double dt_s);

  /// Time controls. Speed: simulated seconds per wall second, clamped to
  /// [MIN_SIM_SPEED, MAX_SIM_SPEED].
  void setSimSpeed(double speed);
  double simSpeed() const { return m_simSpeed; }
  void setPaused(bool paused) { m_paused = paused; }
  bool paused() const { return m_paused; }
  /// One fixed engine step (the way to walk through a paused collective).
  void stepSimulation();
  /// Scrubs to `t_s`: the same scenario and faults rerun from 0 (the engine is deterministic).
  void scrubTo(double t_s);
  static constexpr double MIN_SIM_SPEED = 0.01;
  static constexpr double MAX_SIM_SPEED = 100.0;  // 100 engine steps a frame at 30 fps

  /// The tour's HUD: chapter, caption (a free-flight hint off the path) and the sim status.
  HudInfo hud(const std::string& language) const;

  /// Traffic particles: the visitor's choice once made (toggleTraffic), else whether the tour
  /// step lists the "traffic" overlay.
  bool traffic() const;
  void toggleTraffic();
  /// The frame description for a width x height view (with traffic() and the HBM fill of the
  /// chapter panel's memory bar, if any).
  world::FrameDesc frameDesc(uint32_t width, uint32_t height,
                             const world::HbmFill* hbmFill = nullptr) const;

  /// The visitor's overlay once chosen (cycleOverlay), else what the tour step asks for.
  world::OverlayMetric overlay() const;
  /// Next heat overlay in world::overlayMetrics() order, then none.
  void cycleOverlay();

  world::Camera& camera() { return m_camera; }
  const world::Camera& camera() const { return m_camera; }

 private:
  void followStep();

  Session& m_session;
  world::TourPlayer m_player;
  world::Camera m_camera;
  std::optional<world::FlyTo> m_flight;
  double m_flightElapsed_s = 0;
  world::OverlayMetric m_overlay = world::OverlayMetric::None;
  bool m_overlayChosen = false;
  bool m_traffic = false;
  bool m_trafficChosen = false;
  double m_simSpeed = 1.0;
  bool m_paused = false;
  uint64_t m_stepSerial = UINT64_MAX;
  std::string m_simKey;  // engine scenario + faults of the running engine
};

}  // namespace app
