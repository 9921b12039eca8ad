// What-if and faults (app/whatif_panel.h) without a window: field overrides on engine scenarios,
// fault specs built and parsed as the command line's, faults injected and cleared at "now", and
// restarts that apply all or nothing.
#include <cmath>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "app/options.h"
#include "app/session.h"
#include "app/whatif_panel.h"
#include "sim/catalog.h"
#include "sim/engine/engine.h"
#include "sim/engine/fault_spec.h"
#include "sim/engine/scenarios.h"

namespace {

using sim::engine::EngineDesc;
using sim::engine::FaultDesc;
using sim::engine::FaultKind;

EngineDesc training() {
  auto d = sim::engine::builtinScenario("training_405b");
  EXPECT_TRUE(d) << d.error();
  return *d;
}

// A session with the shipped catalog and an engine only: what applyWhatIf and startEngine use.
app::Session sessionRunning(const std::string& scenario) {
  app::Session s;
  auto catalog = sim::Catalog::loadDirectory(sim::assetsDir() / "catalog");
  EXPECT_TRUE(catalog) << catalog.error();
  s.catalog = std::make_unique<sim::Catalog>(std::move(*catalog));
  auto desc = sim::engine::builtinScenario(scenario);
  EXPECT_TRUE(desc) << desc.error();
  auto engine = sim::engine::Engine::create(*s.catalog, *desc);
  EXPECT_TRUE(engine) << engine.error();
  s.engine = std::move(*engine);
  s.engineRequest.scenario = scenario;
  return s;
}

TEST(WhatIf, OverridesSetEachKindOfField) {
  EngineDesc d = training();
  ASSERT_TRUE(app::applyEngineOverride(d, "workload.training.tp=4"));
  ASSERT_TRUE(app::applyEngineOverride(d, "workload.training.precision=fp8"));
  ASSERT_TRUE(app::applyEngineOverride(d, "workload.training.model=llama3_1_70b"));
  ASSERT_TRUE(app::applyEngineOverride(d, "workload.training.seq_len_tokens=4096"));
  ASSERT_TRUE(app::applyEngineOverride(d, "cluster.rail_optimized=false"));
  ASSERT_TRUE(app::applyEngineOverride(d, "workload.kind=inference"));
  ASSERT_TRUE(app::applyEngineOverride(d, "workload.inference.replicas=72"));
  EXPECT_EQ(d.workload.training.tp, 4);
  EXPECT_EQ(d.workload.training.precision, sim::Precision::FP8);
  EXPECT_EQ(d.workload.training.modelId, "llama3_1_70b");
  EXPECT_EQ(d.workload.training.seqLen_tokens, 4096.0);
  EXPECT_FALSE(d.cluster.railOptimized);
  EXPECT_EQ(d.workload.kind, sim::engine::WorkloadKind::Inference);
  EXPECT_EQ(d.workload.inference.replicas, 72u);
}

TEST(WhatIf, RefusedOverridesNameThemselvesAndChangeNothing) {
  const EngineDesc before = training();
  for (const char* bad :
       {"workload.training.tp=abc", "workload.training.tp=2.5", "workload.training.tp=0",
        "workload.training.zero_stage=4", "workload.training.precision=fp7",
        "cluster.rail_optimized=yes", "workload.kind=serving",
        "workload.training.model=", "no.such.field=1", "workload.training.tp"}) {
    EngineDesc d = before;
    auto applied = app::applyEngineOverride(d, bad);
    ASSERT_FALSE(applied) << bad;
    EXPECT_NE(applied.error().find(bad), std::string::npos) << applied.error();
    for (const std::string& path : app::engineFieldPaths()) {
      EXPECT_EQ(app::engineFieldValue(d, path), app::engineFieldValue(before, path)) << path;
    }
  }
}

TEST(WhatIf, EveryFieldRoundTripsThroughItsText) {
  const EngineDesc d = training();
  EXPECT_EQ(app::engineFieldValue(d, "workload.training.tp"),
            std::to_string(d.workload.training.tp));
  EXPECT_EQ(app::engineFieldValue(d, "workload.training.precision"), "bf16");
  EXPECT_EQ(app::engineFieldValue(d, "cluster.rail_optimized"), "true");
  EXPECT_EQ(app::engineFieldValue(d, "no.such.field"), "");
  for (const std::string& path : app::engineFieldPaths()) {
    EngineDesc copy = d;
    const std::string value = app::engineFieldValue(d, path);
    ASSERT_TRUE(app::applyEngineOverride(copy, path + "=" + value)) << path << "=" << value;
    EXPECT_EQ(app::engineFieldValue(copy, path), value) << path;
  }
}

TEST(WhatIf, FaultSpecsParseBackToTheSameFault) {
  const FaultDesc faults[] = {
      {.kind = FaultKind::PumpTrip, .start_s = 12.5, .target = 0},
      {.kind = FaultKind::LinkDown, .start_s = 5, .end_s = 35, .target = 12},
      {.kind = FaultKind::PfcStorm, .start_s = 2, .end_s = 8, .target = 3, .deadlock = true},
      {.kind = FaultKind::Straggler, .start_s = 0.01, .target = 7, .severity = 0.25},
  };
  EXPECT_EQ(app::faultSpecText(faults[0]), "pump_trip:0@12.5");
  EXPECT_EQ(app::faultSpecText(faults[1]), "link_down:12@5-35");
  for (const FaultDesc& f : faults) {
    auto parsed = sim::engine::parseFaultSpec(app::faultSpecText(f));
    ASSERT_TRUE(parsed) << parsed.error();
    EXPECT_EQ(parsed->kind, f.kind);
    EXPECT_EQ(parsed->target, f.target);
    EXPECT_EQ(parsed->start_s, f.start_s);
    EXPECT_EQ(parsed->end_s, f.end_s);
    EXPECT_EQ(parsed->severity, f.severity);
    EXPECT_EQ(parsed->deadlock, f.deadlock);
  }
}

TEST(WhatIf, FaultsAreInjectedAndClearedNow) {
  auto injected = app::injectFault({}, FaultKind::PumpTrip, 3, 0.2, 42.5);
  ASSERT_TRUE(injected) << injected.error();
  ASSERT_EQ(injected->size(), 1u);
  EXPECT_EQ(app::faultSpecText(injected->front()), "pump_trip:3@42.5,severity=0.2");
  EXPECT_TRUE(std::isinf(injected->front().end_s));
  // Refused as the command line refuses it.
  auto bad = app::injectFault(*injected, FaultKind::Straggler, 0, 1.5, 1.0);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("severity"), std::string::npos) << bad.error();

