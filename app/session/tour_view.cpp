#include "app/session/tour_view.h"

#include <algorithm>

#include "app/session/session.h"
#include "app/session/tour_session.h"
#include "app/session/world_rebuild.h"
#include "app/ui/narration.h"
#include "app/ui/ui_text.h"
#include "world/live/selection.h"

namespace app {

void TourView::advance(double dt_s, std::vector<SimCommand>& commands) {
  m_driver.advance(dt_s, commands);
  const uint64_t serial = m_driver.player().frame().stepSerial;
  if (serial != m_eventSerial) {
    m_eventSerial = serial;
    m_eventTime_s = 0;
  } else if (!m_driver.player().frame().cameraMoving) {
    m_eventTime_s += std::max(0.0, dt_s);
  }
}

world::FrameDesc TourView::frameDesc(VkExtent2D extent, const SimHost& sim) const {
  world::FrameDesc frame =
      m_driver.frameDesc(extent.width, extent.height, m_panel.hbmFill(), sim.time_s());
  const world::TourFrame& step = m_driver.player().frame();
  frame.studio = studio();
  frame.inputs.eventTime_s = m_eventTime_s;
  if (step.overlays.roofline) frame.inputs.compute = m_panel.rooflineGlow(m_eventTime_s);
  if (step.overlays.layers.has(world::LayerId::ValueBars)) {
    frame.inputs.valueBars = m_panel.valueBars();
  }
  if (step.overlays.layers.has(world::LayerId::Phases))
    frame.inputs.phases = m_panel.rooflinePhases();
  if (step.overlays.layers.has(world::LayerId::PixelRace)) {
    frame.inputs.pixelRace = step.overlays.tiles ? m_panel.tensorRace() : m_panel.pixelRace();
  }
  return frame;
}

std::string TourView::studio() const {
  const world::TourFrame& step = m_driver.player().frame();
  if (step.freeFlight) return m_flightStudio;
  return step.cameraMoving ? std::string() : step.station;  // landed: the station's studio
}

double TourView::placeScale(const world::World& world) const {
  const world::Camera& camera = m_driver.camera();
  return world::locate(world, camera.position(), camera.forward(), studio()).scale_m;
}

void TourView::fly(const glm::dvec3& axes, double dt_s, const world::World& world) {
  m_driver.leavePath();
  forgetLadder();
  world::Camera& camera = m_driver.camera();
  const double clearance = std::max(0.0, world.nearestSurface(camera.position()));
  camera.fly(axes, dt_s, clearance, placeScale(world),
             [&world](const glm::dvec3& p) { return world.nearestSurface(p); });
}

void TourView::dolly(double steps, const world::World& world) {
  m_driver.leavePath();
  forgetLadder();
  world::Camera& camera = m_driver.camera();
  const double clearance = std::max(0.0, world.nearestSurface(camera.position()));
  camera.dolly(steps, clearance, placeScale(world),
               [&world](const glm::dvec3& p) { return world.nearestSurface(p); });
}

bool TourView::zoom(int direction, const world::World& world) {
  const std::vector<world::Station>& stations = world.stations();
  std::string from = m_ladderTarget.empty() ? studio() : m_ladderTarget;
  const world::Station* here = world.station(from);
  if (!here || !here->onLadder) {
    const std::optional<size_t> rung = world::ladderRungAt(stations, m_driver.camera().pose());
    if (!rung) return false;
    from = stations[*rung].name;
  }
  const std::optional<size_t> next = world::neighbourOnLadder(stations, from, direction);
  if (!next) return false;
  const world::Station& to = stations[*next];
  const world::Station* kept = world.station(studio());
  m_driver.flyTo(to.viewpoint);
  // Out: the flight is in the larger studio from its start; in: it lands in the smaller one.
  if (!kept || to.scale_m > kept->scale_m) m_flightStudio = to.name;
  m_ladderTarget = to.name;
  return true;
}

void TourView::follow(FrameContext& context) {
  // Free flight keeps the studio it started in while the camera stays near enough, and takes a
  // smaller one it flies into; leaving the path takes the studio the step had landed in.
  const world::TourFrame& step = m_driver.player().frame();
  const world::Camera& camera = m_driver.camera();
  if (!step.freeFlight) {
    m_flightStudio = studio();
    m_ladderTarget.clear();
  } else if (!m_ladderTarget.empty()) {
    if (!m_driver.flying()) {  // landed on its rung
      m_flightStudio = m_ladderTarget;
      m_ladderTarget.clear();
    }
  } else if (const world::Station* kept = context.world.station(m_flightStudio)) {
    const world::Station* seen = context.world.stationInView(camera.position(), camera.forward());
    if (seen && seen->scale_m < kept->scale_m) {
      m_flightStudio = seen->name;
    } else if (!world::inStudioReach(*kept, camera.position())) {
      m_flightStudio.clear();
    }
  } else {
    m_flightStudio.clear();
  }
  m_panel.follow(m_driver.player().frame(), m_language, context.sim.generation());
}

HudInfo TourView::hud(FrameContext& context) {
  HudInfo hud = m_driver.hud(m_language, context.snapshot);
  hud.mode = m_mode;
  const PanelView* view = m_panel.view();
  if (m_mode == TextMode::Booth) {
    // Readable at two metres: the title, one number, one line (visual_brief.md).
    hud.subtitle.clear();
    hud.status.clear();
    const world::TourFrame frame = m_driver.player().frame();
    hud.caption = m_driver.player().onPath() ? frame.boothCaption : hud.caption;
    hud.captionIsAction = false;
    if (view && view->verdict) {
      hud.headline = view->verdict->text;
      hud.headlineIsWarning = view->verdict->warning;
    }
    // The step's own number in plain words, from the same values as the panel (its warning
    // colour too: a step that crashes says so in red).
    if (m_driver.player().onPath() && !frame.boothHeadline.empty()) {
      NarrationSources sources{view, &context.catalog};
      sources.engine = &context.snapshot;
      hud.headline = fillNarration(frame.boothHeadline, sources);
    }
  } else {
    hud.panelOnRight = view != nullptr;
    // One world of numbers: a chapter whose server ran out of memory serves nothing.
    const PanelRowView* fits = view ? view->value("memory.fits") : nullptr;
    if (fits && fits->isFlag && fits->value == 0)
      hud.status = tourStatus(context.snapshot, m_language, true);
    // Where the visitor is in the tour and what moves it on (the kiosk says it in its banner).
    const world::TourPlayer& player = m_driver.player();
    if (m_interactive && player.onPath()) {
      const world::TourFrame frame = player.frame();
      hud.subtitle =
          withValue(uiText(player.autoAdvance() ? "hud.tour_playing" : "hud.tour_step", m_language),
                    std::to_string(frame.beatNumber) + " / " + std::to_string(frame.beatTotal));
    }
  }
  if (!m_hint.empty()) hud.caption = m_hint;
  if (!m_banner.empty()) hud.banner = m_banner;
  // Every number in the narration is the panel's (or the catalog's) value it names.
  NarrationSources sources{view, &context.catalog};
  sources.engine = &context.snapshot;
  hud.caption = fillNarration(hud.caption, sources);
  return hud;
}

void TourView::drawWindows(FrameContext& context) {
  if (m_mode != TextMode::Engineer) return;
  PanelDrawDesc desc;
  desc.region = context.ui.layout().panel;
  desc.interactive = m_interactive && !m_attract;
  desc.details = m_details;
  desc.language = m_language;
  desc.verdictFont = context.ui.headlineFont();
  m_panel.draw(desc, RunningSim{context.sim.request(), context.sim.time_s()}, context.commands);
}

void TourView::worldRebuilt(const world::World& old, const world::World& world) {
  m_driver.rehome(tourViews(world), tourRooms(world),
                  poseIn(world, placeOf(old, m_driver.camera().pose())));
}

void StationView::worldRebuilt(const world::World& old, const world::World& world) {
  if (m_station) m_station = world.station(m_station->name);
  m_camera.setPose(poseIn(world, placeOf(old, m_camera.pose())));
}

void StationView::setBaseline(double lodScale, bool cull, uint64_t triangleBudget) {
  m_lodScale = lodScale;
  m_cull = cull;
  m_triangleBudget = triangleBudget;
}

world::FrameDesc StationView::frameDesc(VkExtent2D extent, const SimHost& sim) const {
  world::FrameDesc frame{extent.width, extent.height};
  frame.layers.set(world::LayerId::Traffic, m_traffic).set(world::LayerId::Coolant, m_coolant);
  frame.inputs.animationTime_s = sim.time_s();
  frame.lodScale = m_lodScale;
  frame.cull = m_cull;
  frame.triangleBudget = m_triangleBudget;
  if (m_station && m_stationStudio) frame.studio = m_station->name;
  return frame;
}

HudInfo StationView::hud(FrameContext& context) {
  HudInfo hud;
  hud.mode = m_mode;
  if (m_mode == TextMode::Off) return hud;
  if (m_station) hud = stationHud(*m_station);
  hud.mode = m_mode;
  if (!m_title.empty()) {
    hud.title = m_title;
    return hud;
  }
  hud.status = simStatus(context.snapshot, context.world.racks()) + "   |   " + hud.status;
  return hud;
}

}  // namespace app
