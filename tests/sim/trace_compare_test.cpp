// Measured vs modelled shares: a hand-made step and breakdown, worked out here.
#include <gtest/gtest.h>

#include "sim/trace/compare.h"

namespace st = sim::trace;

TEST(TraceCompare, ModelledSharesFollowTheStepsParts) {
  // 4 micro-batches of slots of 1 s (2 layers x (0.4 s compute + 0.05 s TP) + 0.1 s PP send),
  // pipeline 5 s (1 s bubble), DP exposed 0.5 s, optimizer 0.5 s: step 6 s.
  sim::calc::TrainingStep s;
  s.stageLayers = 2;
  s.layerTpComm_s = 0.05;
  s.ppSend_s = 0.1;
  s.slot_s = 1.0;
  s.pipeline_s = 5.0;
  s.dpExposed_s = 0.5;
  s.step_s = 6.0;
  const st::StepShares m = st::modelledShares(s, 4);
  EXPECT_DOUBLE_EQ(m.step_s, 6.0);
  EXPECT_NEAR(m.idle, 1.0 / 6.0, 1e-12);
  EXPECT_NEAR(m.exposedCommunication, (4 * (2 * 0.05 + 0.1) + 0.5) / 6.0, 1e-12);
  EXPECT_NEAR(m.compute, 1.0 - 1.0 / 6.0 - 1.3 / 6.0, 1e-12);
  EXPECT_EQ(m.other, 0.0);
}

TEST(TraceCompare, MeasuredSharesAndTheGapText) {
  st::Breakdown b;
  b.times.span_s = 2.0;
  b.times.compute_s = 1.0;
  b.times.exposedCommunication_s = 0.6;
  b.times.idle_s = 0.3;
  const st::StepShares measured = st::measuredShares(b);
  EXPECT_DOUBLE_EQ(measured.compute, 0.5);
  EXPECT_DOUBLE_EQ(measured.exposedCommunication, 0.3);
  EXPECT_DOUBLE_EQ(measured.idle, 0.15);
  EXPECT_NEAR(measured.other, 0.05, 1e-12);
  st::StepShares modelled;
  modelled.step_s = 1;
  modelled.compute = 0.8;
  modelled.exposedCommunication = 0.12;
  modelled.idle = 0.08;
  // |0.5 - 0.8| = 0.30 beats |0.3 - 0.12| = 0.18 and |0.15 - 0.08| = 0.07.
  EXPECT_EQ(st::gapText(measured, modelled), "compute 50.0 % measured vs 80.0 % modelled");
  modelled.compute = 0.6;
  EXPECT_EQ(st::gapText(measured, modelled),
            "exposed communication 30.0 % measured vs 12.0 % modelled");
  EXPECT_EQ(st::measuredShares(st::Breakdown{}).other, 0.0);  // empty span: all zero
}
