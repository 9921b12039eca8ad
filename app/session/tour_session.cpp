#include "app/session/tour_session.h"

#include "sim/engine/scenarios.h"
#include "sim/scenario.h"

namespace app {

sim::Result<world::TourPlayer> makeTourPlayer(const world::World& world, const std::string& name,
                                              const world::TourPlayerDesc& desc) {
  world::TourReferences refs;
  std::map<std::string, world::OrbitPose> views;
  for (const world::Station& station : world.stations()) {
    refs.stations.push_back(station.name);
    views[station.name] = station.viewpoint;
  }
  refs.scenarios = sim::builtinScenarioNames();
  refs.engineScenarios = sim::engine::builtinScenarioNames();
  auto bundle = world::loadTourBundle(name, refs);
  if (!bundle) return sim::Result<world::TourPlayer>::failure(bundle.error());
  return world::TourPlayer::create(std::move(*bundle), std::move(views), desc);
}

HudInfo tourHud(const world::TourFrame& frame) {
  HudInfo hud;
  hud.title = frame.chapterTitle;  // the strings carry the number ("4. The prompting paradox")
  hud.caption = frame.caption;
  hud.captionIsAction = frame.captionIsAction;
  return hud;
}

}  // namespace app
