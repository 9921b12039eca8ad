// The tour driver's visitor choices (issue 22): an overlay or traffic toggle chosen in one
// chapter holds for that chapter's later steps and gives way to the next chapter's designed
// ones (it used to override every later step of the tour).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/session/tour_driver.h"
#include "app/session/tour_session.h"
#include "tests/world/world_test_fixture.h"

namespace {

app::TourDriver defaultTour() {
  world::TourPlayerDesc desc;
  desc.reducedMotion = true;
  auto player = app::makeTourPlayer(worldtest::defaultWorld(), "default", desc);
  EXPECT_TRUE(player) << player.error();
  return app::TourDriver(std::move(*player));
}

TEST(TourDriver, AChosenOverlayAndTrafficHoldForTheChapterAndNotBeyond) {
  app::TourDriver driver = defaultTour();
  std::vector<app::SimCommand> commands;
  driver.start(commands, /*cut=*/true);
  const world::TourFrame first = driver.player().frame();
  ASSERT_EQ(first.chapter, 0u);
  driver.cycleOverlay();
  driver.toggleTraffic();
  const world::OverlayMetric chosen = driver.overlay();
  EXPECT_NE(chosen, first.overlays.heat);
  EXPECT_NE(driver.traffic(), first.overlays.layers.has(world::LayerId::Traffic));
  const bool chosenTraffic = driver.traffic();

  // The chapter's next step keeps the visitor's choice.
  ASSERT_TRUE(driver.player().nextStep());
  driver.advance(0, commands);
  ASSERT_EQ(driver.player().frame().chapter, 0u);
  EXPECT_EQ(driver.overlay(), chosen);
  EXPECT_EQ(driver.traffic(), chosenTraffic);

  // Chapter 3 (out of memory) is designed without a heat overlay or traffic: both as designed.
  ASSERT_TRUE(driver.player().jumpToChapterKey(3));
  driver.advance(0, commands);
  const world::TourFrame third = driver.player().frame();
  ASSERT_EQ(third.chapterNumber, 3);
  EXPECT_EQ(driver.overlay(), third.overlays.heat);
  EXPECT_EQ(driver.traffic(), third.overlays.layers.has(world::LayerId::Traffic));
  EXPECT_NE(driver.overlay(), chosen);
  EXPECT_NE(driver.traffic(), chosenTraffic);

  // Back in chapter 1 the old choice does not return.
  ASSERT_TRUE(driver.player().jumpToChapterKey(1));
  driver.advance(0, commands);
  EXPECT_EQ(driver.overlay(), driver.player().frame().overlays.heat);
  EXPECT_EQ(driver.traffic(), driver.player().frame().overlays.layers.has(world::LayerId::Traffic));
}

TEST(TourDriver, AChoiceMadeRightAfterAChapterKeyHoldsInThatChapter) {
  app::TourDriver driver = defaultTour();
  std::vector<app::SimCommand> commands;
  driver.start(commands, /*cut=*/true);
  // The key and the choice in one frame, before the driver follows the new chapter.
  ASSERT_TRUE(driver.player().jumpToChapterKey(3));
  driver.cycleOverlay();
  const world::OverlayMetric chosen = driver.overlay();
  EXPECT_NE(chosen, driver.player().frame().overlays.heat);
  driver.advance(0, commands);
  EXPECT_EQ(driver.overlay(), chosen);
}

}  // namespace
