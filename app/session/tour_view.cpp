#include "app/session/tour_view.h"

#include "app/session/session.h"

namespace app {

void TourView::advance(double dt_s, std::vector<SimCommand>& commands) {
  m_driver.advance(dt_s, commands);
}

world::FrameDesc TourView::frameDesc(VkExtent2D extent, const SimHost& sim) const {
  world::FrameDesc frame =
      m_driver.frameDesc(extent.width, extent.height, m_panel.hbmFill(), sim.time_s());
  // A step that has landed at its station is in that station's studio.
  const world::TourFrame& step = m_driver.player().frame();
  if (!step.freeFlight && !step.cameraMoving) frame.studio = step.station;
  return frame;
}

void TourView::follow(FrameContext& context) {
  m_panel.follow(m_driver.player().frame(), m_language, context.sim.generation());
}

HudInfo TourView::hud(FrameContext& context) {
  HudInfo hud = m_driver.hud(m_language, context.snapshot, context.world.racks());
  hud.panelOnRight = m_panel.view() != nullptr;
  if (!m_banner.empty()) hud.banner = m_banner;
  return hud;
}

void TourView::drawWindows(FrameContext&) {
  m_panel.draw(m_interactive && !m_attract, m_language);
}

void StationView::setBaseline(double lodScale, bool cull, uint64_t triangleBudget) {
  m_lodScale = lodScale;
  m_cull = cull;
  m_triangleBudget = triangleBudget;
}

world::FrameDesc StationView::frameDesc(VkExtent2D extent, const SimHost& sim) const {
  world::FrameDesc frame{extent.width, extent.height};
  frame.traffic = m_traffic;
  frame.coolant = m_coolant;
  frame.animationTime_s = sim.time_s();
  frame.lodScale = m_lodScale;
  frame.cull = m_cull;
  frame.triangleBudget = m_triangleBudget;
  if (m_station && m_stationStudio) frame.studio = m_station->name;
  return frame;
}

HudInfo StationView::hud(FrameContext& context) {
  HudInfo hud;
  if (m_station) hud = stationHud(*m_station);
  if (!m_title.empty()) {
    hud.title = m_title;
    return hud;
  }
  hud.status = simStatus(context.snapshot, context.world.racks()) + "   |   " + hud.status;
  return hud;
}

}  // namespace app
