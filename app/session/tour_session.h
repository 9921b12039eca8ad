// The tour player for a session: the tour bundle checked against the session's world (station
// names), the sim scenarios and the engine scenarios, with every station's viewpoint.
#pragma once

#include <string>

#include "app/session/session.h"
#include "sim/result.h"
#include "world/tour/tour_player.h"

namespace app {

/// Loads tour `name` (a file, or assets/tours/<name>.json) and makes its player.
sim::Result<world::TourPlayer> makeTourPlayer(const Session& session, const std::string& name,
                                              const world::TourPlayerDesc& desc);

/// The HUD for a tour frame: chapter as title, the caption below it.
HudInfo tourHud(const world::TourFrame& frame);

/// The heat overlay a tour step asks for ("heat.power" ...), or None.
world::OverlayMetric tourOverlayMetric(const world::TourFrame& frame);

}  // namespace app
