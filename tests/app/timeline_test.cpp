// The training-step timeline (app/ui/timeline.h) against the engine it reads: phase durations,
// the pipeline's make-up, the cursor moving through the phases, and a link-down fault making the
// step longer.
#include <cmath>
#include <memory>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "app/ui/timeline.h"
#include "sim/catalog.h"
#include "sim/engine/engine.h"
#include "sim/engine/scenarios.h"
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

}  // namespace