  // One that has begun ends now; one that has not is dropped; no such fault is an error.
  auto two = app::injectFault(*injected, FaultKind::LinkDown, 1, 0, 50.0);
  ASSERT_TRUE(two);
  auto cleared = app::clearFault(*two, 0, 45.0);
  ASSERT_TRUE(cleared);
  EXPECT_EQ(cleared->at(0).end_s, 45.0);
  auto dropped = app::clearFault(*cleared, 1, 45.0);
  ASSERT_TRUE(dropped);
  EXPECT_EQ(dropped->size(), 1u);
  EXPECT_FALSE(app::clearFault(*dropped, 1, 45.0));
}

TEST(WhatIf, EngineDescIsTheScenarioWithOverridesAndFaults) {
  app::EngineRequest request;
  request.scenario = "pump_trip";
  request.overrides = {"workload.training.micro_batches=8"};
  request.faults = {{.kind = FaultKind::Straggler, .start_s = 3, .target = 5}};
  auto desc = app::engineDescOf(request);
  ASSERT_TRUE(desc) << desc.error();
  EXPECT_EQ(desc->workload.training.microBatches, 8);
  ASSERT_EQ(desc->faults.size(), 2u);
  EXPECT_EQ(desc->faults[0].kind, FaultKind::PumpTrip);  // the scenario's own first
  EXPECT_EQ(desc->faults[1].kind, FaultKind::Straggler);

  request.overrides.push_back("workload.training.tp=x");
  auto refused = app::engineDescOf(request);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("workload.training.tp=x"), std::string::npos);
  request.scenario = "no_such_scenario";
  EXPECT_FALSE(app::engineDescOf(request));
}

TEST(WhatIf, PumpTripInjectedNowRerunsToNowWithTheFaultStartingThen) {
  app::Session s = sessionRunning("training_405b");
  s.engine->advanceTo(20.0);
  const double now_s = s.engine->time_s();
  auto faults = app::injectFault({}, FaultKind::PumpTrip, 0, 0, now_s);
  ASSERT_TRUE(faults);
  ASSERT_TRUE(app::applyWhatIf(s, {"training_405b", {}, *faults}, now_s));
  EXPECT_GE(s.engine->time_s(), now_s);
  EXPECT_LT(s.engine->time_s(), now_s + s.engine->desc().dt_s);
  ASSERT_EQ(s.engineRequest.faults.size(), 1u);  // remembered: a scrub reruns it
  EXPECT_EQ(s.engineRequest.faults[0].start_s, now_s);
  s.engine->advanceTo(now_s + 1.0);
  EXPECT_NEAR(s.engine->snapshot().cduFlowFraction[0],
              s.catalog->find("engine.thermal.pump_trip_remaining_flow_fraction")->value, 1e-6);
}

