// What-if and faults through the sim host (app/session/sim_host.h), as the what-if panel asks for
// them: a fault injected or cleared now, refused requests that leave the running engine, field
// overrides restarting the engine; and the panel drawn headless through the one frame.
#include <cmath>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "app/session/frame.h"
#include "app/session/session.h"
#include "app/session/sim_host.h"
#include "app/session/tour_view.h"
#include "app/ui/whatif_panel.h"
#include "sim/catalog.h"
#include "sim/engine/fault_spec.h"
#include "sim/engine/request.h"
#include "sim/engine/scenarios.h"

namespace {

using sim::engine::FaultKind;

const sim::Catalog& catalog() {
  static const sim::Catalog shipped = [] {
    auto loaded = sim::Catalog::loadDirectory(sim::assetsDir() / "catalog");
    EXPECT_TRUE(loaded) << loaded.error();
    return std::move(*loaded);
  }();
  return shipped;
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
                n.error, n.serial},
               context.ui.layout().panel, "en", context.commands);
  }
};

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

}  // namespace
