// Goodput's step split (docs/sim.md "Goodput: the step split"): the parts add up to the step the
// engine measured, the bubble is the 1F1B share (p - 1) / (v m) of the m micro-batch slots, the
// ghost is 6 N_active tokens / (GPUs x peak), and only a fault puts time in "lost".
#include <gtest/gtest.h>

#include "sim/engine/snapshot.h"
#include "tests/sim/engine_test_util.h"

using namespace sim::engine;

TEST(StepSplit, PartsAddUpToTheMeasuredStepAndOnlyAFaultLosesTime) {
  auto e = enginetest::makeBuiltin("training_405b");
  enginetest::runTrainingSteps(*e, 2);
  const Snapshot s = e->snapshot();
  const StepSplit split = stepSplit(s);
  ASSERT_NE(s.training, nullptr);
  const TrainingPlan& plan = *s.training;
  EXPECT_NEAR(split.total_s, s.lastStepTime_s, 1e-9 * s.lastStepTime_s);
  EXPECT_NEAR(
      split.compute_s + split.communication_s + split.bubble_s + split.optimizer_s + split.lost_s,
      split.total_s, 1e-9 * split.total_s);
  // The 1F1B bubble: (p - 1) / (v m) of the m slots.
  const double m = plan.desc.microBatches;
  const double bubble = double(plan.desc.pp - 1) / (plan.desc.virtualStages * m);
  EXPECT_NEAR(split.bubble_s, bubble * m * plan.microBatchSlot_s, 1e-6 * split.bubble_s);
  // The ghost: 6 FLOPs per active parameter and token at the job GPUs' dense peak.
  EXPECT_NEAR(split.peak_s,
              6 * plan.activeParams * plan.tokensPerStep / (plan.jobGpus * plan.peak_flops),
              1e-9 * split.peak_s);
  EXPECT_LT(split.peak_s, split.compute_s);       // no stage computes at peak
  EXPECT_LT(split.lost_s, 1e-3 * split.total_s);  // fault-free: nothing lost

  auto slow = enginetest::makeBuiltin("training_405b");
  slow->addFault({.kind = FaultKind::Straggler, .start_s = 0, .target = 0, .severity = 0.5});
  enginetest::runTrainingSteps(*slow, 2);
  const StepSplit late = stepSplit(slow->snapshot());
  // Every step waits for the half-speed GPU: its compute takes twice as long, so the step loses
  // at least the compute it would have done in that time.
  EXPECT_GT(late.lost_s, 0.5 * split.compute_s);
  EXPECT_NEAR(late.total_s, slow->snapshot().lastStepTime_s, 1e-9 * late.total_s);
}

TEST(StepSplit, AnInferenceServiceHasNoStep) {
  auto e = enginetest::makeBuiltin("inference_70b");
  e->step();
  const StepSplit split = stepSplit(e->snapshot());
  EXPECT_EQ(split.total_s, 0.0);
  EXPECT_EQ(split.peak_s, 0.0);
}