TEST(WhatIf, AClearedPumpTripGivesTheFlowBackFromThen) {
  app::Session s = sessionRunning("training_405b");
  app::Session kept = sessionRunning("training_405b");  // the same trip, never cleared
  auto tripped = app::injectFault({}, FaultKind::PumpTrip, 0, 0, 5.0);
  ASSERT_TRUE(tripped);
  ASSERT_TRUE(app::applyWhatIf(s, {"training_405b", {}, *tripped}, 20.0));
  ASSERT_TRUE(app::applyWhatIf(kept, {"training_405b", {}, *tripped}, 20.0));
  EXPECT_LT(s.engine->snapshot().cduFlowFraction[0], 1.0f);
  const double hot_C = s.engine->snapshot().cduLoop_C[0];
  const double now_s = s.engine->time_s();
  auto cleared = app::clearFault(s.engineRequest.faults, 0, now_s);
  ASSERT_TRUE(cleared);
  ASSERT_TRUE(app::applyWhatIf(s, {"training_405b", {}, *cleared}, now_s));
  EXPECT_EQ(s.engineRequest.faults.at(0).end_s, now_s);
  // As hot at the moment of clearing (the same rerun); then the full flow runs it cooler than
  // the loop whose pump stays tripped.
  EXPECT_NEAR(s.engine->snapshot().cduLoop_C[0], hot_C, 1e-3);
  s.engine->advanceTo(now_s + 30.0);
  kept.engine->advanceTo(now_s + 30.0);
  EXPECT_EQ(s.engine->snapshot().cduFlowFraction[0], 1.0f);
  EXPECT_LT(kept.engine->snapshot().cduFlowFraction[0], 1.0f);
  EXPECT_LT(s.engine->snapshot().cduLoop_C[0] + 1.0, kept.engine->snapshot().cduLoop_C[0]);
}

TEST(WhatIf, RefusedWhatIfsLeaveTheRunningEngine) {
  app::Session s = sessionRunning("training_405b");
  s.engine->advanceTo(1.0);
  const sim::engine::Engine* running = s.engine.get();
  // A target the cluster does not have (the engine names it), and a campus of another size.
  auto faults = app::injectFault({}, FaultKind::PumpTrip, 1000000, 0, 1.0);
  ASSERT_TRUE(faults);
  auto refused = app::applyWhatIf(s, {"training_405b", {}, *faults}, 1.0);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("pump_trip"), std::string::npos) << refused.error();
  auto other = app::applyWhatIf(s, {"training_405b", {"cluster.system=dgx_h100"}, {}}, 0.0);
  ASSERT_FALSE(other);
  EXPECT_EQ(s.engine.get(), running);
  EXPECT_TRUE(s.engineRequest.faults.empty());
  EXPECT_EQ(s.engineRequest.scenario, "training_405b");
  EXPECT_GE(s.engine->time_s(), 1.0);
}

TEST(WhatIf, OverridesRestartTheEngineWithTheNewWorkload) {
  app::Session s = sessionRunning("training_405b");
  const double before_s = s.engine->faultFreeStepTime_s();
  ASSERT_TRUE(
      app::applyWhatIf(s, {"training_405b", {"workload.training.micro_batches=32"}, {}}, 0.0));
  EXPECT_EQ(s.engine->desc().workload.training.microBatches, 32);
  // Twice the micro-batches per step: a longer step.
  EXPECT_GT(s.engine->faultFreeStepTime_s(), before_s);
  // The session remembers the overrides: a restart from its request (what a scrub does) runs
  // the same what-if, not the bare scenario.
  ASSERT_TRUE(app::startEngine(s, app::EngineRequest(s.engineRequest)));
  EXPECT_EQ(s.engine->desc().workload.training.microBatches, 32);
}

TEST(WhatIf, PanelDrawsHeadlessWhenOpen) {
  app::RenderOptions options;
  options.width = 640;
  options.height = 360;
  app::Session session;
  ASSERT_EQ(app::openSession(options, nullptr, app::fontPixelsFor(options.height), session,
                             {.engineScenario = "pump_trip"}),
            0);
  const world::Station* station = session.world->station("row");
  ASSERT_NE(station, nullptr);
  world::Camera camera;
  app::frameStation(*station, camera);
  const world::FrameDesc frame{options.width, options.height};
  app::WhatIfPanel panel;
  const renderer::Pixels closed =
      app::renderView(session, camera, {}, frame, [&] { panel.draw(session); });
  panel.toggle();
  ASSERT_TRUE(panel.open());
  const renderer::Pixels open =
      app::renderView(session, camera, {}, frame, [&] { panel.draw(session); });
  ASSERT_EQ(open.rgba.size(), closed.rgba.size());
  EXPECT_NE(open.rgba, closed.rgba);  // the panel is on screen
  EXPECT_TRUE(app::reportValidation());
}

}  // namespace
