// The benchmark's fixed camera paths through the one world, sampled by time.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "world/live/overlays.h"
#include "world/world.h"

namespace app {

struct BenchPath {
  std::string name;
  std::string description;
  double duration_s = 0;
  std::function<world::Pose(double time_s)> poseAt;
  std::function<std::string(double time_s)> stationAt;        // the station held, or flown to
  world::OverlayMetric overlay = world::OverlayMetric::None;  // heat overlay shown along the way
  bool traffic = false;                                       // traffic particles too
};

/// Names of the paths `makeBenchPath` knows.
std::vector<std::string> benchPathNames();
/// Builds path `name` over `world`'s stations; false when the name is unknown.
bool makeBenchPath(const world::World& world, const std::string& name, BenchPath& out);

}  // namespace app
