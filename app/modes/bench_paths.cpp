#include "app/modes/bench_paths.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include "app/session/tour_driver.h"
#include "app/session/tour_session.h"
#include "app/session/tour_view.h"
#include "app/ui/tour_panel.h"

namespace app {
namespace {

constexpr double HOLD_S = 0.5;  // time spent looking at each station before flying on
// The simulation advances as a 30 fps window's would on the camera paths, whatever the frame
// really took, so every run sees the same simulated moments.
constexpr double CAMERA_PATH_FRAME_DT_S = 1.0 / 30.0;
// Each step of the tour path: the longest flight the tour flies, then a hold at the step.
constexpr double TOUR_STEP_S = world::FlyToDesc{}.maxDuration_s + HOLD_S;

// A camera path: a StationView placed at each frame's pose, in the studio of the station held
// at (flying, the world finds the studio as in free flight).
struct CameraPath {
  std::function<world::Pose(double time_s)> poseAt;
  std::function<std::string(double time_s)> stationAt;        // the station held, or flown to
  std::function<bool(double time_s)> heldAt;                  // holding at stationAt (not flying)
  world::OverlayMetric overlay = world::OverlayMetric::None;  // heat overlay shown along the way
  bool traffic = false;                                       // traffic particles too
};

class CameraPathView : public PathView {
 public:
  CameraPathView(const world::World& world, CameraPath path) : m_world(world), m_path(path) {
    m_view.setOverlay(path.overlay);
    m_view.setTraffic(path.traffic);
  }
  FrameSource& source() override { return m_view; }
  double moveTo(double time_s) override {
    m_view.camera().setPose(m_path.poseAt(time_s));
    m_station = m_path.stationAt(time_s);
    // The world object stays while its contents are swapped: its station of that name now.
    m_view.setStation(m_world.station(m_station), m_path.heldAt(time_s));
    return CAMERA_PATH_FRAME_DT_S;
  }
  std::string station() const override { return m_station; }
  void setBaseline(double lodScale, bool cull, uint64_t triangleBudget) override {
    m_view.setBaseline(lodScale, cull, triangleBudget);
  }

