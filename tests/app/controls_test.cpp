// Controls that work while the simulation runs (issue 22): every button of every panel — the
// timeline's, each chapter panel's, the what-if panel's — is clicked through ImGui (pointer
// moved onto it, pressed in one frame, released in the next) while the engine advances every
// frame, so labels with a live time change as they are clicked; each click lands, and the ones
// that ask the simulation for something get it. Then the tour's designed simulation: a visitor's
// fault survives the steps that keep it and a step that replaces it says what it cleared; and a
// released scrub holds where it was let go while the host catches up, dragged through ImGui too.
#include <gtest/gtest.h>
#include <imgui.h>

#include "app/session/frame.h"
#include "app/session/session.h"
#include "app/session/tour_session.h"
#include "app/session/tour_view.h"
#include "app/ui/timeline_panel.h"
#include "app/ui/whatif_panel.h"
#include "app/ui/widgets.h"
#include "sim/engine/fault_spec.h"

namespace {

// The window's panels as one frame source: the chapter's panel (or the what-if panel) in the
// right column and the timeline.
class Controls : public app::TourView {
 public:
  using app::TourView::TourView;
  app::WhatIfPanel whatIf;
  app::HudInfo hud(app::FrameContext& context) override {
    app::HudInfo hud = TourView::hud(context);
    hud.timeline = true;
    hud.panelOnRight = true;
    return hud;
  }
  void drawWindows(app::FrameContext& context) override {
    const app::SimHost& sim = context.sim;
    if (whatIf.open()) {
      const app::SimNotice& n = sim.notice();
      whatIf.draw({sim.request(), sim.generation(), sim.time_s(), n.text, n.error, n.serial},
                  context.ui.layout().panel, "en", context.commands);
    } else {
      TourView::drawWindows(context);
    }
    app::drawTimeline(app::timelineOf(context.snapshot),
                      {sim.time_s(), sim.speed(), sim.paused(), sim.time_s()},
                      context.ui.layout().timeline, "en", context.commands);
  }
};

struct Rig {
  app::Session session;
  std::optional<app::TourPanel> panel;
  std::unique_ptr<app::TourDriver> driver;
  std::unique_ptr<Controls> view;

  Rig() {
    app::RenderOptions options;
    EXPECT_EQ(app::openSession(options, nullptr, app::fontPixelsFor(options.height), session), 0);
    auto player = app::makeTourPlayer(*session.world, "default", {});
    EXPECT_TRUE(player) << player.error();
    auto loaded = app::TourPanel::load(*session.catalog);
    EXPECT_TRUE(loaded) << loaded.error();
    panel = std::move(*loaded);
    driver = std::make_unique<app::TourDriver>(std::move(*player));
    view = std::make_unique<Controls>(*driver, *panel, "en");
    view->setInteractive(true);
    std::vector<app::SimCommand> commands;
    driver->start(commands, true);
    for (auto& c : commands) session.sim->queue(std::move(c));
  }

  // One frame of a running simulation: 1/30 s of wall time.
  app::FrameResult frame() {
    app::FrameSpec spec;
    spec.dt_s = 1.0 / 30.0;
    spec.extent = {1280, 720};
    return app::runFrame(session, *view, spec);
  }

  const app::DrawnButton* find(const std::string& id) {
    for (const app::DrawnButton& b : app::drawnButtons())
      if (b.id == id) return &b;
    return nullptr;
  }

  // Scrolls the right column's panel to its end, as a visitor does with the wheel.
  void scrollPanelDown() {
    const app::ScreenRect r = session.ui->layout().panel;
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(0.5f * (r[0] + r[2]), 0.5f * (r[1] + r[3]));
    frame();
    io.MouseWheel = -50.0f;
    frame();
    io.MouseWheel = 0.0f;
    frame();
  }

  // Moves the pointer onto button `id`, presses and releases it; true when ImGui says it was
  // clicked.
  bool click(const std::string& id) {
    frame();  // the button where it is now (a window that just appeared is placed in its second)
    frame();
    const app::DrawnButton* b = find(id);
    if (!b) {
      return false;
    }

    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(0.5f * (b->rect[0] + b->rect[2]), 0.5f * (b->rect[1] + b->rect[3]));
    frame();  // hovered
    io.MouseDown[0] = true;
    frame();  // pressed
    io.MouseDown[0] = false;
    frame();  // released: clicked
    const app::DrawnButton* after = find(id);
    const bool pressed = after && after->pressed;
    io.MousePos = ImVec2(-1, -1);
    frame();
    return pressed;
  }
};

}  // namespace

