#include "app/session/tour_driver.h"

#include <algorithm>

#include <glm/geometric.hpp>

#include "app/session/session.h"
#include "app/session/tour_session.h"
#include "app/ui/ui_text.h"

namespace app {

TourDriver::TourDriver(world::TourPlayer player) : m_player(std::move(player)) {}

void TourDriver::start(std::vector<SimCommand>& commands, bool cut) {
  m_flight.reset();
  m_player.start(m_camera.pose());
  if (cut) m_player.land();
  m_camera.setPose(m_player.frame().cameraPose);
  followStep(commands);
}

void TourDriver::setPlayer(world::TourPlayer player, std::vector<SimCommand>& commands) {
  m_player = std::move(player);
  m_stepSerial = UINT64_MAX;
  start(commands);
}

void TourDriver::leavePath() {
  if (m_player.onPath()) m_player.leavePath();
  m_flight.reset();
}

void TourDriver::flyTo(const world::OrbitPose& target) {
  leavePath();
  const double distance = std::max(1e-6, glm::length(target.target - m_camera.position()));
  // As the tour flies: inside the hall it starts and ends in, never out through its walls.
  m_flight.emplace(world::toOrbitPose(m_camera.pose(), distance), target, m_player.flightDesc());
  m_flightElapsed_s = 0;
}

void TourDriver::rehome(std::map<std::string, world::OrbitPose> views,
                        std::vector<world::FlightRoom> rooms, const world::Pose& free) {
  m_flight.reset();
  m_player.setRooms(std::move(rooms));
  const bool rehomed = m_player.setViews(std::move(views));
  m_camera.setPose(rehomed && m_player.onPath() ? m_player.frame().cameraPose : free);
}

void TourDriver::advance(double dt_s, std::vector<SimCommand>& commands) {
  if (m_flight) {
    m_flightElapsed_s += dt_s;
    m_camera.setPose(m_flight->sample(m_flightElapsed_s));
    if (m_flight->finished(m_flightElapsed_s)) m_flight.reset();
  } else {
    m_player.advance(dt_s);
    if (m_player.onPath()) m_camera.setPose(m_player.frame().cameraPose);
  }
  followStep(commands);
}

void TourDriver::followStep(std::vector<SimCommand>& commands) {
  const world::TourFrame frame = m_player.frame();
  if (frame.stepSerial == m_stepSerial) return;
  m_stepSerial = frame.stepSerial;
  // The visitor's overlay and traffic choice holds within the chapter it was made in; another
  // chapter shows what its steps were designed with (issue 22), also on coming back.
  if (m_overlayChosen && m_overlayChapter != frame.chapter) m_overlayChosen = false;
  if (m_trafficChosen && m_trafficChapter != frame.chapter) m_trafficChosen = false;
  if (frame.engineScenario.empty()) return;  // a tour without a designed simulation
  commands.push_back(
      SimCommand::follow({frame.engineScenario, {}, frame.faults}, frame.chapterTitle));
}

HudInfo TourDriver::hud(const std::string& language, const sim::engine::Snapshot& snapshot) const {
  HudInfo hud = tourHud(m_player.frame());
  hud.language = language;
  if (!m_player.onPath()) {
    hud.caption = uiText("hud.free_flight", language);
    hud.captionIsAction = false;
  }
  hud.status = tourStatus(snapshot, language);
  return hud;
}

world::OverlayMetric TourDriver::overlay() const {
  const world::TourFrame& frame = m_player.frame();
  return m_overlayChosen && m_overlayChapter == frame.chapter ? m_overlay : frame.overlays.heat;
}

bool TourDriver::traffic() const {
  const world::TourFrame& frame = m_player.frame();
  return m_trafficChosen && m_trafficChapter == frame.chapter
             ? m_traffic
             : frame.overlays.layers.has(world::LayerId::Traffic);
}

void TourDriver::toggleTraffic() {
  m_traffic = !traffic();
  m_trafficChosen = true;
  m_trafficChapter = m_player.frame().chapter;
}

world::FrameDesc TourDriver::frameDesc(uint32_t width, uint32_t height,
                                       const world::HbmFill* hbmFill, double animation_s) const {
  world::FrameDesc frame{width, height};
  frame.layers = m_player.frame().overlays.layers;
  frame.layers.set(world::LayerId::Traffic, traffic());
  frame.layers.set(world::LayerId::HbmFill, hbmFill != nullptr);  // the panel's memory bar
  frame.inputs.hbmFill = hbmFill;
  frame.inputs.animationTime_s = animation_s;  // a paused simulation pauses them too
  return frame;
}

void TourDriver::cycleOverlay() {
  m_overlay = world::OverlayMetric((int(overlay()) + 1) % world::OVERLAY_METRIC_COUNT);
  m_overlayChosen = true;
  m_overlayChapter = m_player.frame().chapter;
}

}  // namespace app
