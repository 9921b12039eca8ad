// Booth mode: attract -> tour -> idle warning -> attract, presenter keys, blanking, and the
// operator's quit chord as the only way out.
#include <gtest/gtest.h>

#include <cmath>

#include "app/modes/kiosk.h"

using app::KioskInput;
using app::KioskMachine;
using app::KioskState;

namespace {

// Lets `seconds` pass in frames of `dt_s` with no input; returns the last output.
app::KioskOutput idle(KioskMachine& kiosk, double seconds, double dt_s = 1.0 / 60.0,
                      bool* sawStartAttract = nullptr) {
  app::KioskOutput out;
  const int frames = static_cast<int>(std::round(seconds / dt_s));
  for (int i = 0; i < frames; ++i) {
    out = kiosk.update(KioskInput::None, dt_s);
    if (sawStartAttract && out.startAttract) *sawStartAttract = true;
  }
  return out;
}

}  // namespace

TEST(Kiosk, StartsInAttractAndStaysThereWithoutAnyone) {
  KioskMachine kiosk;
  EXPECT_EQ(kiosk.state(), KioskState::Attract);
  const auto out = idle(kiosk, 3600.0, 0.5);  // an hour on the booth floor
  EXPECT_EQ(out.state, KioskState::Attract);
  EXPECT_FALSE(out.startTour);
  EXPECT_FALSE(out.quit);
}

TEST(Kiosk, AnyKeyStartsTheTourWithoutPassingTheKeyOn) {
  for (KioskInput input : {KioskInput::AnyKey, KioskInput::Next, KioskInput::Prev}) {
    KioskMachine kiosk;
    const auto out = kiosk.update(input, 0.016);
    EXPECT_EQ(out.state, KioskState::Tour);
    EXPECT_TRUE(out.startTour);
    EXPECT_FALSE(out.next);  // the touch starts the tour; it does not also skip a beat
    EXPECT_FALSE(out.prev);
  }
  KioskMachine kiosk;
  const auto out = kiosk.update({KioskInput::Chapter, 7}, 0.016);
  EXPECT_TRUE(out.startTour);
  EXPECT_EQ(out.chapterDigit, 7);
}

TEST(Kiosk, IdleTimeoutWarnsThenCountsDownBackToAttract) {
  KioskMachine kiosk({.idleTimeout_s = 90.0, .warningDuration_s = 15.0});
  kiosk.update(KioskInput::AnyKey, 0.0);
  ASSERT_EQ(kiosk.state(), KioskState::Tour);
  auto out = idle(kiosk, 89.0);
  EXPECT_EQ(out.state, KioskState::Tour);
  out = idle(kiosk, 1.5);
  EXPECT_EQ(out.state, KioskState::IdleWarning);
  // 90.5 s idle: 0.5 s of the 15 s countdown is gone.
  EXPECT_NEAR(out.warningLeft_s, 14.5, 0.05);
  bool startAttract = false;
  out = idle(kiosk, 14.0, 1.0 / 60.0, &startAttract);
  EXPECT_EQ(out.state, KioskState::IdleWarning);
  EXPECT_NEAR(out.warningLeft_s, 0.5, 0.05);
  EXPECT_FALSE(startAttract);
  out = idle(kiosk, 1.0, 1.0 / 60.0, &startAttract);
  EXPECT_EQ(out.state, KioskState::Attract);
  EXPECT_TRUE(startAttract);
  EXPECT_DOUBLE_EQ(out.warningLeft_s, 0.0);
}

TEST(Kiosk, InputDuringTheTourResetsTheIdleClock) {
  KioskMachine kiosk({.idleTimeout_s = 90.0, .warningDuration_s = 15.0});
  kiosk.update(KioskInput::AnyKey, 0.0);
  for (int i = 0; i < 10; ++i) {  // 10 x 80 s = 800 s, never 90 s quiet
    idle(kiosk, 80.0, 0.5);
    const auto out = kiosk.update(KioskInput::Next, 0.0);
    EXPECT_EQ(out.state, KioskState::Tour);
    EXPECT_TRUE(out.next);
  }
  EXPECT_DOUBLE_EQ(kiosk.idle_s(), 0.0);
}

TEST(Kiosk, TouchDuringTheWarningDismissesItAndIsConsumed) {
  KioskMachine kiosk({.idleTimeout_s = 10.0, .warningDuration_s = 5.0});
  kiosk.update(KioskInput::AnyKey, 0.0);
  idle(kiosk, 12.0, 0.1);
  ASSERT_EQ(kiosk.state(), KioskState::IdleWarning);
  const auto out = kiosk.update(KioskInput::Next, 0.1);
  EXPECT_EQ(out.state, KioskState::Tour);
  EXPECT_FALSE(out.next);  // "I am still here" does not also advance the tour
  EXPECT_FALSE(out.startAttract);
  EXPECT_EQ(kiosk.update(KioskInput::Next, 0.1).next, true);
  // The clock started over: a full timeout again before the next warning.
  EXPECT_EQ(idle(kiosk, 9.5, 0.1).state, KioskState::Tour);
}

TEST(Kiosk, OneLongFrameCanCrossBothTimeouts) {
  KioskMachine kiosk({.idleTimeout_s = 90.0, .warningDuration_s = 15.0});
  kiosk.update(KioskInput::AnyKey, 0.0);
  const auto out = kiosk.update(KioskInput::None, 200.0);  // e.g. the machine was suspended
  EXPECT_EQ(out.state, KioskState::Attract);
  EXPECT_TRUE(out.startAttract);
}