TEST(Controls, EveryButtonOfEveryPanelTakesAClickWhileTheSimulationRuns) {
  Rig rig;
  app::SimHost& sim = *rig.session.sim;
  // The timeline.
  ASSERT_TRUE(rig.click("play"));  // pause
  rig.frame();
  EXPECT_TRUE(sim.paused());
  const double paused_s = sim.time_s();
  ASSERT_TRUE(rig.click("step"));
  rig.frame();
  EXPECT_GT(sim.time_s(), paused_s);
  ASSERT_TRUE(rig.click("play"));  // its label is "Play" now, its ID the same
  rig.frame();
  EXPECT_FALSE(sim.paused());
  const double speed = sim.speed();
  ASSERT_TRUE(rig.click("faster"));
  rig.frame();
  EXPECT_DOUBLE_EQ(sim.speed(), 2 * speed);
  ASSERT_TRUE(rig.click("slower"));
  rig.frame();
  EXPECT_DOUBLE_EQ(sim.speed(), speed);

  // Each chapter's panel: Reset and its simulation buttons.
  size_t buttonsClicked = 0;
  for (int key : {1, 2, 3, 4, 5, 6, 7, 8, 9, 0}) {
    ASSERT_TRUE(rig.driver->player().jumpToChapterKey(key));
    rig.driver->player().land();
    rig.frame();
    rig.frame();
    const app::PanelView* view = rig.panel->view();
    ASSERT_NE(view, nullptr);
    SCOPED_TRACE(view->id);
    if (!view->knobs.empty()) {
      EXPECT_TRUE(rig.click("reset"));
    }
    for (const app::PanelButtonView& b : view->buttons) {
      SCOPED_TRACE(b.id);
      const uint64_t generation = sim.generation();
      const size_t faults = sim.request().faults.size();
      ASSERT_TRUE(rig.click(b.id));
      sim.finishCatchUp();
      rig.frame();
      ++buttonsClicked;
      if (!b.engineScenario.empty()) {
        EXPECT_EQ(sim.request().scenario, b.engineScenario);
      } else {
        ASSERT_EQ(sim.request().faults.size(), faults + 1);  // injected into the running engine
        EXPECT_EQ(sim.request().faults.back().kind, b.inject->kind);
        EXPECT_GT(sim.generation(), generation);
      }
    }
  }
  EXPECT_EQ(buttonsClicked, 5u);  // rails on/off, pause storm, deadlock, trip a pump

  // The what-if panel: Inject (its label holds the running time), clear now, Apply, Reset fields.
  rig.view->whatIf.toggle();
  rig.frame();
  const size_t before = sim.request().faults.size();
  ASSERT_TRUE(rig.click("inject"));
  sim.finishCatchUp();
  rig.frame();
  ASSERT_EQ(sim.request().faults.size(), before + 1);
  ASSERT_TRUE(rig.click("clear"));  // the first fault's "clear now"
  sim.finishCatchUp();
  rig.frame();
  rig.scrollPanelDown();  // the fields are below the faults
  EXPECT_TRUE(rig.click("reset_fields"));
  const uint64_t generation = sim.generation();
  ASSERT_TRUE(rig.click("apply"));
  rig.frame();
  EXPECT_GT(sim.generation(), generation);  // restarted with the fields
}

