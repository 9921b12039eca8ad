// The training-step timeline (app/ui/timeline.h) against the engine it reads: phase durations,
// the pipeline's make-up, the cursor moving through the phases, and a link-down fault making the
// step longer; the scrub slider's range over the window's runs.
#include <cmath>
#include <memory>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "app/session/sim_host.h"
#include "app/ui/timeline.h"
#include "app/ui/timeline_panel.h"
#include "sim/catalog.h"
#include "sim/engine/engine.h"
#include "sim/engine/scenarios.h"
#include "tests/common/shipped_catalog.h"
#include "tests/world/world_test_fixture.h"

namespace {

using worldtest::engineFor;

double sum(const std::vector<app::TimelineSegment>& segments) {
  double total = 0;
  for (const auto& s : segments) total += s.duration_s;
  return total;
}

TEST(Timeline, PhasesAreTheEnginesRoutedDurations) {
  auto engine = engineFor("training_405b");
  engine->advanceTo(1.0);
  const app::Timeline t = app::timelineOf(engine->snapshot());
  ASSERT_TRUE(t.training);
  ASSERT_EQ(t.phases.size(), 3u);
  EXPECT_DOUBLE_EQ(t.phases[0].duration_s, engine->pipelineTime_s());
  EXPECT_DOUBLE_EQ(t.phases[1].duration_s, engine->dataParallelExposedTime_s());
  EXPECT_DOUBLE_EQ(t.phases[2].duration_s, engine->training()->optimizer_s);
  EXPECT_NEAR(t.step_s, sum(t.phases), 1e-12);
  // Without faults the step as routed is the engine's fault-free step.
  EXPECT_NEAR(t.step_s, engine->faultFreeStepTime_s(), 1e-6 * t.step_s);
  // The pipeline's make-up: m slots of compute + TP + PP, and the bubble, fill the phase.
  EXPECT_NEAR(sum(t.pipeline), t.phases[0].duration_s, 1e-9 * t.phases[0].duration_s);
  const auto* plan = engine->training();
  const double m = plan->desc.microBatches;
  EXPECT_NEAR(t.pipeline[0].duration_s, m * (plan->forward_s + plan->backward_s), 1e-12);
  // 1F1B bubble: (p - 1) / m of the m slots (reference: Narayanan et al. 2021, eq. 1).
  const double p = plan->desc.pp;
  EXPECT_NEAR(t.pipeline[3].duration_s / (m * plan->microBatchSlot_s),
              (p - 1) / (m * double(plan->desc.virtualStages)), 1e-9);
  for (const auto& s : t.pipeline) EXPECT_GT(s.duration_s, 0) << s.label;
}

TEST(Timeline, CursorWalksThroughEveryPhaseOfAStep) {
  auto engine = engineFor("training_405b");
  const double step_s = app::timelineOf(engine->snapshot()).step_s;
  std::set<size_t> phasesSeen;
  double lastCursor = -1;
  bool wrapped = false;
  for (double time_s = 0.01; time_s < 1.5 * step_s; time_s += 0.01) {
    engine->advanceTo(time_s);
    const app::Timeline t = app::timelineOf(engine->snapshot());
    phasesSeen.insert(t.currentPhase);
    EXPECT_GE(t.cursor_s, 0);
    EXPECT_LE(t.cursor_s, t.step_s + 1e-9);
    if (t.cursor_s < lastCursor) wrapped = true;  // a new step began
    lastCursor = t.cursor_s;
  }
  EXPECT_TRUE(phasesSeen.count(0) && phasesSeen.count(1));
  // The optimizer pass can be shorter than one 10 ms engine step; it is seen when it is not.
  if (engine->training()->optimizer_s >= engine->desc().dt_s) {
    EXPECT_TRUE(phasesSeen.count(2));
  }
  EXPECT_TRUE(wrapped);
  EXPECT_NEAR(engine->lastStepTime_s(), step_s, 0.02);  // one completed step, at dt = 10 ms
}

TEST(Timeline, LinkDownMakesTheStepLonger) {
  auto healthy = engineFor("training_405b");
  auto faulted = engineFor("link_down");  // GPU 0's NIC cable down from 5 s to 35 s
  healthy->advanceTo(10.0);
  faulted->advanceTo(10.0);
  const app::Timeline ok = app::timelineOf(healthy->snapshot());
  const app::Timeline down = app::timelineOf(faulted->snapshot());
  EXPECT_GT(down.phases[1].duration_s, ok.phases[1].duration_s);
  EXPECT_GT(down.step_s, ok.step_s);
  EXPECT_DOUBLE_EQ(down.faultFreeStep_s, ok.faultFreeStep_s);
}

TEST(Timeline, InferenceHasNoStep) {
  auto engine = engineFor("inference_70b");
  engine->advanceTo(1.0);
  const app::Timeline t = app::timelineOf(engine->snapshot());
  EXPECT_FALSE(t.training);
  EXPECT_TRUE(t.phases.empty());
}

// The window's scrub range (ScrubRange over SimHost::run) frame by frame, as the window feeds
// it: a scrub back and a fault "now" keep the run's furthest time; a chapter's new simulation
// from t = 0 starts the range again, so at its 5th second the grab is at the track's end.
TEST(Timeline, ScrubRangeStartsAgainWithANewRun) {
  const sim::Catalog* catalog = &testcatalog::shipped();
  auto created = app::SimHost::create(*catalog, {"training_405b", {}, {}});
  ASSERT_TRUE(created) << created.error();
  app::SimHost& host = **created;
  host.keepCheckpoints(true);  // as the window does
  app::ScrubRange range;
  auto frame = [&](const app::SimCommand* command) {
    if (command) host.queue(*command);
    host.applyCommands();
    host.finishCatchUp();
    return range.update(host.run(), host.time_s());
  };
  frame(nullptr);
  host.runTo(40.0);
  EXPECT_DOUBLE_EQ(frame(nullptr), host.time_s());
  const double furthest_s = host.time_s();
  // Back to 12 s: the range still reaches 40 s (the run is simulated that far).
  const app::SimCommand back = app::SimCommand::scrub(12.0);
  EXPECT_DOUBLE_EQ(frame(&back), furthest_s);
  EXPECT_LT(host.time_s(), 13.0);
  // A pump trip now, in the same run: the range stays too.
  sim::engine::FaultDesc trip;
  trip.kind = sim::engine::FaultKind::PumpTrip;
  trip.start_s = host.time_s();
  const app::SimCommand now =
      app::SimCommand::restart({"training_405b", {}, {trip}}, true, "injected");
  EXPECT_DOUBLE_EQ(frame(&now), furthest_s);
  // A chapter's own simulation (another one, from t = 0), run to 5 s.
  const uint64_t run = host.run();
  sim::engine::FaultDesc straggler;
  straggler.kind = sim::engine::FaultKind::Straggler;
  straggler.start_s = 2.0;
  const app::SimCommand chapter =
      app::SimCommand::follow({"training_405b", {}, {straggler}}, "chapter 3");
  frame(&chapter);
  EXPECT_NE(host.run(), run);
  EXPECT_LT(host.time_s(), 0.1);
  host.runTo(5.0);
  const double max_s = frame(nullptr);
  EXPECT_DOUBLE_EQ(max_s, host.time_s()) << "the range kept the last run's " << furthest_s << " s";
}

// A PFC storm pauses the fabric: the step stalls in its pipeline phase for tens of seconds. The
// bar still draws the step its line names, on that step's own scale: the phases as routed now
// (the paused pipeline 92 % of it, wide enough for its name), their sum the step the line gives,
// the cursor where the pause holds it; how long this step has been held shows beside, as the
// time it has run so far. Expected: the phases sum (routed durations, from the snapshot), and
// the time so far is the engine's time since the step began.
TEST(Timeline, AStalledStepIsDrawnOnTheScaleItsLineNames) {
  auto engine = engineFor("training_405b");
  const sim::Catalog* catalog = &testcatalog::shipped();
  ASSERT_TRUE(catalog);
  auto desc = sim::engine::engineDescOf({"training_405b", {}, {}});
  ASSERT_TRUE(desc) << desc.error();
  sim::engine::FaultDesc storm;
  storm.kind = sim::engine::FaultKind::PfcStorm;
  storm.start_s = 5.0;
  desc->faults.push_back(storm);
  auto stormy = sim::engine::Engine::create(*catalog, *desc);
  ASSERT_TRUE(stormy) << stormy.error();
  (*stormy)->advanceTo(60.0);
  const sim::engine::Snapshot snapshot = (*stormy)->snapshot();
  const app::Timeline t = app::timelineOf(snapshot);
  ASSERT_TRUE(t.training);
  ASSERT_GT(snapshot.stepElapsed_s, 10.0 * t.lastStep_s) << "the storm holds the step";
  EXPECT_NEAR(t.step_s, sum(t.phases), 1e-9 * t.step_s) << "the bar's scale is the line's step";
  EXPECT_DOUBLE_EQ(t.phases[0].duration_s, snapshot.pipelineTime_s);
  EXPECT_GT(t.phases[0].duration_s / t.step_s, 0.5) << "the pipeline's share of the bar";
  EXPECT_LE(t.cursor_s, t.step_s);
  EXPECT_DOUBLE_EQ(t.soFar_s, snapshot.stepElapsed_s);
  EXPECT_TRUE(t.held);
  // A healthy step is not held: its time so far is where its cursor is.
  engine->advanceTo(30.0);
  const app::Timeline ok = app::timelineOf(engine->snapshot());
  EXPECT_FALSE(ok.held);
  EXPECT_NEAR(ok.soFar_s, ok.cursor_s, 0.02);
}

// A straggler runs the job's compute at its clock share: the bar's pipeline and optimizer are
// that much longer (the fabric's collective is not), the bar's step is the step the engine
// then completes, and a healthy straggling step is not "held". Expected: compute at 1/share
// (the fault's definition), from the plan's own fault-free pipeline and optimizer times.
TEST(Timeline, AStragglersSlowerClockStretchesTheBarsComputePhases) {
  const sim::Catalog* catalog = &testcatalog::shipped();
  ASSERT_TRUE(catalog);
  auto desc = sim::engine::engineDescOf({"training_405b", {}, {}});
  ASSERT_TRUE(desc) << desc.error();
  sim::engine::FaultDesc straggler;
  straggler.kind = sim::engine::FaultKind::Straggler;
  straggler.start_s = 0.0;
  desc->faults.push_back(straggler);
  auto slow = sim::engine::Engine::create(*catalog, *desc);
  ASSERT_TRUE(slow) << slow.error();
  sim::engine::Engine& e = **slow;
  const double share = e.figures().stragglerSpeedFraction;
  ASSERT_GT(share, 0.0);
  ASSERT_LT(share, 1.0);
  const sim::engine::TrainingPlan* plan = e.training();
  e.advanceTo(3.5 * (plan->pipeline_s / share + plan->optimizer_s / share));
  const sim::engine::Snapshot snapshot = e.snapshot();
  const app::Timeline t = app::timelineOf(snapshot);
  ASSERT_TRUE(t.training);
  const double routedExtra_s = snapshot.pipelineTime_s - plan->pipeline_s;
  EXPECT_NEAR(t.phases[0].duration_s, plan->pipeline_s / share + routedExtra_s,
              1e-9 * t.phases[0].duration_s);
  EXPECT_NEAR(t.phases[2].duration_s, plan->optimizer_s / share, 1e-9 * plan->optimizer_s);
  ASSERT_GT(snapshot.steps, 0u);
  ASSERT_GT(t.lastStep_s, 0.0) << "a step completed under the straggler";
  EXPECT_NEAR(t.step_s, t.lastStep_s, 1e-6 * t.lastStep_s) << "the bar is the step it runs";
  EXPECT_FALSE(t.held);
}

}  // namespace
