// Booth mode around the tour (app/modes/booth.h): the attract loop's line, the how-to hint for a
// visitor who just woke the booth, and the narration once they use the keys.
#include <gtest/gtest.h>

#include "app/modes/booth.h"
#include "app/session/session.h"
#include "app/ui/ui_text.h"

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
