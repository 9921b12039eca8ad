#include "app/session/tour_driver.h"

#include <algorithm>
#include <cstdio>

#include <glm/geometric.hpp>

#include "app/session/tour_session.h"

namespace app {
namespace {

// Identifies what a step asks the engine to run: equal keys keep the running engine going.
std::string simKey(const world::TourFrame& frame) {
  std::string key = frame.engineScenario;
  for (const sim::engine::FaultDesc& f : frame.faults) {
    char text[160];
    std::snprintf(text, sizeof(text), "|%d:%u@%g-%g,%g%s", int(f.kind), f.target, f.start_s,
                  f.end_s, f.severity, f.deadlock ? ",deadlock" : "");
    key += text;
  }
  return key;
}

}  // namespace

TourDriver::TourDriver(Session& session, world::TourPlayer player)
    : m_session(session), m_player(std::move(player)) {}

void TourDriver::start(bool cut) {
  m_flight.reset();
  m_player.start(m_camera.pose());
  if (cut) m_player.land();
  m_camera.setPose(m_player.frame().cameraPose);
  followStep();
}

void TourDriver::setPlayer(world::TourPlayer player) {
  m_player = std::move(player);
  m_stepSerial = UINT64_MAX;
  start();
}

void TourDriver::leavePath() {
  if (m_player.onPath()) m_player.leavePath();
  m_flight.reset();
}

void TourDriver::flyTo(const world::OrbitPose& target) {
  leavePath();
  const double distance = std::max(1e-6, glm::length(target.target - m_camera.position()));
  m_flight.emplace(world::toOrbitPose(m_camera.pose(), distance), target);
  m_flightElapsed_s = 0;
}

void TourDriver::advance(double dt_s) {
  if (m_flight) {
    m_flightElapsed_s += dt_s;
    m_camera.setPose(m_flight->sample(m_flightElapsed_s));
    if (m_flight->finished(m_flightElapsed_s)) m_flight.reset();
  } else {
    m_player.advance(dt_s);
    if (m_player.onPath()) m_camera.setPose(m_player.frame().cameraPose);
  }
  followStep();
  if (!m_paused) m_session.engine->advanceTo(m_session.engine->time_s() + dt_s * m_simSpeed);
}

void TourDriver::setSimSpeed(double speed) {
  m_simSpeed = std::clamp(speed, MIN_SIM_SPEED, MAX_SIM_SPEED);
}

void TourDriver::stepSimulation() {
  m_session.engine->step();
}

void TourDriver::scrubTo(double t_s) {
  // A copy: the session's request is replaced by the very same one.
  auto started = startEngine(m_session, sim::engine::EngineRequest(m_session.engineRequest));
  if (!started) {
    std::fprintf(stderr, "dcwalk: cannot scrub: %s\n", started.error().c_str());
    return;
  }
  m_session.engine->advanceTo(std::max(0.0, t_s));
}

void TourDriver::followStep() {
  const world::TourFrame frame = m_player.frame();
  if (frame.stepSerial == m_stepSerial) return;
  m_stepSerial = frame.stepSerial;
  if (frame.engineScenario.empty()) return;  // the step keeps whatever runs
  const std::string key = simKey(frame);
  if (key == m_simKey) return;
  auto started =
      startEngine(m_session, sim::engine::EngineRequest{frame.engineScenario, {}, frame.faults});
  if (!started) {
    std::fprintf(stderr, "dcwalk: tour step keeps the running simulation: %s\n",
                 started.error().c_str());
    return;
  }
  m_simKey = key;
}

HudInfo TourDriver::hud(const std::string& language) const {
  HudInfo hud = tourHud(m_player.frame());
  if (!m_player.onPath()) {
    hud.caption = language == "de" ? "Freier Flug: Pos1 führt zurück zur Tour"
                                   : "Free flight: Home returns to the tour";
    hud.captionIsAction = false;
  }
  hud.status = simStatus(*m_session.engine, m_session.world->racks());
  return hud;
}

world::OverlayMetric TourDriver::overlay() const {
  return m_overlayChosen ? m_overlay : tourOverlayMetric(m_player.frame());
}

bool TourDriver::traffic() const {
  if (m_trafficChosen) return m_traffic;
  const auto& overlays = m_player.frame().overlays;
  return std::find(overlays.begin(), overlays.end(), "traffic") != overlays.end();
}

void TourDriver::toggleTraffic() {
  m_traffic = !traffic();
  m_trafficChosen = true;
}

world::FrameDesc TourDriver::frameDesc(uint32_t width, uint32_t height,
                                       const world::HbmFill* hbmFill) const {
  world::FrameDesc frame{width, height};
  frame.traffic = traffic();
  const auto& overlays = m_player.frame().overlays;
  frame.coolant = std::find(overlays.begin(), overlays.end(), "coolant") != overlays.end();
  frame.hbmFill = hbmFill;
  frame.animationTime_s = m_session.engine->time_s();  // a paused simulation pauses them too
  return frame;
}

void TourDriver::cycleOverlay() {
  m_overlay = world::OverlayMetric((int(overlay()) + 1) % world::OVERLAY_METRIC_COUNT);
  m_overlayChosen = true;
}

}  // namespace app