 private:
  const world::World& m_world;
  CameraPath m_path;
  StationView m_view;
  std::string m_station;
};

BenchPath cameraBenchPath(CameraPath camera) {
  BenchPath path;
  path.view = [camera](Session& session, std::string&) -> std::unique_ptr<PathView> {
    return std::make_unique<CameraPathView>(*session.world, camera);
  };
  return path;
}

// Every ladder station from the smallest (SM) to the largest (campus): hold, fly, hold ...
// With `overlay` and `traffic` shown all along.
BenchPath stationsPath(const world::World& world,
                       world::OverlayMetric overlay = world::OverlayMetric::None,
                       bool traffic = false) {
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
  auto legAt = [legs](double time_s) {
    const Leg* leg = &legs->front();
    for (const Leg& l : *legs) {
      if (l.start_s <= time_s) leg = &l;
    }
    return leg;
  };
  CameraPath camera;
  camera.overlay = overlay;
  camera.traffic = traffic;
  camera.poseAt = [legAt](double time_s) {
    const Leg* leg = legAt(time_s);
    const double local = time_s - leg->start_s;
    if (local <= HOLD_S || !leg->flight) return world::toPose(leg->at);
    return leg->flight->sample(local - HOLD_S);
  };
  camera.stationAt = [legAt](double time_s) {
    const Leg* leg = legAt(time_s);
    return time_s - leg->start_s <= HOLD_S || leg->next.empty() ? leg->station : leg->next;
  };
  camera.heldAt = [legAt](double time_s) {
    const Leg* leg = legAt(time_s);
    return time_s - leg->start_s <= HOLD_S || leg->next.empty();
  };
  BenchPath path = cameraBenchPath(camera);
  path.name = "stations";
  path.description = "every station from the SM to the campus, flying between them";
  path.duration_s = t;
  for (const Leg& leg : *legs) {
    path.keyTimes_s.push_back(leg.start_s + 0.5 * HOLD_S);
    if (leg.flight)
      path.keyTimes_s.push_back(leg.start_s + HOLD_S + 0.5 * leg.flight->duration_s());
  }
  return path;
}

// One slow circle around the whole campus, the largest view the world has.
BenchPath campusPath(const world::World& world) {
  const world::Station* campus = world.station("campus");
  world::OrbitPose start = campus ? campus->viewpoint : world::OrbitPose{};
  constexpr double DURATION_S = 20.0;
  CameraPath camera;
  camera.poseAt = [start](double time_s) {
    world::OrbitPose orbit = start;
    orbit.yaw_rad += 2.0 * M_PI * time_s / DURATION_S;
    return world::toPose(orbit);
  };
  camera.stationAt = [](double) { return std::string("campus"); };
  camera.heldAt = [](double) { return false; };  // circling: the world finds the studio
  BenchPath path = cameraBenchPath(camera);
  path.name = "campus";
  path.description = "a full circle around the campus with everything in view";
  path.duration_s = DURATION_S;
  for (int quarter = 0; quarter < 4; ++quarter) path.keyTimes_s.push_back(quarter * DURATION_S / 4);
  return path;
}

// The rack station while a fault is asked for 12 simulated seconds in the past (a pump trip at
// t = 600 s when the simulation is at 612 s): the sim host restores its checkpoint from before
// 600 s and catches up in slices while the frames go on; the path's longest frame is the figure.
BenchPath catchUpPath(const world::World& world) {
  const world::Station* rack = world.station("rack");
  const world::OrbitPose at = rack ? rack->viewpoint : world::OrbitPose{};
  CameraPath camera;
  camera.poseAt = [at](double) { return world::toPose(at); };
  camera.stationAt = [](double) { return std::string("rack"); };
  camera.heldAt = [](double) { return true; };
  BenchPath path = cameraBenchPath(camera);
  path.name = "catch_up";
  path.description = "the rack while a pump trip at t = 600 s is caught up from t = 612 s";
  path.duration_s = 10.0;
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
  CameraPath camera;
  // The world object stays while its contents are swapped: the rack of the world on screen.
  camera.poseAt = [&world](double) {
    const world::Station* rack = world.station("rack");
    return world::toPose(rack ? rack->viewpoint : world::OrbitPose{});
  };
  camera.stationAt = [](double) { return std::string("rack"); };
  camera.heldAt = [](double) { return true; };
  BenchPath path = cameraBenchPath(camera);
  path.name = "swap";
  path.description = "the rack while the system switches GB200 NVL72 -> DGX H100 -> GB200 NVL72";
  path.duration_s = 10.0;
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

// The tour's frames with the bench's naive baselines, as StationView::setBaseline gives them.
class BaselineTourView : public TourView {
 public:
  using TourView::TourView;
  void setBaseline(double lodScale, bool cull, uint64_t triangleBudget) {
    m_lodScale = lodScale;
    m_cull = cull;
    m_triangleBudget = triangleBudget;
  }
  world::FrameDesc frameDesc(VkExtent2D extent, const SimHost& sim) const override {
    world::FrameDesc frame = TourView::frameDesc(extent, sim);
    frame.lodScale = m_lodScale;
    frame.cull = m_cull;
    frame.triangleBudget = m_triangleBudget;
    return frame;
  }

 private:
  double m_lodScale = 1.0;
  bool m_cull = true;
  uint64_t m_triangleBudget = world::FrameDesc{}.triangleBudget;
};

// The default tour played as a visitor who moves on every TOUR_STEP_S: each step flown to as the
// tour flies and held, with its overlays, visual events, chapter panel (engineer text) and
// simulation. A frame's dt is the path's own time, so flights and events run at their speed.
class TourPathView : public PathView {
 public:
  TourPathView(world::TourPlayer player, TourPanel panel, Session& session)
      : m_panel(std::move(panel)), m_driver(std::move(player)), m_view(m_driver, m_panel, "en") {
    std::vector<SimCommand> commands;
    m_driver.start(commands, /*cut=*/true);
    for (SimCommand& c : commands) session.sim->queue(std::move(c));
  }
  FrameSource& source() override { return m_view; }
  double moveTo(double time_s) override {
    const size_t step = size_t(std::max(0.0, time_s) / TOUR_STEP_S);
    double dt_s = std::max(0.0, time_s - m_time_s);
    if (step > m_step) {
      // On to the step (past any skipped): its flight starts at the step's slot.
      while (m_step < step && m_driver.player().nextStep()) ++m_step;
      m_step = step;
      dt_s = std::max(0.0, time_s - double(step) * TOUR_STEP_S);
    }
    m_time_s = time_s;
    return dt_s;
  }
  std::string station() const override {
    const std::string station = m_driver.player().frame().station;
    return station.empty() ? std::string("(tour view)") : station;
  }
  void setBaseline(double lodScale, bool cull, uint64_t triangleBudget) override {
    m_view.setBaseline(lodScale, cull, triangleBudget);
  }

 private:
  TourPanel m_panel;
  TourDriver m_driver;
  BaselineTourView m_view;
  size_t m_step = 0;
  double m_time_s = 0;
};

// The default tour, every step of it (TourPathView); false with `error` when it does not load.
bool tourPath(const world::World& world, BenchPath& out, std::string& error) {
  auto player = makeTourPlayer(world, "default", world::TourPlayerDesc{});
  if (!player) {
    error = player.error();
    return false;
  }
  const size_t steps = player->order().size();
  auto shared = std::make_shared<const world::TourPlayer>(std::move(*player));
  out = BenchPath{};
  out.name = "tour";
  out.description = "the default tour, each step flown to and held with its live visuals";
  out.duration_s = double(steps) * TOUR_STEP_S;
  for (size_t k = 0; k < steps; ++k) {
    // The flight into the step (the first step is cut to), then the step held.
    if (k > 0) out.keyTimes_s.push_back(double(k) * TOUR_STEP_S + 0.5 * HOLD_S);
    out.keyTimes_s.push_back(double(k + 1) * TOUR_STEP_S - 0.5 * HOLD_S);
  }
  out.view = [shared](Session& session, std::string& error) -> std::unique_ptr<PathView> {
    auto panel = TourPanel::load(*session.catalog);
    if (!panel) {
      error = panel.error();
      return nullptr;
    }
    return std::make_unique<TourPathView>(*shared, std::move(*panel), session);
  };
  return true;
}

}  // namespace

std::vector<std::string> benchPathNames() {
  return {"stations", "campus", "overlays", "catch_up", "swap", "tour"};
}

bool makeBenchPath(const world::World& world, const std::string& name, BenchPath& out,
                   std::string& error) {
  if (world.stations().empty()) {
    error = "bench: the world has no stations";
    return false;
  }
  if (name == "tour") return tourPath(world, out, error);
  if (name == "stations") {
    out = stationsPath(world);
  } else if (name == "campus") {
    out = campusPath(world);
  } else if (name == "overlays") {
    // The station path with the power heat map and its live labels on at every scale.
    out = stationsPath(world, world::OverlayMetric::Power, /*traffic=*/true);
    out.name = "overlays";
    out.description = "the station path with the power overlay, live labels and traffic on";
  } else if (name == "catch_up") {
    out = catchUpPath(world);
  } else if (name == "swap") {
    out = swapPath(world);
  } else {
    error = "bench: unknown path '" + name + "'";
    return false;
  }
  return true;
}

}  // namespace app
