// Getting about the tour in the window (issue 38). Free flight starts where the visitor is: a tap
// of W at any chapter's station keeps that station's studio and moves at the scale of what it
// shows. It once threw the camera from the scalable unit and the fabric into "the campus · 1.64
// km": leaving the path dropped the studio, so the hall's walls closed round a camera that flew at
// the campus's pace. And a chapter key pressed in free flight flies to that chapter (it once
// changed the title and the panel and left the camera where it was).
#include <gtest/gtest.h>

#include "app/session/frame.h"
#include "app/session/session.h"
#include "app/session/tour_session.h"
#include "app/session/tour_view.h"
#include "world/live/selection.h"

namespace {

struct Flight {
  app::Session session;
  std::optional<app::TourPanel> panel;
  std::unique_ptr<app::TourDriver> driver;
  std::unique_ptr<app::TourView> view;

  Flight() {
    app::RenderOptions options;
    EXPECT_EQ(app::openSession(options, nullptr, app::fontPixelsFor(options.height), session), 0);
    auto player = app::makeTourPlayer(*session.world, "default", {});
    EXPECT_TRUE(player) << player.error();
    auto loaded = app::TourPanel::load(*session.catalog);
    EXPECT_TRUE(loaded) << loaded.error();
    panel = std::move(*loaded);
    driver = std::make_unique<app::TourDriver>(std::move(*player));
    view = std::make_unique<app::TourView>(*driver, *panel, "en");
    std::vector<app::SimCommand> commands;
    driver->start(commands, true);
    for (auto& c : commands) session.sim->queue(std::move(c));
  }

  // A window frame at 30 frames a second.
  app::FrameResult frame() {
    app::FrameSpec spec;
    spec.dt_s = 1.0 / 30.0;
    spec.extent = {1280, 720};
    return app::runFrame(session, *view, spec);
  }
};

// Where the camera is, in the studio the frame is drawn in.
world::Whereabouts here(const Flight& f) {
  const world::Camera& c = f.driver->camera();
  return world::locate(*f.session.world, c.position(), c.forward(), f.view->studio());
}

}  // namespace

TEST(FreeFlight, ATapOfWAtEveryChapterKeepsItsStudioAndItsScale) {
  Flight f;
  const world::World& w = *f.session.world;
  ASSERT_GE(f.driver->player().tour().chapters.size(), 10u);
  size_t checked = 0;
  // The number keys 1-9 and 0, each pressed in the free flight the previous chapter left.
  for (int key : {1, 2, 3, 4, 5, 6, 7, 8, 9, 0}) {
    f.driver->chapter(key);
    EXPECT_FALSE(f.driver->player().frame().freeFlight) << "key " << key;
    f.driver->player().land();
    f.frame();
    const world::TourFrame step = f.driver->player().frame();
    EXPECT_EQ(step.chapterNumber, key == 0 ? 10 : key);
    EXPECT_LT(glm::length(f.driver->camera().position() - world::toPose(step.target).position),
              1e-6 * step.target.distance_m);
    const world::Station* station = w.station(step.station);
    if (!station) continue;  // a step framed by an explicit orbit has no studio to keep
    SCOPED_TRACE(step.chapterTitle + " at " + station->name);
    ASSERT_EQ(f.view->studio(), station->name);
    const glm::dvec3 before = f.driver->camera().position();
    // A 0.3 s tap of W, as a visitor's first try: nine frames.
    for (int i = 0; i < 9; ++i) {
      f.view->fly({0, 0, 1}, 1.0 / 30.0, w);
      f.frame();
    }
    EXPECT_TRUE(f.driver->player().frame().freeFlight);
    const world::Whereabouts at = here(f);
    // Still in the chapter's studio, at the size of what it shows, not in the campus's sky.
    EXPECT_EQ(f.view->studio(), station->name);
    EXPECT_LE(at.scale_m, station->scale_m * (1 + 1e-9));
    if (station->name != "campus") {
      EXPECT_NE(at.kind, world::Whereabouts::Kind::Campus);
    }
    // It moved, and by less than half the way to what the station frames.
    const double moved = glm::length(f.driver->camera().position() - before);
    EXPECT_GT(moved, 0.0);
    EXPECT_LT(moved, 0.5 * station->viewpoint.distance_m);
    ++checked;
  }
  EXPECT_GE(checked, 10u);
}

TEST(FreeFlight, FlyingFarFromTheStudioLeavesIt) {
  Flight f;
  const world::World& w = *f.session.world;
  const world::Station* rack = w.station("rack");
  ASSERT_NE(rack, nullptr);
  // The chapter whose first step frames the rack.
  bool found = false;
  for (size_t chapter = 0; !found && chapter < f.driver->player().tour().chapters.size();
       ++chapter) {
    f.driver->player().jumpToChapter(chapter);
    found = f.driver->player().frame().station == "rack";
  }
  ASSERT_TRUE(found);
  f.driver->player().land();
  f.frame();
  f.view->fly({0, 0, -1}, 1.0 / 30.0, w);
  f.frame();
  EXPECT_EQ(f.view->studio(), "rack");
  // Four framing distances back from the rack (the studio reaches three): no longer its studio.
  world::Camera& camera = f.driver->camera();
  world::Pose far = camera.pose();
  far.position = rack->viewpoint.target - camera.forward() * (4.0 * rack->viewpoint.distance_m);
  camera.setPose(far);
  f.frame();
  EXPECT_NE(f.view->studio(), "rack");
}

