// The world rebuilt when the running scenario changes its system (issue 20): GB200 NVL72 ->
// DGX H100 -> DGX B200 -> back, each swap drawing exactly the new engine's counts; the old
// world and engine stay on screen together until the new pair is swapped in at one frame
// boundary; no frame builds a world or uploads more than one mesh library; 50 swaps leave the
// resident memory flat; the camera stays in its rack; no validation error throughout.
#include <malloc.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "app/platform/process_stats.h"
#include "app/session/frame.h"
#include "app/session/session.h"
#include "app/session/tour_driver.h"
#include "app/session/tour_session.h"
#include "app/session/tour_view.h"
#include "app/session/world_rebuild.h"
#include "app/ui/tour_panel.h"
#include "app/ui/whatif_panel.h"
#include "renderer/vk/validation.h"
#include "sim/engine/engine.h"
#include "world/live/selection.h"

namespace {

using Mode = app::WorldRebuild::Mode;

constexpr uint32_t W = 320, H = 180;
// A background build that has not finished after this many frames (10 ms apart) is a hang.
constexpr int MAX_FRAMES_PER_SWAP = 3000;

struct Fixture {
  app::Session session;
  app::StationView view;
  uint32_t errorsBefore = 0;

  explicit Fixture(Mode mode) {
    app::RenderOptions options;
    options.width = W;
    options.height = H;
    options.validation = true;
    EXPECT_EQ(app::openSession(options, nullptr, app::fontPixelsFor(H), session), 0);
    errorsBefore = vkutil::validationErrorCount();
    if (session.rebuild) session.rebuild->setMode(mode);
    if (const world::Station* rack = session.world->station("rack")) {
      view.setStation(rack);
      view.camera().setPose(world::toPose(rack->viewpoint));
    }
  }

  app::FrameResult frame() {
    app::FrameSpec spec;
    spec.dt_s = 1.0 / 30.0;
    spec.extent = {W, H};
    spec.output = app::FrameOutput::Offscreen;
    return app::runFrame(session, view, spec);
  }

  const sim::engine::Cluster& cluster() const { return session.sim->engine().cluster(); }

