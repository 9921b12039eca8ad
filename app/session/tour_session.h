// The tour player for a world: the tour bundle checked against the world (station names), the sim
// scenarios and the engine scenarios, with every station's viewpoint.
#pragma once

#include <string>

#include "app/ui/ui_layer.h"
#include "sim/result.h"
#include "world/live/overlays.h"
#include "world/tour/tour_player.h"
#include "world/world.h"

namespace app {

/// Loads tour `name` (a file, or assets/tours/<name>.json) and makes its player.
sim::Result<world::TourPlayer> makeTourPlayer(const world::World& world, const std::string& name,
                                              const world::TourPlayerDesc& desc);

/// The HUD for a tour frame: chapter as title, the caption below it.
HudInfo tourHud(const world::TourFrame& frame);

}  // namespace app
