// What-if and faults through the sim host (app/session/sim_host.h), as the what-if panel asks for
// them: a fault injected or cleared now, refused requests that leave the running engine, field
// overrides restarting the engine; the panel drawn headless through the one frame, and its
// comparison of the previous run with the current one after the system changed.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

#include "app/session/frame.h"
#include "app/session/session.h"
#include "app/session/sim_host.h"
#include "app/session/tour_view.h"
#include "app/session/world_rebuild.h"
#include "app/ui/key_numbers.h"
#include "app/ui/whatif_panel.h"
#include "sim/catalog.h"
#include "sim/engine/engine.h"
#include "sim/engine/fault_spec.h"
#include "sim/engine/request.h"
#include "sim/engine/scenarios.h"
#include "tests/common/shipped_catalog.h"

namespace {

using sim::engine::FaultKind;

const sim::Catalog& catalog() {
  return testcatalog::shipped();
}

std::unique_ptr<app::SimHost> hostRunning(const std::string& scenario) {
  auto host = app::SimHost::create(catalog(), {scenario, {}, {}});
  EXPECT_TRUE(host) << host.error();
  return std::move(*host);
}

// Queues `command` and applies it as the next frame's stage 1 does, catching up to the end.
void ask(app::SimHost& host, app::SimCommand command) {
  host.queue(std::move(command));
  host.applyCommands();
  host.finishCatchUp();
}

TEST(WhatIf, PumpTripInjectedNowTakesEffectFromNow) {
  auto host = hostRunning("training_405b");
  host->runTo(20.0);
  const double now_s = host->time_s();
  auto faults = sim::engine::injectFault({}, FaultKind::PumpTrip, 0, 0, now_s);
  ASSERT_TRUE(faults);
  const uint64_t before = host->generation();
  ask(*host, app::SimCommand::restart({"training_405b", {}, *faults}, true, "Injected"));
  EXPECT_GT(host->generation(), before);
  EXPECT_EQ(host->time_s(), now_s);  // no rerun: the running engine took the fault as it was
  EXPECT_EQ(host->notice().text, "Injected");
  ASSERT_EQ(host->request().faults.size(), 1u);  // remembered: a scrub reruns it
  EXPECT_EQ(host->request().faults[0].start_s, now_s);
  host->runTo(now_s + 1.0);
  EXPECT_NEAR(host->snapshot().cduFlowFraction[0],
              catalog().find("engine.thermal.pump_trip_remaining_flow_fraction")->value, 1e-6);
}

TEST(WhatIf, AClearedPumpTripGivesTheFlowBackFromThen) {
  auto host = hostRunning("training_405b");
  auto kept = hostRunning("training_405b");  // the same trip, never cleared
  auto tripped = sim::engine::injectFault({}, FaultKind::PumpTrip, 0, 0, 5.0);
  ASSERT_TRUE(tripped);
  for (app::SimHost* h : {host.get(), kept.get()}) {
    ask(*h, app::SimCommand::restart({"training_405b", {}, *tripped}, false));
    h->runTo(20.0);
  }
  EXPECT_LT(host->snapshot().cduFlowFraction[0], 1.0f);
  const double hot_C = host->snapshot().cduLoop_C[0];
  const double now_s = host->time_s();
  auto cleared = sim::engine::clearFault(host->request().faults, 0, now_s);
  ASSERT_TRUE(cleared);
  ask(*host, app::SimCommand::restart({"training_405b", {}, *cleared}, true));
  EXPECT_EQ(host->request().faults.at(0).end_s, now_s);
  // As hot at the moment of clearing; then the full flow runs it cooler than the loop whose
  // pump stays tripped.
  EXPECT_NEAR(host->snapshot().cduLoop_C[0], hot_C, 1e-3);
  host->runTo(now_s + 30.0);
  kept->runTo(now_s + 30.0);
  EXPECT_EQ(host->snapshot().cduFlowFraction[0], 1.0f);
  EXPECT_LT(kept->snapshot().cduFlowFraction[0], 1.0f);
  EXPECT_LT(host->snapshot().cduLoop_C[0] + 1.0, kept->snapshot().cduLoop_C[0]);
}

TEST(WhatIf, RefusedRequestsLeaveTheRunningEngineAndSayWhy) {
  auto host = hostRunning("training_405b");
  host->runTo(1.0);
  const uint64_t generation = host->generation();
  // A target the cluster does not have (the engine names it), and a campus of another size.
  auto faults = sim::engine::injectFault({}, FaultKind::PumpTrip, 1000000, 0, 1.0);
  ASSERT_TRUE(faults);
  ask(*host, app::SimCommand::restart({"training_405b", {}, *faults}, true));
  EXPECT_TRUE(host->notice().error);
  EXPECT_NE(host->notice().text.find("pump_trip"), std::string::npos) << host->notice().text;
  ask(*host, app::SimCommand::restart({"training_405b", {"cluster.system=dgx_h100"}, {}}, false));
  EXPECT_TRUE(host->notice().error);
  EXPECT_NE(host->notice().text.find("campus racks"), std::string::npos) << host->notice().text;
  EXPECT_EQ(host->generation(), generation);
  EXPECT_TRUE(host->request().faults.empty());
  EXPECT_EQ(host->request().scenario, "training_405b");
  EXPECT_GE(host->time_s(), 1.0);
}

TEST(WhatIf, OverridesRestartTheEngineWithTheNewWorkload) {
  auto host = hostRunning("training_405b");
  const double before_s = host->snapshot().faultFreeStepTime_s;
  ask(*host, app::SimCommand::restart({"training_405b", {"workload.training.micro_batches=32"}, {}},
                                      false));
  EXPECT_EQ(host->snapshot().desc->workload.training.microBatches, 32);
  // Twice the micro-batches per step: a longer step.
  EXPECT_GT(host->snapshot().faultFreeStepTime_s, before_s);
  // The host remembers the overrides: a scrub reruns the same what-if, not the bare scenario.
  host->runTo(3.0);
  ask(*host, app::SimCommand::scrub(1.0));
  EXPECT_EQ(host->snapshot().desc->workload.training.microBatches, 32);
  EXPECT_NEAR(host->time_s(), 1.0, host->snapshot().desc->dt_s);
}

// The panel as a frame source draws it: headless, through runFrame.
class PanelView : public app::StationView {
 public:
  app::WhatIfPanel panel;
  app::HudInfo hud(app::FrameContext& context) override {
    app::HudInfo hud = StationView::hud(context);
    hud.panelOnRight = panel.open();  // it takes the right column
    return hud;
  }
  void drawWindows(app::FrameContext& context) override {
    const app::SimNotice& n = context.sim.notice();
    panel.draw({context.sim.request(), context.sim.generation(), context.sim.time_s(), n.text,
                n.error, n.serial, "", &context.snapshot, &context.catalog},
               context.ui.layout().panel, "en", context.commands);
  }
};

// One frame of `view` that moves no simulated time (the numbers it shows stay those of now).
app::FrameResult stillFrame(app::Session& session, PanelView& view, VkExtent2D extent) {
  app::FrameSpec spec;
  spec.dt_s = 0;
  spec.extent = extent;
  spec.output = app::FrameOutput::Offscreen;
  return app::runFrame(session, view, spec);
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
  PanelView view;
  view.camera().setPose(world::toPose(station->viewpoint));
  const VkExtent2D extent{options.width, options.height};
  const renderer::Pixels closed = app::renderStill(session, view, extent).pixels;
  view.panel.toggle();
  ASSERT_TRUE(view.panel.open());
  const renderer::Pixels open = app::renderStill(session, view, extent).pixels;
  ASSERT_EQ(open.rgba.size(), closed.rgba.size());
  EXPECT_NE(open.rgba, closed.rgba);  // the panel is on screen
  EXPECT_TRUE(app::reportValidation());
}

// After the system changes from GB200 NVL72 to DGX H100 (the world rebuilt for it), the panel
// compares the two runs: the previous column holds the NVL72 engine's numbers as last shown,
// the current one the DGX engine's now, each with its unit, on the engine's basis.
TEST(WhatIf, ComparesThePreviousRunWithTheCurrentAfterTheSystemChanges) {
  app::RenderOptions options;
  options.width = 480;
  options.height = 270;
  const VkExtent2D extent{options.width, options.height};
  app::Session session;
  ASSERT_EQ(app::openSession(options, nullptr, app::fontPixelsFor(options.height), session), 0);
  ASSERT_TRUE(session.rebuild);
  session.rebuild->setMode(app::WorldRebuild::Mode::InFrame);  // the frame after asks swaps
  PanelView view;
  view.camera().setPose(world::toPose(session.world->station("rack")->viewpoint));
  view.panel.toggle();
  // Past the first step of each run, so the step time and tokens per second are the engine's.
  ASSERT_TRUE(session.sim->runTo(12.0));
  stillFrame(session, view, extent);
  EXPECT_FALSE(view.panel.comparison().has_value());  // one run so far: nothing to compare
  const sim::engine::Snapshot nvl72 = session.sim->snapshot();
  ASSERT_EQ(nvl72.cluster->specs.system.id, "gb200_nvl72");
  // A run's power is its step's mean (issue 38, item 3: "now" swung between 39 and 73 MW from one
  // sample to the next, with the phase of the step), read while the run's arrays are alive.
  using sim::engine::PowerWindow;
  const double nvl72Power_W = sim::engine::campusPower(nvl72, PowerWindow::StepMean).facility_W;

  std::vector<app::SimCommand> asked;  // as a pick in the system combo asks
  view.panel.chooseSystem("dgx_h100", "en", asked);
  ASSERT_EQ(asked.size(), 1u);
  session.sim->queue(std::move(asked[0]));
  ASSERT_TRUE(stillFrame(session, view, extent).rebuild.swapped);
  ASSERT_EQ(session.sim->snapshot().cluster->specs.system.id, "dgx_h100");
  ASSERT_TRUE(session.sim->runTo(12.0));
  stillFrame(session, view, extent);
  const sim::engine::Snapshot dgx = session.sim->snapshot();
  const double dgxPower_W = sim::engine::campusPower(dgx, PowerWindow::StepMean).facility_W;

  const auto comparison = view.panel.comparison();
  ASSERT_TRUE(comparison.has_value());
  EXPECT_EQ(comparison->previous.system, "GB200 NVL72");
  EXPECT_EQ(comparison->current.system, "DGX H100");
  EXPECT_EQ(comparison->previous.scenario, "training_405b");
  EXPECT_EQ(comparison->current.scenario, "training_405b");
  EXPECT_EQ(comparison->previous.time_s, nvl72.time_s);
  EXPECT_EQ(comparison->current.time_s, dgx.time_s);
  // The engine's own figures, each run's.
  const std::tuple<const app::KeyNumbers&, const sim::engine::Snapshot&, double> runs[] = {
      {comparison->previous.numbers, nvl72, nvl72Power_W},
      {comparison->current.numbers, dgx, dgxPower_W}};
  for (const auto& [numbers, snapshot, power_W] : runs) {
    EXPECT_EQ(numbers.source, "engine");
    ASSERT_TRUE(numbers.stepTime_s && numbers.tokensPerSecond && numbers.facility_W);
    EXPECT_EQ(*numbers.stepTime_s, snapshot.aggregates.lastStepTime_s);
    EXPECT_EQ(*numbers.tokensPerSecond, snapshot.aggregates.tokensPerSecond);
    EXPECT_EQ(*numbers.facility_W, power_W);
    EXPECT_FALSE(numbers.tokensPerGpu);  // the whole campus's
  }
  // Other GPUs, another world: other numbers.
  EXPECT_NE(*comparison->previous.numbers.facility_W, *comparison->current.numbers.facility_W);
  EXPECT_NE(*comparison->previous.numbers.stepTime_s, *comparison->current.numbers.stepTime_s);

  // The table: both columns filled, with units; the engine prices nothing, so no $/Mtok row.
  const std::vector<app::WhatIfComparisonRow> rows = app::comparisonRows(*comparison);
  ASSERT_EQ(rows.size(), 3u);
  const char* units[] = {" s", " M tokens/s", " MW campus"};
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_NE(rows[i].previous.find(units[i]), std::string::npos) << rows[i].previous;
    EXPECT_NE(rows[i].current.find(units[i]), std::string::npos) << rows[i].current;
  }
  char step[32];
  std::snprintf(step, sizeof(step), "%.2f s", nvl72.aggregates.lastStepTime_s);
  EXPECT_EQ(rows[0].previous, step);
  std::snprintf(step, sizeof(step), "%.2f s", dgx.aggregates.lastStepTime_s);
  EXPECT_EQ(rows[0].current, step);