  // The world on screen was built for the engine on screen: same system, same campus.
  void expectWorldOfEngine() const {
    const app::WorldPlan& drawn = session.rebuild->current();
    EXPECT_EQ(drawn.layout.systemId, cluster().specs.system.id);
    EXPECT_EQ(session.world->racks().rackCount(), cluster().campusRacks);
  }
};

// training_405b on `system`, as the what-if panel's system combo asks for it.
sim::engine::EngineRequest onSystem(const std::string& system) {
  return app::withSystem({"training_405b", {}, {}}, system);
}

// Asks for `system` and makes frames until the world is swapped; returns the frames' shares.
std::vector<app::RebuildFrame> switchTo(Fixture& f, const std::string& system) {
  std::vector<app::RebuildFrame> frames;
  const uint64_t generation = f.session.sim->generation();
  f.session.sim->queue(app::SimCommand::restart(onSystem(system), false));
  for (int i = 0; i < MAX_FRAMES_PER_SWAP; ++i) {
    f.expectWorldOfEngine();  // before every frame: never the new engine on the old world
    const app::FrameResult result = f.frame();
    frames.push_back(result.rebuild);
    if (result.rebuild.swapped) break;
    EXPECT_EQ(f.session.sim->generation(), generation);  // the old engine runs on meanwhile
    EXPECT_FALSE(f.session.sim->notice().error) << f.session.sim->notice().text;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(!frames.empty() && frames.back().swapped) << "no swap to " << system;
  EXPECT_GT(f.session.sim->generation(), generation);
  EXPECT_EQ(f.cluster().specs.system.id, system);
  EXPECT_EQ(f.session.sim->time_s(), 0.0);  // the new system runs from t = 0
  f.expectWorldOfEngine();
  return frames;
}

// The drawn counts of the world are the engine's: every campus rack, the open hero tray's GPUs,
// the stations of every world.
void expectEngineCounts(const Fixture& f) {
  const world::World& w = *f.session.world;
  const sim::engine::Cluster& c = f.cluster();
  EXPECT_EQ(w.racks().rackCount(), c.campusRacks);
  EXPECT_EQ(w.heroGpus().size(), size_t(c.gpusPerTray));
  for (const char* station : {"rack", "tray", "package", "hall", "campus"})
    EXPECT_NE(w.station(station), nullptr) << station;
  // What the frames draw is a world of the right kind: an NVL72 rack is 72 GPUs in one domain,
  // an HGX chassis 8 (NVIDIA's datasheets).
  EXPECT_EQ(c.gpusPerRack, c.specs.system.id == "gb200_nvl72" ? 72u : 8u);
}

TEST(WorldSwap, SwitchingSystemsRebuildsTheWorldWithTheEnginesCounts) {
  Fixture f(Mode::Background);
  ASSERT_TRUE(f.session.rebuild);
  EXPECT_EQ(f.cluster().specs.system.id, "gb200_nvl72");
  f.frame();
  for (const char* system : {"dgx_h100", "dgx_b200", "gb200_nvl72"}) {
    SCOPED_TRACE(system);
    switchTo(f, system);
    expectEngineCounts(f);
    for (int i = 0; i < 3; ++i) {
      const app::FrameResult after = f.frame();
      EXPECT_EQ(after.generation, f.session.sim->generation());
      EXPECT_GT(after.stats.instances, 0u);
    }
  }
  EXPECT_EQ(vkutil::validationErrorCount(), f.errorsBefore);
}

// Every frame's share of a background swap is fixed: no frame builds a world (the worker does),
// none uploads more than one mesh library of at most MAX_SWAP_UPLOAD_BYTES, one swap per switch.
TEST(WorldSwap, NoFrameDoesMoreThanItsShareOfTheSwap) {
  Fixture f(Mode::Background);
  f.frame();
  for (const char* system : {"dgx_h100", "gb200_nvl72"}) {
    SCOPED_TRACE(system);
    uint32_t started = 0, swaps = 0;
    const std::vector<app::RebuildFrame> frames = switchTo(f, system);
    for (const app::RebuildFrame& r : frames) {
      EXPECT_EQ(r.worldsBuiltOnFrameThread, 0u);
      EXPECT_LE(r.meshUploads, 1u);
      EXPECT_LE(r.meshBytes, app::WorldRebuild::MAX_SWAP_UPLOAD_BYTES);
      started += r.buildsStarted;
      swaps += r.swapped;
    }
    EXPECT_EQ(started, 1u);
    EXPECT_EQ(swaps, 1u);
    // The build ran while frames went on: it started before the frame that swapped.
    EXPECT_GE(frames.size(), 2u);
    EXPECT_EQ(frames.front().buildsStarted, 1u);
    EXPECT_GT(frames.back().meshBytes, 0u);
  }
  // In frame (stills, clips): the frame after the command swaps, deterministically.
  f.session.rebuild->setMode(Mode::InFrame);
  f.session.sim->queue(app::SimCommand::restart(onSystem("dgx_b200"), false));
  const app::RebuildFrame r = f.frame().rebuild;
  EXPECT_TRUE(r.swapped);
  EXPECT_EQ(r.worldsBuiltOnFrameThread, 1u);
  EXPECT_EQ(r.meshUploads, 1u);
  expectEngineCounts(f);
  EXPECT_EQ(vkutil::validationErrorCount(), f.errorsBefore);
}

// A request made while a world is being built replaces it: only the newest is swapped in; one
// that asks for what is on screen withdraws the wait.
TEST(WorldSwap, ANewerRequestReplacesTheOneWaitingForItsWorld) {
  Fixture f(Mode::Background);
  f.frame();
  f.session.sim->queue(app::SimCommand::restart(onSystem("dgx_h100"), false));
  f.frame();  // the H100 world is being built
  EXPECT_TRUE(f.session.rebuild->pending());
  switchTo(f, "dgx_b200");
  f.session.sim->queue(app::SimCommand::restart(onSystem("dgx_h100"), false));
  f.frame();
  f.session.sim->queue(app::SimCommand::restart(onSystem("dgx_b200"), false));  // on screen
  for (int i = 0; i < MAX_FRAMES_PER_SWAP && f.session.rebuild->pending(); ++i) {
    EXPECT_FALSE(f.frame().rebuild.swapped);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(f.cluster().specs.system.id, "dgx_b200");
  EXPECT_EQ(f.session.sim->awaitingWorld(), nullptr);
  f.expectWorldOfEngine();
}

// The combo's request: the running scenario, its faults and other fields, the system replaced.
TEST(WorldSwap, ThePanelsSystemChoiceKeepsTheRestOfTheRequest) {
  sim::engine::FaultDesc trip;
  trip.kind = sim::engine::FaultKind::PumpTrip;
  const sim::engine::EngineRequest running{
      "pump_trip", {"workload.training.micro_batches=32", "cluster.system=dgx_h100"}, {trip}};
  const sim::engine::EngineRequest asked = app::withSystem(running, "dgx_b200");
  EXPECT_EQ(asked.scenario, "pump_trip");
  EXPECT_EQ(asked.faults, running.faults);
  EXPECT_EQ(asked.overrides, (std::vector<std::string>{"workload.training.micro_batches=32",
                                                       "cluster.system=dgx_b200"}));
}

// Every system the panel offers is built, drawing its engine's counts (none is refused).
TEST(WorldSwap, EverySystemThePanelOffersIsBuilt) {
  Fixture f(Mode::InFrame);
  f.frame();
  std::vector<app::SystemName> systems = app::whatIfSystems();
  systems.push_back(systems.front());  // and back to the first
  for (const app::SystemName& system : systems) {
    SCOPED_TRACE(system.id);
    const bool onScreen = f.cluster().specs.system.id == system.id;
    f.session.sim->queue(app::SimCommand::restart(onSystem(system.id), false));
    EXPECT_EQ(f.frame().rebuild.swapped, !onScreen);
    EXPECT_FALSE(f.session.sim->notice().error) << f.session.sim->notice().text;
    EXPECT_EQ(f.cluster().specs.system.id, system.id);
    expectEngineCounts(f);
  }
  EXPECT_EQ(vkutil::validationErrorCount(), f.errorsBefore);
}

// On the tour's path the camera is at the step's station in the new world, framed as the tour
// frames it there.
TEST(WorldSwap, TheTourCutsToItsStationInTheNewWorld) {
  Fixture f(Mode::InFrame);
  auto player = app::makeTourPlayer(*f.session.world, "default", {});
  ASSERT_TRUE(player) << player.error();
  auto panel = app::TourPanel::load(*f.session.catalog);
  ASSERT_TRUE(panel) << panel.error();
  app::TourDriver driver(std::move(*player));
  std::vector<app::SimCommand> commands;
  driver.start(commands, /*cut=*/true);
  const std::string station = driver.player().frame().station;
  ASSERT_FALSE(station.empty());
  app::TourView tour(driver, *panel, "en");
  app::FrameSpec spec;
  spec.extent = {W, H};
  spec.output = app::FrameOutput::Offscreen;
  app::runFrame(f.session, tour, spec);
  const glm::dvec3 before = driver.camera().position();
  f.session.sim->queue(app::SimCommand::restart(onSystem("dgx_h100"), false));
  ASSERT_TRUE(app::runFrame(f.session, tour, spec).rebuild.swapped);
  EXPECT_TRUE(driver.player().onPath());
  const world::Pose expected = world::toPose(app::tourViews(*f.session.world).at(station));
  EXPECT_GT(glm::length(expected.position - before), 1e-3);  // the station moved with the world
  EXPECT_NEAR(glm::length(driver.camera().position() - expected.position), 0.0, 1e-9);
  EXPECT_EQ(driver.player().frame().station, station);
  EXPECT_EQ(vkutil::validationErrorCount(), f.errorsBefore);
}

// What truly cannot be drawn is refused, saying why, and the running pair stays.
TEST(WorldSwap, ASystemTheWorldCannotDrawIsRefusedWithAReason) {
  Fixture f(Mode::InFrame);
  f.frame();
  const uint64_t generation = f.session.sim->generation();
  f.session.sim->queue(app::SimCommand::restart(onSystem("dgx_a100"), false));
  f.frame();
  EXPECT_TRUE(f.session.sim->notice().error);
  EXPECT_NE(f.session.sim->notice().text.find("a100"), std::string::npos)
      << f.session.sim->notice().text;
  EXPECT_EQ(f.session.sim->generation(), generation);
  EXPECT_EQ(f.cluster().specs.system.id, "gb200_nvl72");
  f.expectWorldOfEngine();
}

// The camera inside rack 12 is inside rack 12 of the new world, at the same place in it; at a
// station's viewpoint it goes to the same station's viewpoint in the new world.
TEST(WorldSwap, TheCameraKeepsItsPlaceInTheNesting) {
  Fixture f(Mode::InFrame);
  constexpr uint32_t RACK = 12;
  ASSERT_GT(f.session.world->racks().rackCount(), RACK);
  const world::Aabb before = f.session.world->racks().rackBounds(RACK);
  const glm::dvec3 inside = before.min + glm::dvec3(0.5, 0.7, 0.25) * before.size();
  f.view.setStation(nullptr);
  f.view.camera().setPose({inside, 0.3, -0.1});
  f.frame();
  f.session.sim->queue(app::SimCommand::restart(onSystem("dgx_h100"), false));
  ASSERT_TRUE(f.frame().rebuild.swapped);
  const world::Pose pose = f.view.camera().pose();
  const world::Whereabouts here = world::locate(*f.session.world, pose.position);
  EXPECT_EQ(here.kind, world::Whereabouts::Kind::Rack);
  EXPECT_EQ(here.index, RACK);
  const world::Aabb after = f.session.world->racks().rackBounds(RACK);
  EXPECT_GT(glm::length(after.size() - before.size()), 0.01);  // an HGX cabinet, not an NVL72
  const glm::dvec3 expected = after.min + glm::dvec3(0.5, 0.7, 0.25) * after.size();
  EXPECT_NEAR(glm::length(pose.position - expected), 0.0, 1e-6);
  EXPECT_EQ(pose.yaw_rad, 0.3);

  // At the tray station: the new world's tray station, and the view names it.
  const world::Station* tray = f.session.world->station("tray");
  ASSERT_NE(tray, nullptr);
  f.view.setStation(tray);
  f.view.camera().setPose(world::toPose(tray->viewpoint));
  f.session.sim->queue(app::SimCommand::restart(onSystem("gb200_nvl72"), false));
  ASSERT_TRUE(f.frame().rebuild.swapped);
  const world::Station* fresh = f.session.world->station("tray");
  ASSERT_NE(fresh, nullptr);
  const world::Pose at = world::toPose(fresh->viewpoint);
  EXPECT_NEAR(glm::length(f.view.camera().pose().position - at.position), 0.0, 1e-9);
  EXPECT_EQ(f.view.frameDesc({W, H}, *f.session.sim).studio, "tray");
  EXPECT_EQ(vkutil::validationErrorCount(), f.errorsBefore);
}

// 50 swaps: the resident memory after malloc_trim stays within 20 MB of what it was after the
// first (issue 20), so a booth switching systems all day does not grow.
TEST(WorldSwap, FiftySwapsLeaveResidentMemoryFlat) {
  Fixture f(Mode::InFrame);
  f.frame();
  constexpr int SWAPS = 50;
  constexpr double SLACK_BYTES = 20e6;
  const char* systems[2] = {"dgx_h100", "gb200_nvl72"};
  double first[2] = {0, 0};  // after the first swap to each (their worlds differ in size)
  for (int i = 0; i < SWAPS; ++i) {
    f.session.sim->queue(app::SimCommand::restart(onSystem(systems[i % 2]), false));
    ASSERT_TRUE(f.frame().rebuild.swapped) << "swap " << i;
    malloc_trim(0);
    const double rss = app::residentBytes();
    ASSERT_GT(rss, 0);
    if (i < 2) first[i] = rss;
    EXPECT_LE(rss, first[i % 2] + SLACK_BYTES) << "swap " << i + 1 << " to " << systems[i % 2];
    if (i < 2 || i >= SWAPS - 2)
      std::printf("after swap %d (%s): resident %.1f MB\n", i + 1, systems[i % 2], rss / 1e6);
  }
  EXPECT_EQ(vkutil::validationErrorCount(), f.errorsBefore);
}

}  // namespace