TEST(Controls, AVisitorsFaultSurvivesTheStepsThatKeepTheSimulationAndIsReportedWhenCleared) {
  Rig rig;
  app::SimHost& sim = *rig.session.sim;
  ASSERT_TRUE(rig.driver->player().jumpToChapterKey(9));  // training_405b
  rig.driver->player().land();
  rig.frame();
  ASSERT_EQ(sim.request().scenario, "training_405b");
  // The visitor trips a pump.
  auto faults = sim::engine::injectFault(sim.request().faults, sim::engine::FaultKind::PumpTrip, 0,
                                         0, sim.time_s());
  ASSERT_TRUE(faults);
  sim.queue(app::SimCommand::restart({"training_405b", {}, *faults}, true));
  rig.frame();
  sim.finishCatchUp();
  ASSERT_EQ(sim.request().faults.size(), 1u);
  // ... and slows a GPU, then clears that (issue 38, item 5: a chapter's notice listed faults
  // already cleared as changes it undid).
  rig.frame();
  faults = sim::engine::injectFault(sim.request().faults, sim::engine::FaultKind::Straggler, 3, 0,
                                    sim.time_s());
  ASSERT_TRUE(faults);
  sim.queue(app::SimCommand::restart({"training_405b", {}, *faults}, true));
  rig.frame();
  sim.finishCatchUp();
  rig.frame();
  faults = sim::engine::clearFault(sim.request().faults, 1, sim.time_s());
  ASSERT_TRUE(faults);
  sim.queue(app::SimCommand::restart({"training_405b", {}, *faults}, true));
  rig.frame();
  sim.finishCatchUp();
  rig.frame();
  ASSERT_EQ(sim.request().faults.size(), 2u);
  ASSERT_LE(sim.request().faults[1].end_s, sim.time_s());
  // The next step and the chapter 10 key design the same simulation: the fault stays.
  rig.driver->next();
  rig.frame();
  rig.driver->next();
  rig.frame();
  EXPECT_EQ(sim.request().faults.size(), 2u);
  ASSERT_TRUE(rig.driver->player().jumpToChapterKey(0));
  rig.frame();
  EXPECT_EQ(sim.request().faults.size(), 2u) << "chapter 10 runs training_405b too";
  const uint64_t serial = sim.notice().serial;
  // Chapter 8 designs inference_70b: it replaces the run, and says the pump trip went (the slow
  // GPU had gone already).
  ASSERT_TRUE(rig.driver->player().jumpToChapterKey(8));
  rig.frame();
  EXPECT_EQ(sim.request().scenario, "inference_70b");
  EXPECT_TRUE(sim.request().faults.empty());
  ASSERT_GT(sim.notice().serial, serial);
  ASSERT_EQ(sim.notice().cleared.faults.size(), 1u);
  EXPECT_EQ(sim.notice().cleared.faults[0].kind, sim::engine::FaultKind::PumpTrip);
  EXPECT_EQ(sim.notice().cleared.chapter, rig.driver->player().frame().chapterTitle);
  // Back to chapter 9: its designed simulation again, whatever ran before (no fault of the
  // visitor left to clear, so no word).
  const uint64_t quiet = sim.notice().serial;
  ASSERT_TRUE(rig.driver->player().jumpToChapterKey(9));
  rig.frame();
  EXPECT_EQ(sim.request().scenario, "training_405b");
  EXPECT_TRUE(sim.request().faults.empty());
  EXPECT_EQ(sim.notice().serial, quiet);
}

TEST(Controls, AReleasedScrubHoldsWhereItWasLetGo) {
  // Issue 22: the slider re-read the engine's time every frame, so on release it snapped back to
  // "now" until the rerun was done. While the host catches up, the controls show its target.
  Rig rig;
  app::SimHost& sim = *rig.session.sim;
  sim.keepCheckpoints(true);
  rig.frame();  // the first step's simulation in place
  sim.runTo(60.0);
  sim.queue(app::SimCommand::scrub(5.0));
  sim.applyCommands();  // one slice of the catch-up
  ASSERT_TRUE(sim.catchingUp());
  const app::TimeState state{sim.time_s(),     sim.speed(),           sim.paused(),         60.0,
                             sim.catchingUp(), sim.catchUpTarget_s(), sim.catchUpProgress()};
  EXPECT_NEAR(app::shownTime_s(state), 5.0, 1e-9);
  EXPECT_GT(sim.time_s(), 50.0);                                  // the old engine still on screen
  EXPECT_LE(sim.stepsLastApply(), app::SimHost::CATCH_UP_STEPS);  // in slices: no freeze
  sim.finishCatchUp();
  EXPECT_NEAR(sim.time_s(), 5.0, 0.011);
}

TEST(Controls, ADraggedScrubGoesWhereTheSliderWasReleased) {
  // Issue 22's walk: the slider sent the engine's time again on release (ImGui writes no value in
  // the frame the button goes up, and the slider is refilled from the engine every frame), so a
  // drag through the real window went nowhere.
  Rig rig;
  app::SimHost& sim = *rig.session.sim;
  sim.keepCheckpoints(true);
  rig.frame();
  sim.runTo(60.0);
  rig.frame();
  rig.frame();
  const app::DrawnButton* slider = rig.find("scrub");
  ASSERT_NE(slider, nullptr);
  const app::ScreenRect r = slider->rect;
  const float y = 0.5f * (r[1] + r[3]);
  // The slider spans 0 .. now (about 60 s): a quarter of the way along, then half.
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(r[0] + 0.25f * (r[2] - r[0]), y);
  rig.frame();
  io.MouseDown[0] = true;
  rig.frame();
  io.MousePos = ImVec2(r[0] + 0.5f * (r[2] - r[0]), y);
  rig.frame();
  rig.frame();
  io.MouseDown[0] = false;
  rig.frame();  // released: the scrub is asked for ...
  io.MousePos = ImVec2(-1, -1);
  rig.frame();  // ... and the host starts on it
  // Half of the slider's 60 s, give or take the grab's width (a few px of ~700).
  if (sim.catchingUp()) {
    EXPECT_NEAR(sim.catchUpTarget_s(), 30.0, 2.0);
  }
  sim.finishCatchUp();
  EXPECT_NEAR(sim.time_s(), 30.0, 2.0);
}