  // A run the tour brings, not the visitor, ends the comparison.
  session.sim->queue(app::SimCommand::restart({"inference_70b", {}, {}}, false));
  stillFrame(session, view, extent);
  ASSERT_EQ(session.sim->request().scenario, "inference_70b");
  stillFrame(session, view, extent);
  EXPECT_FALSE(view.panel.comparison().has_value());
  EXPECT_TRUE(app::reportValidation());
}

}  // namespace

TEST(WhatIf, ARunsPowerHoldsStillWithinAStep) {
  // The comparison's power is the step's mean: between two step ends it does not move, while the
  // instantaneous facility power swings between the compute and the collective.
  auto desc = sim::engine::builtinScenario("training_405b");
  ASSERT_TRUE(desc);
  auto engine = sim::engine::Engine::create(catalog(), *desc);
  ASSERT_TRUE(engine) << engine.error();
  sim::engine::Engine& e = **engine;
  while (e.completedSteps() < 1) e.step();
  const uint64_t step = e.completedSteps();
  const double held_W = *app::keyNumbersFor("training_405b", catalog(), e.snapshot()).facility_W;
  double lo_W = 1e300, hi_W = 0;
  for (e.step(); e.completedSteps() == step; e.step()) {
    const sim::engine::Snapshot s = e.snapshot();
    lo_W = std::min(lo_W, s.aggregates.facility_W);
    hi_W = std::max(hi_W, s.aggregates.facility_W);
    ASSERT_EQ(*app::keyNumbersFor("training_405b", catalog(), s).facility_W, held_W);
  }
  EXPECT_GT(hi_W, 1.05 * lo_W);  // what "now" would have shown
  EXPECT_GT(held_W, lo_W);
  EXPECT_LT(held_W, hi_W);
}
