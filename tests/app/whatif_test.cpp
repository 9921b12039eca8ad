// What-if and faults (app/ui/whatif_panel.h) without a window: field overrides on engine scenarios,
// fault specs built and parsed as the command line's, faults injected and cleared at "now", and
// restarts that apply all or nothing.
#include <cmath>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "app/cli/options.h"
#include "app/session/session.h"
#include "app/ui/whatif_panel.h"
#include "sim/catalog.h"
#include "sim/engine/engine.h"
#include "sim/engine/fault_spec.h"
#include "sim/engine/request.h"
#include "sim/engine/scenarios.h"

namespace {

using sim::engine::FaultKind;

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

TEST(WhatIf, PumpTripInjectedNowRerunsToNowWithTheFaultStartingThen) {
  app::Session s = sessionRunning("training_405b");
  s.engine->advanceTo(20.0);
  const double now_s = s.engine->time_s();
  auto faults = sim::engine::injectFault({}, FaultKind::PumpTrip, 0, 0, now_s);
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
  auto tripped = sim::engine::injectFault({}, FaultKind::PumpTrip, 0, 0, 5.0);
  ASSERT_TRUE(tripped);
  ASSERT_TRUE(app::applyWhatIf(s, {"training_405b", {}, *tripped}, 20.0));
  ASSERT_TRUE(app::applyWhatIf(kept, {"training_405b", {}, *tripped}, 20.0));
  EXPECT_LT(s.engine->snapshot().cduFlowFraction[0], 1.0f);
  const double hot_C = s.engine->snapshot().cduLoop_C[0];
  const double now_s = s.engine->time_s();
  auto cleared = sim::engine::clearFault(s.engineRequest.faults, 0, now_s);
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
  auto faults = sim::engine::injectFault({}, FaultKind::PumpTrip, 1000000, 0, 1.0);
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
  ASSERT_TRUE(app::startEngine(s, sim::engine::EngineRequest(s.engineRequest)));
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