TEST(Kiosk, PresenterKeysDriveTheTour) {
  KioskMachine kiosk;
  kiosk.update(KioskInput::AnyKey, 0.0);
  auto out = kiosk.update(KioskInput::Next, 0.1);
  EXPECT_TRUE(out.next);
  EXPECT_FALSE(out.prev);
  out = kiosk.update(KioskInput::Prev, 0.1);
  EXPECT_TRUE(out.prev);
  EXPECT_FALSE(out.next);
  out = kiosk.update({KioskInput::Chapter, 0}, 0.1);
  EXPECT_EQ(out.chapterDigit, 0);
  out = kiosk.update(KioskInput::AnyKey, 0.1);
  EXPECT_FALSE(out.next || out.prev || out.startTour || out.startAttract || out.quit);
  EXPECT_EQ(out.chapterDigit, -1);
}

TEST(Kiosk, BlankTogglesAndTheNextTouchOnlyUnblanks) {
  KioskMachine kiosk;
  kiosk.update(KioskInput::AnyKey, 0.0);
  auto out = kiosk.update(KioskInput::Blank, 0.1);
  EXPECT_TRUE(out.blanked);
  out = kiosk.update(KioskInput::Blank, 0.1);
  EXPECT_FALSE(out.blanked);
  out = kiosk.update(KioskInput::Blank, 0.1);
  ASSERT_TRUE(out.blanked);
  out = kiosk.update(KioskInput::Next, 0.1);
  EXPECT_FALSE(out.blanked);
  EXPECT_FALSE(out.next);  // the picture comes back first
  EXPECT_TRUE(kiosk.update(KioskInput::Next, 0.1).next);

  // Blank works in attract too, without starting the tour.
  KioskMachine attract;
  out = attract.update(KioskInput::Blank, 0.1);
  EXPECT_TRUE(out.blanked);
  EXPECT_EQ(out.state, KioskState::Attract);
  EXPECT_FALSE(out.startTour);
}

TEST(Kiosk, IdleWarningUnblanksSoTheCountdownIsSeen) {
  KioskMachine kiosk({.idleTimeout_s = 10.0, .warningDuration_s = 5.0});
  kiosk.update(KioskInput::AnyKey, 0.0);
  kiosk.update(KioskInput::Blank, 0.0);
  const auto out = idle(kiosk, 11.0, 0.1);
  EXPECT_EQ(out.state, KioskState::IdleWarning);
  EXPECT_FALSE(out.blanked);
}

TEST(Kiosk, OnlyTheQuitChordQuits) {
  for (KioskState start : {KioskState::Attract, KioskState::Tour, KioskState::IdleWarning}) {
    KioskMachine kiosk({.idleTimeout_s = 10.0, .warningDuration_s = 5.0});
    if (start != KioskState::Attract) kiosk.update(KioskInput::AnyKey, 0.0);
    if (start == KioskState::IdleWarning) idle(kiosk, 11.0, 0.1);
    ASSERT_EQ(kiosk.state(), start);
    // Everything a visitor can press, Escape included (it arrives as AnyKey).
    for (KioskInput input :
         {KioskInput::None, KioskInput::AnyKey, KioskInput::Next, KioskInput::Prev,
          KioskInput::Chapter, KioskInput::Blank, KioskInput::TourEnded}) {
      KioskMachine copy = kiosk;
      EXPECT_FALSE(copy.update({input, 3}, 0.1).quit) << app::kioskStateName(start);
    }
    const auto out = kiosk.update(KioskInput::QuitChord, 0.1);
    EXPECT_TRUE(out.quit) << app::kioskStateName(start);
    EXPECT_EQ(out.state, start);
  }
}

TEST(Kiosk, TheEndOfTheTourReturnsToAttract) {
  KioskMachine kiosk;
  kiosk.update(KioskInput::AnyKey, 0.0);
  const auto out = kiosk.update(KioskInput::TourEnded, 0.1);
  EXPECT_EQ(out.state, KioskState::Attract);
  EXPECT_TRUE(out.startAttract);
  // In attract the loop restarts itself: the end of a highlight pass changes nothing.
  const auto again = kiosk.update(KioskInput::TourEnded, 0.1);
  EXPECT_EQ(again.state, KioskState::Attract);
  EXPECT_FALSE(again.startAttract);
}

TEST(Kiosk, ADayOnTheBoothFloorCyclesWithoutDrift) {
  // Every 10 minutes a visitor starts the tour, presses next 5 times, walks away.
  KioskMachine kiosk({.idleTimeout_s = 90.0, .warningDuration_s = 15.0});
  int tours = 0, attracts = 0;
  for (int visitor = 0; visitor < 48; ++visitor) {  // 8 hours
    if (kiosk.update(KioskInput::AnyKey, 0.0).startTour) ++tours;
    for (int i = 0; i < 5; ++i) {
      idle(kiosk, 20.0, 0.5);
      kiosk.update(KioskInput::Next, 0.0);
    }
    bool startAttract = false;
    idle(kiosk, 500.0, 0.5, &startAttract);  // 105 s to attract, then attract
    attracts += startAttract ? 1 : 0;
    EXPECT_EQ(kiosk.state(), KioskState::Attract);
  }
  EXPECT_EQ(tours, 48);
  EXPECT_EQ(attracts, 48);
}

TEST(Kiosk, StateNames) {
  EXPECT_STREQ(app::kioskStateName(KioskState::Attract), "attract");
  EXPECT_STREQ(app::kioskStateName(KioskState::Tour), "tour");
  EXPECT_STREQ(app::kioskStateName(KioskState::IdleWarning), "idle_warning");
}
