#include "app/modes/bench_paths.h"

#include <algorithm>
#include <cmath>
#include <memory>

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
  double t = 0;
  for (size_t i = 0; i < ladder.size(); ++i) {
    Leg leg{t, ladder[i]->name, i + 1 < ladder.size() ? ladder[i + 1]->name : std::string(),
            ladder[i]->viewpoint, nullptr};
    t += HOLD_S;
    if (i + 1 < ladder.size()) {
      leg.flight = std::make_shared<world::FlyTo>(ladder[i]->viewpoint, ladder[i + 1]->viewpoint);
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
  return path;
}

}  // namespace

std::vector<std::string> benchPathNames() {
  return {"stations", "campus", "overlays"};
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
  } else {
    return false;
  }
  return true;
}

}  // namespace app
