#include "app/session/tour_session.h"

#include <algorithm>
#include <map>

#include "app/ui/narration.h"
#include "app/ui/panels.h"
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
      // A panel evaluates the step's scenario: without one it showed "no such scenario file".
      if (!chapter.panel.empty() && step.scenario.empty()) {
        return refuse("its panel \"" + chapter.panel +
                      "\" needs a \"scenario\" (on the step or its chapter)");
      }
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

sim::Result<bool> checkTourText(const world::TourBundle& bundle, const sim::Catalog& catalog) {
  using R = sim::Result<bool>;
  auto panels = loadPanels(panelsFile());
  if (!panels) return R::failure(panels.error());
  // Each (panel, scenario, language) evaluated once: what a step's panel shows when it starts.
  std::map<std::string, PanelView> views;
  const auto panelView = [&](const Panel& panel, const std::string& scenario,
                             const std::string& language) -> const PanelView* {
    const std::string id = panel.id + "|" + scenario + "|" + language;
    if (auto found = views.find(id); found != views.end()) return &found->second;
    auto base = sim::loadScenario(scenario);
    if (!base) return nullptr;  // checkTourRuns names it
    return &views
                .emplace(id,
                         evaluatePanel(panel, *base, defaultKnobValues(panel), catalog, language))
                .first->second;
  };
  const world::Tour& tour = bundle.tour;
  for (size_t c = 0; c < tour.chapters.size(); ++c) {
    const world::TourChapter& chapter = tour.chapters[c];
    const Panel* panel = panels->find(chapter.panel);
    for (const std::vector<world::TourStep>* steps : {&chapter.steps, &chapter.traceSteps}) {
      for (const world::TourStep& step : *steps) {
        std::vector<std::string> keys = step.narration;
        for (const std::string* key : {&step.action, &step.booth, &step.headline, &chapter.title})
          if (!key->empty()) keys.push_back(*key);
        for (const world::StringTable& strings : bundle.languages) {
          for (const std::string& key : keys) {
            const std::string* text = strings.find(key);
            if (!text) continue;  // the loader refused missing keys
            for (const std::string& placeholder : placeholders(*text)) {
              if (knownPlaceholder(placeholder, catalog)) continue;
              const PanelView* view = panel && !step.scenario.empty()
                                          ? panelView(*panel, step.scenario, strings.language)
                                          : nullptr;
              if (view && view->value(placeholder)) continue;
              return R::failure(step.where + ": chapter " + std::to_string(c + 1) + " \"" +
                                chapter.id + "\": " + strings.file.filename().string() + ": \"" +
                                key + "\" shows {" + placeholder +
                                "}, which is no catalog figure, trace share, engine figure or "
                                "value of the chapter's panel (" +
                                (chapter.panel.empty() ? "none" : chapter.panel) + ")");
            }
          }
        }
      }
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
