// The tour player for a world: the tour bundle checked against the world (station names), the sim
// scenarios and the engine scenarios, with every station's viewpoint.
#pragma once

#include <map>
#include <string>

#include "app/ui/ui_layer.h"
#include "sim/catalog.h"
#include "sim/result.h"
#include "world/live/overlays.h"
#include "world/tour/tour_player.h"
#include "world/world.h"

namespace app {

/// Every station's view as the tour frames it (the hero left of the tour's text).
std::map<std::string, world::OrbitPose> tourViews(const world::World& world);
/// The rooms the tour's flights keep to: every hall of `world`.
std::vector<world::FlightRoom> tourRooms(const world::World& world);

/// Loads tour `name` (a file, or assets/tours/<name>.json) and makes its player; with `traced`
/// (a --trace replay runs) chapters that have trace steps play those instead.
sim::Result<world::TourPlayer> makeTourPlayer(const world::World& world, const std::string& name,
                                              world::TourPlayerDesc desc, bool traced = false);

/// Checks what every step of `tour` will run, before anything is rendered: its scenario preset
/// loads and evaluates with `catalog`, its engine scenario with its faults makes an engine (a
/// fault target the cluster does not have, say). The first failure names the step's file, line
/// and pointer and its chapter. Each distinct scenario and engine request is checked once.
sim::Result<bool> checkTourRuns(const world::Tour& tour, const sim::Catalog& catalog);

/// Checks every placeholder of every text the tour shows, in every language, before anything
/// is rendered: a catalog figure the catalog has, a trace share or engine figure narration knows
/// (app/ui/narration.h), or a key the chapter's panel shows for the step's scenario. An unknown
/// one was drawn raw ("{trace.bogus}"); the first is refused naming the step's file, line and
/// pointer, its chapter, the strings file, the key and the placeholder.
sim::Result<bool> checkTourText(const world::TourBundle& bundle, const sim::Catalog& catalog);

/// The HUD for a tour frame: chapter as title, the caption below it.
HudInfo tourHud(const world::TourFrame& frame);

}  // namespace app
