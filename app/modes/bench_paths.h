// The benchmark's fixed camera paths through the one world, sampled by time.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "app/session/sim_host.h"
#include "world/live/overlays.h"
#include "world/world.h"

namespace app {

struct BenchPath {
  std::string name;
  std::string description;
  double duration_s = 0;
  std::function<world::Pose(double time_s)> poseAt;
  std::function<std::string(double time_s)> stationAt;        // the station held, or flown to
  std::function<bool(double time_s)> heldAt;                  // holding at stationAt (not flying)
  world::OverlayMetric overlay = world::OverlayMetric::None;  // heat overlay shown along the way
  bool traffic = false;                                       // traffic particles too
  bool bySystem = false;  // frames reported per station and system (the systems change)
  std::function<void(SimHost&)> prepare;  // before the first frame (the simulation's start)
  // Before measured frame k (0-based): what a visitor asks of the simulation then.
  std::function<void(uint32_t k, SimHost&)> atFrame;
};

/// Names of the paths `makeBenchPath` knows.
std::vector<std::string> benchPathNames();
/// Builds path `name` over `world`'s stations; false when the name is unknown.
bool makeBenchPath(const world::World& world, const std::string& name, BenchPath& out);

}  // namespace app