namespace {

// Frames until the ladder flight under way has landed (at most a minute of them).
void land(Flight& f) {
  for (int i = 0; i < 1800 && f.driver->flying(); ++i) f.frame();
  f.frame();
}

// After landing on `rung`: in its studio, at its size, with its subject under the centre of the
// view (not an empty sky).
void expectAt(Flight& f, const std::string& rung) {
  const world::World& w = *f.session.world;
  const world::Station* s = w.station(rung);
  ASSERT_NE(s, nullptr);
  EXPECT_FALSE(f.driver->flying());
  EXPECT_EQ(f.view->studio(), rung);
  EXPECT_LE(here(f).scale_m, s->scale_m * (1 + 1e-9));
  const world::FrameDesc frame{1280, 720};
  EXPECT_TRUE(w.pick(f.driver->camera(), 640, 360, frame).has_value()) << "nothing at the centre";
}

}  // namespace

TEST(FreeFlight, MinusAndPlusWalkTheLadderFromTheSmToTheCampusAndBackOneRungAtATime) {
  // Issue 38, item 6: - from the scalable unit skipped the data hall and landed on the campus,
  // + from the cooling plant gave an empty sky. From the SM's chapter, - (zoom(+1)) to the
  // campus, then + back to the SM, landing on every rung of the ladder in its order.
  Flight f;
  const world::World& w = *f.session.world;
  std::vector<std::string> ladder;
  for (const world::Station& s : w.stations())
    if (s.onLadder) ladder.push_back(s.name);
  ASSERT_EQ(ladder.front(), "sm");
  ASSERT_EQ(ladder.back(), "campus");
  f.driver->chapter(2);
  f.driver->player().land();
  f.frame();
  ASSERT_EQ(f.view->studio(), "sm");
  for (size_t k = 1; k < ladder.size(); ++k) {
    SCOPED_TRACE("out to " + ladder[k]);
    ASSERT_TRUE(f.view->zoom(+1, w));
    land(f);
    expectAt(f, ladder[k]);
  }
  EXPECT_FALSE(f.view->zoom(+1, w));  // the campus is the top
  for (size_t k = ladder.size() - 1; k-- > 0;) {
    SCOPED_TRACE("in to " + ladder[k]);
    ASSERT_TRUE(f.view->zoom(-1, w));
    land(f);
    expectAt(f, ladder[k]);
  }
  EXPECT_FALSE(f.view->zoom(-1, w));  // the SM is the bottom
}

TEST(FreeFlight, ALadderStepFromAChaptersViewGoesToTheNextRungOfItsStation) {
  // A chapter frames its station from a view of its own: the rung is the station's, not the
  // one nearest that view.
  Flight f;
  const world::World& w = *f.session.world;
  for (int key : {1, 2, 3, 4, 5, 6, 7, 8, 9, 0}) {
    f.driver->chapter(key);
    f.driver->player().land();
    f.frame();
    const world::Station* s = w.station(f.driver->player().frame().station);
    if (!s || !s->onLadder) continue;
    for (int direction : {+1, -1}) {
      const auto next = world::neighbourOnLadder(w.stations(), s->name, direction);
      if (!next) continue;
      SCOPED_TRACE(s->name + (direction > 0 ? " out" : " in"));
      f.driver->chapter(key);
      f.driver->player().land();
      f.frame();
      ASSERT_TRUE(f.view->zoom(direction, w));
      land(f);
      expectAt(f, w.stations()[*next].name);
    }
  }
}

TEST(TourHint, TheWindowSaysWhichStepOfHowManyAndWhatMovesItOn) {
  // Issue 38, item 7: a newcomer was not told what to do: no "Space: next" hint in the window
  // (the kiosk has one), no step counter, no auto-advance.
  Flight f;
  f.view->setInteractive(true);
  // The pages Space turns: each step's narration chunks and its call to action, counted here.
  const auto beats = [](const world::TourStep& s) {
    return s.narration.size() + (s.action.empty() ? 0 : 1);
  };
  size_t total = 0;
  for (const auto& [c, s] : f.driver->player().order())
    total += beats(f.driver->player().tour().chapters[c].steps[s]);
  ASSERT_GT(total, 50u);
  const std::string of = " / " + std::to_string(total);
  app::HudInfo hud = f.frame().hud;
  EXPECT_NE(hud.subtitle.find("Step 1" + of), std::string::npos) << hud.subtitle;
  EXPECT_NE(hud.subtitle.find("Space: next"), std::string::npos) << hud.subtitle;
  // Every Space turns one page.
  f.driver->next();
  f.driver->next();
  hud = f.frame().hud;
  EXPECT_NE(hud.subtitle.find("Step 3" + of), std::string::npos) << hud.subtitle;
  // Chapter 10's first page comes after every page of the steps played before it.
  f.driver->chapter(0);
  size_t before = 0;
  for (const auto& [c, s] : f.driver->player().order()) {
    if (c == f.driver->player().frame().chapter) break;
    before += beats(f.driver->player().tour().chapters[c].steps[s]);
  }
  hud = f.frame().hud;
  EXPECT_NE(hud.subtitle.find("Step " + std::to_string(before + 1) + of), std::string::npos)
      << hud.subtitle;
  // G: the tour plays by itself, and says how to stop it; in German too.
  f.driver->player().setAutoAdvance(true);
  hud = f.frame().hud;
  EXPECT_NE(hud.subtitle.find("G: stop"), std::string::npos) << hud.subtitle;
  f.view->setLanguage("de");
  hud = f.frame().hud;
  EXPECT_NE(hud.subtitle.find("anhalten"), std::string::npos) << hud.subtitle;
  // In free flight the caption says how to come back; a headless tour (nobody at the keys) has
  // no hint.
  f.view->fly({0, 0, 1}, 1.0 / 30.0, *f.session.world);
  EXPECT_TRUE(f.frame().hud.subtitle.empty());
  f.driver->returnToPath();
  f.view->setInteractive(false);
  EXPECT_TRUE(f.frame().hud.subtitle.empty());
}
