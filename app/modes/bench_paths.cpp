#include "app/modes/bench_paths.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "app/session/tour_session.h"

namespace app {
namespace {

constexpr double HOLD_S = 0.5;  // time spent looking at each station before flying on

// Every ladder station from the smallest (SM) to the largest (campus): hold, fly, hold ...
BenchPath stationsPath(const world::World& world) {
  std::vector<const world::Station*> ladder;
  for (const auto& s : world.stations()) {
    if (s.onLadder) ladder.push_back(&s);
  }
  std::stable_sort(ladder.begin(), ladder.end(),
                   [](const auto* a, const auto* b) { return a->scale_m < b->scale_m; });
  struct Leg {
    double start_s;
    std::string station;  // held at, then flown from
    std::string next;     // flown to ("" for the last)
    world::OrbitPose at;
    std::shared_ptr<world::FlyTo> flight;  // to the next station, null for the last
  };
  auto legs = std::make_shared<std::vector<Leg>>();
  // Flown as the window and the tour fly: inside the hall a flight starts and ends in.
  world::FlyToDesc flight;
  flight.rooms = tourRooms(world);
  double t = 0;
  for (size_t i = 0; i < ladder.size(); ++i) {
    Leg leg{t, ladder[i]->name, i + 1 < ladder.size() ? ladder[i + 1]->name : std::string(),
            ladder[i]->viewpoint, nullptr};
    t += HOLD_S;
    if (i + 1 < ladder.size()) {
      leg.flight =
          std::make_shared<world::FlyTo>(ladder[i]->viewpoint, ladder[i + 1]->viewpoint, flight);
      t += leg.flight->duration_s();
    }
    legs->push_back(leg);
  }
  BenchPath path;
  path.name = "stations";
  path.description = "every station from the SM to the campus, flying between them";
  path.duration_s = t;
  auto legAt = [legs](double time_s) {
    const Leg* leg = &legs->front();
    for (const Leg& l : *legs) {
      if (l.start_s <= time_s) leg = &l;
    }
    return leg;
  };
  path.poseAt = [legAt](double time_s) {
    const Leg* leg = legAt(time_s);
    const double local = time_s - leg->start_s;
    if (local <= HOLD_S || !leg->flight) return world::toPose(leg->at);
    return leg->flight->sample(local - HOLD_S);
  };
  path.stationAt = [legAt](double time_s) {
    const Leg* leg = legAt(time_s);
    return time_s - leg->start_s <= HOLD_S || leg->next.empty() ? leg->station : leg->next;
  };
  path.heldAt = [legAt](double time_s) {
    const Leg* leg = legAt(time_s);
    return time_s - leg->start_s <= HOLD_S || leg->next.empty();
  };
  return path;
}

// One slow circle around the whole campus, the largest view the world has.
BenchPath campusPath(const world::World& world) {
  const world::Station* campus = world.station("campus");
  world::OrbitPose start = campus ? campus->viewpoint : world::OrbitPose{};
  BenchPath path;
  path.name = "campus";
  path.description = "a full circle around the campus with everything in view";
  path.duration_s = 20.0;
  path.poseAt = [start, duration = path.duration_s](double time_s) {
    world::OrbitPose orbit = start;
    orbit.yaw_rad += 2.0 * M_PI * time_s / duration;
    return world::toPose(orbit);
  };
  path.stationAt = [](double) { return std::string("campus"); };
  path.heldAt = [](double) { return false; };  // circling: the world finds the studio
  return path;
}

// The rack station while a fault is asked for 12 simulated seconds in the past (a pump trip at
// t = 600 s when the simulation is at 612 s): the sim host restores its checkpoint from before
// 600 s and catches up in slices while the frames go on; the path's longest frame is the figure.
BenchPath catchUpPath(const world::World& world) {
  const world::Station* rack = world.station("rack");
  const world::OrbitPose at = rack ? rack->viewpoint : world::OrbitPose{};
  BenchPath path;
  path.name = "catch_up";
  path.description = "the rack while a pump trip at t = 600 s is caught up from t = 612 s";
  path.duration_s = 10.0;
  path.poseAt = [at](double) { return world::toPose(at); };
  path.stationAt = [](double) { return std::string("rack"); };
  path.heldAt = [](double) { return true; };
  path.prepare = [](SimHost& sim) {
    sim.keepCheckpoints(true);  // as the window does
    sim.runTo(612.0);
  };
  path.atFrame = [](uint32_t k, SimHost& sim) {
    if (k != 10) return;
    sim::engine::EngineRequest request = sim.request();
    sim::engine::FaultDesc trip;
    trip.kind = sim::engine::FaultKind::PumpTrip;
    trip.start_s = 600.0;
    request.faults.push_back(trip);
    sim.queue(SimCommand::restart(request, /*resumeNow=*/true));
  };
  return path;
}

// The rack station while the visitor switches the system to DGX H100 and, later, back to
// GB200 NVL72: each world is built on a worker while the frames go on and swapped in at a frame
// boundary (app/session/world_rebuild.h); the longest frame of the swaps is the figure.
BenchPath swapPath(const world::World& world) {
  BenchPath path;
  path.name = "swap";
  path.description = "the rack while the system switches GB200 NVL72 -> DGX H100 -> GB200 NVL72";
  path.duration_s = 10.0;
  // The world object stays while its contents are swapped: the rack of the world on screen.
  path.poseAt = [&world](double) {
    const world::Station* rack = world.station("rack");
    return world::toPose(rack ? rack->viewpoint : world::OrbitPose{});
  };
  path.stationAt = [](double) { return std::string("rack"); };
  path.heldAt = [](double) { return true; };
  path.bySystem = true;
  path.atFrame = [](uint32_t k, SimHost& sim) {
    const char* system = k == 10 ? "dgx_h100" : k == 60 ? "gb200_nvl72" : nullptr;
    if (!system) return;
    sim::engine::EngineRequest request{sim.request().scenario, {}, {}};
    request.overrides.push_back(std::string("cluster.system=") + system);
    sim.queue(SimCommand::restart(request, /*resumeNow=*/false));
  };
  return path;
}

}  // namespace

std::vector<std::string> benchPathNames() {
  return {"stations", "campus", "overlays", "catch_up", "swap"};
}

bool makeBenchPath(const world::World& world, const std::string& name, BenchPath& out) {
  if (world.stations().empty()) return false;
  if (name == "stations") {
    out = stationsPath(world);
  } else if (name == "campus") {
    out = campusPath(world);
  } else if (name == "overlays") {
    // The station path with the power heat map and its live labels on at every scale.
    out = stationsPath(world);
    out.name = "overlays";
    out.description = "the station path with the power overlay, live labels and traffic on";
    out.overlay = world::OverlayMetric::Power;
    out.traffic = true;
  } else if (name == "catch_up") {
    out = catchUpPath(world);
  } else if (name == "swap") {
    out = swapPath(world);
  } else {
    return false;
  }
  return true;
}

}  // namespace app
