#include "app/session/tour_session.h"

#include <algorithm>

#include "sim/engine/engine.h"
#include "sim/engine/request.h"
#include "sim/engine/scenarios.h"
#include "sim/evaluate.h"
#include "sim/scenario.h"
#include "world/scene/camera.h"
#include "world/scene/flight.h"

namespace app {
namespace {

// The part of the frame the tour's picture has: the text and panel hold its right 40 %
// (ui_layout), so every hero is fitted into the left 60 %, centred there.
constexpr double TOUR_PICTURE_SHARE = 0.6;
constexpr double TOUR_PICTURE_NDC_X = -1.0 + TOUR_PICTURE_SHARE;

}  // namespace

std::map<std::string, world::OrbitPose> tourViews(const world::World& world) {
  std::map<std::string, world::OrbitPose> views;
  for (const world::Station& station : world.stations()) {
    views[station.name] = world::viewpointInPart(station, TOUR_PICTURE_SHARE, TOUR_PICTURE_NDC_X,
                                                 world::VIEW_FOV_RAD);
  }
  return views;
}

std::vector<world::FlightRoom> tourRooms(const world::World& world) {
  std::vector<world::FlightRoom> rooms;
  for (size_t h = 0; h < world.racks().rowStarts().size(); ++h) {
    if (auto hall = world.scene().worldBounds("hall" + std::to_string(h)))
      rooms.push_back({hall->min, hall->max});
  }
  return rooms;
}

sim::Result<world::TourPlayer> makeTourPlayer(const world::World& world, const std::string& name,
                                              world::TourPlayerDesc desc, bool traced) {
  desc.flight.rooms = tourRooms(world);
  world::TourReferences refs;
  std::map<std::string, world::OrbitPose> views = tourViews(world);
  for (const world::Station& station : world.stations()) refs.stations.push_back(station.name);
  refs.scenarios = sim::builtinScenarioNames();
  refs.engineScenarios = sim::engine::builtinScenarioNames();
  auto bundle = world::loadTourBundle(name, refs);
  if (!bundle) return sim::Result<world::TourPlayer>::failure(bundle.error());
  for (world::TourChapter& chapter : bundle->tour.chapters) {
    if (traced && !chapter.traceSteps.empty()) chapter.steps = std::move(chapter.traceSteps);
  }
  return world::TourPlayer::create(std::move(*bundle), std::move(views), desc);
}

sim::Result<bool> checkTourRuns(const world::Tour& tour, const sim::Catalog& catalog) {
  std::vector<std::string> scenariosDone;
  std::vector<sim::engine::EngineRequest> requestsDone;
  for (size_t c = 0; c < tour.chapters.size(); ++c) {
    const world::TourChapter& chapter = tour.chapters[c];
    for (const world::TourStep& step : chapter.steps) {
      auto refuse = [&](const std::string& why) {
        return sim::Result<bool>::failure(step.where + ": chapter " + std::to_string(c + 1) +
                                          " \"" + chapter.id + "\": " + why);
      };
      if (!step.scenario.empty() && std::find(scenariosDone.begin(), scenariosDone.end(),
                                              step.scenario) == scenariosDone.end()) {
        auto scenario = sim::loadScenario(step.scenario);
        if (!scenario) return refuse(scenario.error());
        auto evaluation = sim::evaluateScenario(*scenario, catalog);
        if (!evaluation) return refuse("scenario " + step.scenario + ": " + evaluation.error());
        scenariosDone.push_back(step.scenario);
      }
      const sim::engine::EngineRequest request{step.engineScenario, {}, step.faults};
      if (step.engineScenario.empty() ||
          std::find(requestsDone.begin(), requestsDone.end(), request) != requestsDone.end())
        continue;
      auto desc = sim::engine::engineDescOf(request);
      if (!desc) return refuse(desc.error());
      auto engine = sim::engine::Engine::create(catalog, *desc);
      if (!engine) return refuse("engine scenario " + step.engineScenario + ": " + engine.error());
      requestsDone.push_back(request);
    }
  }
  return true;
}

HudInfo tourHud(const world::TourFrame& frame) {
  HudInfo hud;
  hud.title = frame.chapterTitle;  // the strings carry the number ("4. The prompting paradox")
  hud.caption = frame.caption;
  hud.captionIsAction = frame.captionIsAction;
  return hud;
}

}  // namespace app
