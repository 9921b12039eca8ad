// Booth mode around the tour (app/modes/booth.h): the attract loop's line, the how-to hint for a
// visitor who just woke the booth, the narration once they use the keys, and the clean start the
// attract loop gives the next visitor.
#include <gtest/gtest.h>

#include "app/modes/booth.h"
#include "app/session/session.h"
#include "app/ui/ui_text.h"
#include "world/tour/tour_player.h"

TEST(Booth, TheWokenHintGivesWayToTheNarrationAtTheFirstPresenterKey) {
  // Issue 22's walk: the hint replaced every step's line for 12 s after waking, so a visitor
  // pressing -> at once saw the picture change and never the words.
  app::RenderOptions options;
  app::Session session;
  ASSERT_EQ(app::openSession(options, nullptr, app::fontPixelsFor(options.height), session), 0);
  app::Booth booth(*session.world, "default", {}, app::KioskDesc{90.0, 15.0}, false);
  auto player = booth.attractPlayer();
  ASSERT_TRUE(player) << player.error();
  app::TourDriver driver(std::move(*player));
  std::vector<app::SimCommand> commands;
  driver.start(commands, true);
  EXPECT_EQ(booth.hint(), app::uiText("kiosk.attract", "en"));
  for (app::KioskInput key :
       {app::KioskInput::Next, app::KioskInput::Prev, app::KioskInput::Chapter}) {
    booth.update({{app::KioskInput::AnyKey}}, 0.1, driver, commands);  // wakes it
    ASSERT_EQ(booth.state(), app::KioskState::Tour);
    EXPECT_EQ(booth.hint(), app::uiText("kiosk.woken", "en"));
    booth.update({}, 5.0, driver, commands);  // looking, not yet pressing
    EXPECT_EQ(booth.hint(), app::uiText("kiosk.woken", "en"));
    booth.update({{key, 3}}, 0.1, driver, commands);
    EXPECT_EQ(booth.hint(), "") << "the step's line stays hidden behind the how-to";
    booth.update({}, 200.0, driver, commands);  // walks away: back to the attract loop
    ASSERT_EQ(booth.state(), app::KioskState::Attract);
  }
}

// A clean start for every visitor (issue 37): whatever a visitor did — chapters jumped to, steps
// paged that inject faults (the protocol war's pause storm, the AllReduce chapter's straggler) —
// the attract loop that follows is the booth's own: the same step, view and overlays a fresh
// booth opens with, and the simulation it asks for is that step's own, with no fault left over.
TEST(Booth, AVisitorLeavesNothingBehindWhenTheAttractLoopReturns) {
  app::RenderOptions options;
  app::Session session;
  ASSERT_EQ(app::openSession(options, nullptr, app::fontPixelsFor(options.height), session), 0);
  app::Booth booth(*session.world, "default", {}, app::KioskDesc{90.0, 15.0}, false);
  auto fresh = booth.attractPlayer();
  ASSERT_TRUE(fresh) << fresh.error();
  std::vector<app::SimCommand> freshCommands;
  app::TourDriver reference(std::move(*fresh));
  reference.start(freshCommands, true);
  const world::TourFrame own = reference.player().frame();

  auto player = booth.attractPlayer();
  ASSERT_TRUE(player) << player.error();
  app::TourDriver driver(std::move(*player));
  std::vector<app::SimCommand> commands;
  driver.start(commands, true);
  booth.update({{app::KioskInput::AnyKey}}, 0.1, driver, commands);  // a visitor wakes it
  ASSERT_EQ(booth.state(), app::KioskState::Tour);
  bool faulted = false;
  for (int chapter : {7, 6}) {
    booth.update({{app::KioskInput::Chapter, chapter}}, 0.1, driver, commands);
    for (int page = 0; page < 6; ++page) {
      booth.update({{app::KioskInput::Next}}, 0.1, driver, commands);
      faulted = faulted || !driver.player().frame().faults.empty();
    }
  }
  ASSERT_TRUE(faulted) << "the visitor's walk reached no step with a fault";
  commands.clear();
  booth.update({}, 200.0, driver, commands);  // walks away: the countdown, then the loop
  ASSERT_EQ(booth.state(), app::KioskState::Attract);

  const world::TourFrame now = driver.player().frame();
  EXPECT_EQ(now.chapter, own.chapter);
  EXPECT_EQ(now.step, own.step);
  EXPECT_EQ(now.station, own.station);
  EXPECT_TRUE(now.overlays == own.overlays);
  EXPECT_TRUE(now.faults == own.faults);
  // The last simulation the booth asked for is the attract step's own.
  const app::SimCommand* last = nullptr;
  for (const app::SimCommand& c : commands)
    if (c.kind == app::SimCommand::Kind::Restart) last = &c;
  ASSERT_NE(last, nullptr) << "the return to the attract loop restarted no simulation";
  EXPECT_EQ(last->request.scenario, own.engineScenario);
  EXPECT_TRUE(last->request.overrides.empty());
  EXPECT_TRUE(last->request.faults == own.faults);
}
