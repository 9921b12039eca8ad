// The campus's step-mean power (docs/sim.md "Step-mean power"): what chapter 10's power flows and
// narration show. The engine's instantaneous rack power swings between a training step's compute
// and its collective; the mean over the last completed step is that swing integrated here, step
// by engine step, from the instantaneous campus IT power, and the facility's draw follows it.
#include <gtest/gtest.h>

#include "sim/engine/snapshot.h"
#include "tests/sim/engine_test_util.h"

using namespace sim::engine;

TEST(CampusPower, TheStepMeanIsTheInstantaneousPowerIntegratedOverTheLastStep) {
  auto e = enginetest::makeBuiltin("training_405b");
  const double dt_s = e->snapshot().desc->dt_s;
  // Integrate the instantaneous campus IT power over each training step as it completes.
  double energy_J = 0, lastStepMean_W = 0, lo_W = 1e300, hi_W = 0;
  uint64_t steps = 0;
  for (int i = 0; i < 100000 && steps < 3; ++i) {
    e->step();
    const Snapshot s = e->snapshot();
    energy_J += s.aggregates.campusIt_W * dt_s;
    lo_W = std::min(lo_W, s.aggregates.campusIt_W);
    hi_W = std::max(hi_W, s.aggregates.campusIt_W);
    if (e->completedSteps() != steps) {
      steps = e->completedSteps();
      // The engine closes the window on the engine step the training step ends in.
      const double window_s = std::round(s.lastStepTime_s / dt_s) * dt_s;
      lastStepMean_W = energy_J / window_s;
      energy_J = 0;
      const CampusPower mean = campusPower(s, PowerWindow::StepMean);
      // Within one engine step's worth of the step (the window ends on an engine step).
      EXPECT_NEAR(mean.it_W, lastStepMean_W, 1.5 * dt_s / s.lastStepTime_s * lastStepMean_W)
          << "step " << steps;
    }
  }
  ASSERT_EQ(steps, 3u);
  // The mean lies strictly inside the swing: the compute phase draws more than the collective.
  EXPECT_LT(lo_W, lastStepMean_W);
  EXPECT_GT(hi_W, lastStepMean_W);
  // Between steps the mean holds still while the instantaneous power moves.
  const Snapshot now = e->snapshot();
  const double held_W = campusPower(now, PowerWindow::StepMean).it_W;
  e->step();
  EXPECT_DOUBLE_EQ(campusPower(e->snapshot(), PowerWindow::StepMean).it_W, held_W);
  // The instantaneous window is the aggregates' campus IT power.
  EXPECT_NEAR(campusPower(now, PowerWindow::Now).it_W, now.aggregates.campusIt_W,
              1e-6 * now.aggregates.campusIt_W);
}

TEST(CampusPower, TheFacilityDrawsItsOverheadOnTopAndNeverMoreThanItsDesign) {
  auto e = enginetest::makeBuiltin("training_405b");
  enginetest::runTrainingSteps(*e, 1);
  const Snapshot s = e->snapshot();
  const CampusPower p = campusPower(s, PowerWindow::StepMean);
  const Cluster& c = *s.cluster;
  // Below its nameplate: every campus rack at its maximum, times the design PUE.
  const double design_W = double(c.campusRacks) * c.rackMaxPower_W;
  EXPECT_GT(p.it_W, 0);
  EXPECT_LT(p.it_W, design_W);
  EXPECT_GT(p.facility_W, p.it_W);
  EXPECT_LT(p.facility_W, design_W * c.specs.facility.pue);
  // At part load the PUE is above the design's: part of the overhead is fixed (WP#49).
  EXPECT_GT(p.facility_W / p.it_W, c.specs.facility.pue);
}

TEST(CampusPower, AStalledStepStillClosesItsWindow) {
  // A deadlocked fabric: the step never ends, yet the mean follows what the racks draw.
  auto e = enginetest::makeBuiltin("training_405b");
  enginetest::runTrainingSteps(*e, 1);
  const double before_W = campusPower(e->snapshot(), PowerWindow::StepMean).it_W;
  e->addFault({.kind = FaultKind::PfcStorm, .start_s = e->time_s(), .deadlock = true});
  const double stalled_s = e->snapshot().faultFreeStepTime_s * Engine::STALLED_WINDOW_STEPS;
  e->advanceTo(e->time_s() + 2.5 * stalled_s);
  const Snapshot s = e->snapshot();
  const double after_W = campusPower(s, PowerWindow::StepMean).it_W;
  EXPECT_NE(after_W, before_W);
  EXPECT_GE(after_W, 0);
}
