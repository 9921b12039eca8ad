// The one frame (app/session/frame.h) and the one owner of the simulation (sim_host.h): a
// command issued in frame N shows in every part of frame N+1; a rerun is caught up in slices
// with a deterministic bound on the work per frame; checkpoints stay bounded; a bench frame and
// a shot of the same view are the same pixels.
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/session/frame.h"
#include "app/session/session.h"
#include "app/session/sim_host.h"
#include "app/session/tour_driver.h"
#include "app/session/tour_session.h"
#include "app/session/tour_view.h"
#include "app/ui/tour_panel.h"
#include "sim/catalog.h"
#include "sim/engine/engine.h"
#include "sim/engine/fault_spec.h"
#include "sim/engine/scenarios.h"
#include "tests/common/shipped_catalog.h"

namespace {

using sim::engine::FaultDesc;
using sim::engine::FaultKind;

const sim::Catalog& catalog() {
  return testcatalog::shipped();
}

FaultDesc pumpTripAt(double start_s) {
  FaultDesc f;
  f.kind = FaultKind::PumpTrip;
  f.target = 0;
  f.start_s = start_s;
  return f;
}

// A fault that should have started at t = 600 s, asked for when the simulation is at 612 s: the
// host restores its checkpoint from 600 s and catches up over several frames, none of which runs
// more than CATCH_UP_STEPS engine steps, while the engine on screen holds still. The result is
// the state a fresh run with the fault from the start reaches.
TEST(SimHost, AFaultAt600SecondsIsCaughtUpInSlices) {
  auto created = app::SimHost::create(catalog(), {"training_405b", {}, {}});
  ASSERT_TRUE(created) << created.error();
  app::SimHost& host = **created;
  host.keepCheckpoints(true);  // as the window does
  host.runTo(612.0);
  const double now_s = host.time_s();
  const uint64_t generation = host.generation();
  EXPECT_LE(host.checkpointCount(), app::SimHost::MAX_CHECKPOINTS);

  host.queue(app::SimCommand::restart({"training_405b", {}, {pumpTripAt(600.0)}}, true));
  int frames = 0;
  uint64_t steps = 0;
  for (; frames < 1000; ++frames) {
    host.applyCommands();  // stage 1 of a frame
    EXPECT_LE(host.stepsLastApply(), app::SimHost::CATCH_UP_STEPS);
    steps += host.stepsLastApply();
    if (!host.catchingUp()) break;
    EXPECT_EQ(host.time_s(), now_s);  // the old engine waits, paused, on screen
    EXPECT_EQ(host.generation(), generation);
    EXPECT_EQ(host.catchUpTarget_s(), now_s);
    host.advance(1.0 / 30.0);  // stage 2: nothing moves while catching up
  }
  EXPECT_GT(frames, 1);  // several frames, not one long one
  EXPECT_GT(host.generation(), generation);
  // From a checkpoint shortly before 600 s (the newest ones are kept 10 s apart), not from 0.
  const double dt_s = host.snapshot().desc->dt_s;
  EXPECT_GE(double(steps), 12.0 / dt_s - 1);
  EXPECT_LE(double(steps), (12.0 + app::SimHost::CHECKPOINT_EVERY_S) / dt_s + 1);
  EXPECT_NEAR(host.time_s(), now_s, dt_s);

  auto desc = sim::engine::builtinScenario("training_405b");
  ASSERT_TRUE(desc);
  desc->faults.push_back(pumpTripAt(600.0));
  auto fresh = sim::engine::Engine::create(catalog(), *desc);
  ASSERT_TRUE(fresh);
  (*fresh)->advanceTo(now_s);
  EXPECT_EQ(host.engine().stateHash(), (*fresh)->stateHash());
}

TEST(SimHost, ScrubBackRerunsFromACheckpointAndHoldsThere) {
  auto created = app::SimHost::create(catalog(), {"training_405b", {}, {}});
  ASSERT_TRUE(created);
  app::SimHost& host = **created;
  host.keepCheckpoints(true);
  host.runTo(95.0);
  host.queue(app::SimCommand::scrub(42.0));
  host.applyCommands();
  EXPECT_LE(host.stepsLastApply(), app::SimHost::CATCH_UP_STEPS);
  host.finishCatchUp();
  EXPECT_NEAR(host.time_s(), 42.0, host.snapshot().desc->dt_s);
  auto fresh =
      sim::engine::Engine::create(catalog(), *sim::engine::builtinScenario("training_405b"));
  (*fresh)->advanceTo(host.time_s());
  EXPECT_EQ(host.engine().stateHash(), (*fresh)->stateHash());
}

TEST(SimHost, CheckpointsStayBoundedOverALongRun) {
  auto created = app::SimHost::create(catalog(), {"inference_70b", {}, {}});
  ASSERT_TRUE(created);
  (*created)->keepCheckpoints(true);
  (*created)->runTo(300.0);  // 30 checkpoint marks
  EXPECT_GT((*created)->checkpointCount(), 1u);
  EXPECT_LE((*created)->checkpointCount(), app::SimHost::MAX_CHECKPOINTS);
}

TEST(SimHost, TimeControlsAreCommandsToo) {
  auto created = app::SimHost::create(catalog(), {"training_405b", {}, {}});
  ASSERT_TRUE(created);
  app::SimHost& host = **created;
  host.queue(app::SimCommand::setPaused(true));
  host.applyCommands();
  host.advance(1.0);
  EXPECT_EQ(host.time_s(), 0.0);
  // Step (N) goes as far as one can see (issue 38, item 10: one 10 ms engine step was invisible):
  // to the next phase of the training step, or half a second of simulated time.
  const double phase = host.snapshot().aggregates.phase;
  host.queue(app::SimCommand::step());
  host.applyCommands();
  const bool nextPhase = host.snapshot().aggregates.phase != phase;
  EXPECT_TRUE(nextPhase || host.time_s() >= app::SimHost::STEP_NUDGE_S - 1e-9) << host.time_s();
  EXPECT_LE(host.time_s(), app::SimHost::STEP_NUDGE_S + 1e-9);
  EXPECT_GT(host.stepsLastApply(), 1u);
  host.queue(app::SimCommand::togglePause());
  host.queue(app::SimCommand::scaleSpeed(1e9));  // clamped
  host.applyCommands();
  EXPECT_FALSE(host.paused());
  EXPECT_EQ(host.speed(), app::SimHost::MAX_SPEED);
}

// The tour view of chapter 3 (its panel fills the HBM stack), asking in frame N for another
// simulation, as a panel or key would.
class AskingView : public app::TourView {
 public:
  using app::TourView::TourView;
  bool askNow = false;
  void drawWindows(app::FrameContext& context) override {
    app::TourView::drawWindows(context);
    if (askNow)
      context.commands.push_back(app::SimCommand::restart({"training_405b", {}, {}}, false));
    askNow = false;
  }
};

TEST(Frame, ACommandInFrameNShowsInEveryPartOfFrameNPlusOne) {
  app::RenderOptions options;
  options.width = 640;
  options.height = 360;
  app::Session session;
  ASSERT_EQ(app::openSession(options, nullptr, app::fontPixelsFor(options.height), session), 0);
  auto player = app::makeTourPlayer(*session.world, "default", {});
  ASSERT_TRUE(player) << player.error();
  auto panel = app::TourPanel::load(*session.catalog);
  ASSERT_TRUE(panel) << panel.error();
  app::TourDriver driver(std::move(*player));
  std::vector<app::SimCommand> commands;
  driver.start(commands, true);
  ASSERT_TRUE(driver.player().jumpToChapterKey(3));
  for (auto& c : commands) session.sim->queue(std::move(c));
  AskingView view(driver, *panel, "en");
  app::FrameSpec spec;
  spec.dt_s = 1.0 / 30.0;
  spec.extent = {options.width, options.height};
  app::runFrame(session, view, spec);  // settle on the chapter's own simulation

  view.askNow = true;
  const app::FrameResult n = app::runFrame(session, view, spec);
  // Chapter 3 runs its own inference service (the step before a training one asked in frame N).
  EXPECT_EQ(n.hud.status.find("step"), std::string::npos) << n.hud.status;
  const app::FrameResult next = app::runFrame(session, view, spec);
  EXPECT_GT(next.generation, n.generation);
  EXPECT_EQ(next.generation, session.sim->generation());
  EXPECT_EQ(session.list.generation, next.generation);  // the render list and its live labels
  EXPECT_EQ(next.hud.generation, next.generation);
  EXPECT_NE(next.hud.status.find("step"), std::string::npos) << next.hud.status;  // training
  EXPECT_EQ(panel->generation(), next.generation);
  ASSERT_NE(panel->hbmFill(), nullptr);
  EXPECT_EQ(panel->hbmFill()->generation, next.generation);
  EXPECT_EQ(session.sim->request().scenario, "training_405b");
}

// The benchmark's frames and a shot are the same recipe: after frames flown the bench's way, the
// next one read back equals a still of the same view at the same simulated moment.
TEST(Frame, ABenchFrameAndAShotOfTheSameViewAreTheSamePixels) {
  app::RenderOptions options;
  options.width = 480;
  options.height = 270;
  const VkExtent2D extent{options.width, options.height};
  app::FrameResult flown;
  double flown_s = 0;
  {
    app::Session bench;  // one session at a time: ImGui's context is global
    ASSERT_EQ(app::openSession(options, nullptr, app::fontPixelsFor(options.height), bench), 0);
    const world::Station* station = bench.world->station("tray");
    ASSERT_NE(station, nullptr);
    app::StationView benchView;
    benchView.camera().setPose(world::toPose(station->viewpoint));
    benchView.setStation(station);
    benchView.setOverlay(world::OverlayMetric::Power);
    app::FrameSpec spec;
    spec.dt_s = 1.0 / 30.0;
    spec.extent = extent;
    for (int i = 0; i < 5; ++i) app::runFrame(bench, benchView, spec);
    spec.dt_s = 0;
    spec.output = app::FrameOutput::Pixels;
    flown = app::runFrame(bench, benchView, spec);
    flown_s = bench.sim->time_s();
  }
  app::Session shot;
  ASSERT_EQ(app::openSession(options, nullptr, app::fontPixelsFor(options.height), shot), 0);
  shot.sim->runTo(flown_s);
  ASSERT_EQ(shot.sim->time_s(), flown_s);
  app::StationView shotView;
  shotView.camera().setPose(world::toPose(shot.world->station("tray")->viewpoint));
  shotView.setStation(shot.world->station("tray"));
  shotView.setOverlay(world::OverlayMetric::Power);
  const app::FrameResult still = app::renderStill(shot, shotView, extent);
  ASSERT_EQ(still.pixels.rgba.size(), flown.pixels.rgba.size());
  EXPECT_TRUE(still.pixels.rgba == flown.pixels.rgba);
  EXPECT_EQ(still.hud.status, flown.hud.status);
}

}  // namespace
