// The analytic evaluation (`dcwalk sim --scenario`) and the time engine (`dcwalk sim --engine`)
// run the same scenario with the same calculators: they agree on the step's parts, its time and
// the serving iteration, and the engine refuses what it cannot run, naming the field.
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "sim/engine/request.h"
#include "sim/evaluate.h"
#include "sim/scenario.h"
#include "tests/sim/engine_test_util.h"

using namespace sim;

TEST(EngineAgreement, TrainingStepMatchesTheAnalyticEvaluation) {
  // How far the engine's step may lie above the evaluation's, a share of the step: 10 %, but
  // 12.5 % on GB200, a known disagreement measured at 12.1 %: the engine's routed DP ring there
  // takes 0.28 s more than the collective model prices it (ECMP collisions on the fabric, or a
  // model gap: open in issue 36), which the interleaved pipeline (Llama 3's 8 chunks per stage,
  // a 12 % bubble) no longer hides in a bubble-heavy step.
  const std::map<std::string, double> tolerance = {{"llama405b-training-16k-h100", 0.10},
                                                   {"llama405b-training-16k-gb200", 0.125}};
  for (const auto& [name, share] : tolerance) {
    auto scenario = loadScenario(name);
    ASSERT_TRUE(scenario.ok()) << scenario.error();
    auto analytic = evaluateScenario(*scenario, enginetest::catalog());
    ASSERT_TRUE(analytic.ok()) << analytic.error();
    auto desc = engine::engineDescFromScenario(*scenario);
    ASSERT_TRUE(desc.ok()) << desc.error();
    auto e = enginetest::make(*desc);
    ASSERT_TRUE(e) << name;
    const engine::TrainingPlan& p = *e->training();
    // One source: the pipeline and optimizer are the calculator's to the last bit.
    EXPECT_DOUBLE_EQ(p.pipeline_s, analytic->number("compute.pipeline_s")) << name;
    EXPECT_DOUBLE_EQ(p.optimizer_s, analytic->number("compute.optimizer_s")) << name;
    // The step: the engine routes the DP ring link by link (ECMP collisions can only slow it),
    // the evaluation prices it by the collective model, and both hide the same window behind
    // it. The pipeline dominates either way.
    const double analyticStep = analytic->number("compute.step_time_s");
    EXPECT_GE(e->faultFreeStepTime_s(), analyticStep * (1 - 1e-9)) << name;
    EXPECT_NEAR(e->faultFreeStepTime_s(), analyticStep, share * analyticStep) << name;
    EXPECT_DOUBLE_EQ(p.dpOverlap_s, analytic->number("compute.dp_overlap_window_s")) << name;
    enginetest::runTrainingSteps(*e, 1);
    EXPECT_NEAR(e->lastStepTime_s(), e->faultFreeStepTime_s(), 1e-6) << name;
  }
}

TEST(EngineAgreement, ServingIterationMatchesTheAnalyticEvaluation) {
  auto scenario = loadScenario("llama70b-fp8-inference-b200");
  ASSERT_TRUE(scenario.ok()) << scenario.error();
  ASSERT_TRUE(applyOverride(*scenario, "workload.batch=1").ok());
  auto analytic = evaluateScenario(*scenario, enginetest::catalog());
  ASSERT_TRUE(analytic.ok()) << analytic.error();
  auto desc = engine::engineDescFromScenario(*scenario);
  ASSERT_TRUE(desc.ok()) << desc.error();
  auto e = enginetest::make(*desc);
  ASSERT_TRUE(e);
  // A lone request: the analytic TPOT is one decode iteration at its mean context; the engine's
  // plan prices the same iteration with the same calculator.
  const engine::InferencePlan& p = *e->inferencePlan();
  const double context = 4096 + 1024 / 2.0;
  EXPECT_NEAR(sim::calc::iterationCost(p.serving, 1, 1, context, 0).total_s,
              analytic->number("compute.tpot_s"), 1e-12);
  EXPECT_DOUBLE_EQ(p.kvCapacityTokensPerReplica, analytic->number("memory.kv_capacity_tokens"));
}

TEST(EngineAgreement, WhatTheEngineCannotRunIsRefusedByField) {
  ScenarioDesc s;
  ASSERT_TRUE(applyOverride(s, "model.layers=4").ok());
  auto inlineModel = engine::engineDescFromScenario(s);
  ASSERT_FALSE(inlineModel.ok());
  EXPECT_NE(inlineModel.error().find("model"), std::string::npos);
  ScenarioDesc g;
  ASSERT_TRUE(applyOverride(g, "cluster.gpu=mi300x").ok());
  auto otherGpu = engine::engineDescFromScenario(g);
  ASSERT_FALSE(otherGpu.ok());
  EXPECT_NE(otherGpu.error().find("cluster.gpu"), std::string::npos);
}
