// The layout fits any window (issue 22): the UI rendered at 1024x600, 1280x720, 1920x1080 and
// 3840x2160 with everything on at once (title, narration, the chapter's panel, the timeline, the
// legend, the key help, the status line) puts no window over another, none outside the screen,
// clips none (a panel taller than its region scrolls instead), and its text is at least 18 px
// from 1280x720 up, growing with the window. On the old layout, at 1280x720 the timeline hid the
// chapter title, the panel ran into the key help and the status line was cut off.
#include <gtest/gtest.h>

#include "app/session/frame.h"
#include "app/session/session.h"
#include "app/session/tour_session.h"
#include "app/session/tour_view.h"
#include "app/ui/timeline_panel.h"
#include "app/ui/ui_text.h"
#include "renderer/vk/validation.h"

namespace {

// The window's tour view with every window it can show at once.
class EverythingOn : public app::TourView {
 public:
  using app::TourView::TourView;
  bool help = false;  // the key help takes the panel's place while it is shown
  app::HudInfo hud(app::FrameContext& context) override {
    app::HudInfo hud = TourView::hud(context);
    hud.timeline = true;
    if (help) hud.help = app::uiText("help.keys", "de");  // the longer language
    // The window's second line with a long selection (a rack picked in chapter 9's view).
    hud.status +=
        "\nyou are in: the campus · 747 m   ·   selected: Rack 2 (NVIDIA GB200 NVL72 rack): base"
        "   ·   30 fps   ·   H keys";
    return hud;
  }
  void drawWindows(app::FrameContext& context) override {
    TourView::drawWindows(context);
    const app::SimHost& sim = context.sim;
    app::drawTimeline(app::timelineOf(context.snapshot),
                      {sim.time_s(), sim.speed(), sim.paused(), sim.time_s()},
                      context.ui.layout().timeline, "de", context.commands);
  }
};

struct Size {
  uint32_t width, height;
};

}  // namespace

TEST(UiLayout, RegionsNeverOverlapAtAnyScale) {
  for (float em : {10.0f, 15.0f, 18.0f, 27.0f, 54.0f}) {
    for (bool timeline : {false, true}) {
      app::LayoutDesc d{em * 1280 / 18, em * 720 / 18, em};
      d.rightColumn = d.legend = true;
      d.help = timeline;  // with the key help instead of the panel, too
      d.timeline = timeline;
      const app::UiLayout l = app::layoutUi(d);
      const app::ScreenRect regions[] = {l.title,  l.caption, l.timeline, l.status,
                                         l.legend, l.panel,   l.help};
      for (size_t i = 0; i < std::size(regions); ++i) {
        if (app::emptyRect(regions[i])) continue;
        EXPECT_GE(regions[i][0], 0.0f);
        EXPECT_GE(regions[i][1], 0.0f);
        EXPECT_LE(regions[i][2], d.width);
        EXPECT_LE(regions[i][3], d.height);
        for (size_t j = 0; j < i; ++j)
          EXPECT_FALSE(app::overlaps(regions[i], regions[j])) << "regions " << i << " and " << j;
      }
    }
  }
}

TEST(UiLayout, TextSizeFollowsTheWindowTheMonitorAndTheUser) {
  EXPECT_EQ(app::uiFontPixels(1280, 720, 1.0f, 1.0), 18.0f);
  EXPECT_EQ(app::uiFontPixels(1920, 1080, 1.0f, 1.0), 27.0f);
  EXPECT_EQ(app::uiFontPixels(3840, 2160, 1.0f, 1.0), 54.0f);
  EXPECT_EQ(app::uiFontPixels(1024, 600, 1.0f, 1.0), 14.0f);  // 1024/1280 of 18 px
  EXPECT_EQ(app::uiFontPixels(1280, 720, 1.0f, 1.5), 27.0f);  // --ui-scale
  EXPECT_EQ(app::uiFontPixels(1024, 600, 2.0f, 1.0), 29.0f);  // a HiDPI monitor: 0.8 x 2 x 18
  EXPECT_EQ(app::uiFontPixels(2560, 720, 1.0f, 1.0), 18.0f);  // wide: the height rules
}

TEST(UiLayout, WindowsFitWithoutOverlapAtFourSizes) {
  app::RenderOptions options;
  options.validation = true;
  app::Session session;
  ASSERT_EQ(app::openSession(options, nullptr, app::fontPixelsFor(options.height), session), 0);
  const uint32_t errorsBefore = vkutil::validationErrorCount();
  world::TourPlayerDesc desc;
  desc.language = "de";
  desc.reducedMotion = true;
  auto player = app::makeTourPlayer(*session.world, "default", desc);
  ASSERT_TRUE(player) << player.error();
  auto panel = app::TourPanel::load(*session.catalog);
  ASSERT_TRUE(panel) << panel.error();
  app::TourDriver driver(std::move(*player));
  std::vector<app::SimCommand> commands;
  driver.start(commands, true);
  for (auto& c : commands) session.sim->queue(std::move(c));
  EverythingOn view(driver, *panel, "de");
  const Size sizes[] = {{1024, 600}, {1280, 720}, {1920, 1080}, {3840, 2160}};
  // The pixel race (a picture and 11 rows), the VRAM bar and the 3D-parallelism panel, each with
  // its heat overlay on: the legend takes its place too.
  for (int chapter : {1, 3, 9}) {
    ASSERT_TRUE(driver.player().jumpToChapterKey(chapter));
    driver.player().land();
    if (driver.overlay() == world::OverlayMetric::None) driver.cycleOverlay();
    float lastFont = 0;
    for (int variant = 0; variant < 3; ++variant) {
      const bool details = variant == 1;
      view.help = variant == 2;
      if (details != view.details()) view.toggleDetails();
      lastFont = 0;
      for (const Size& size : sizes) {
        SCOPED_TRACE("chapter " + std::to_string(chapter) + " at " + std::to_string(size.width) +
                     "x" + std::to_string(size.height) +
                     (details     ? ", every row"
                      : view.help ? ", key help"
                                  : ""));
        const app::FrameResult frame = app::renderStill(session, view, {size.width, size.height});
        const float font = session.ui->fontPixels();
        if (size.width >= 1280) {
          EXPECT_GE(font, 18.0f);
        }
        EXPECT_GT(font, lastFont);  // grows with the window
        lastFont = font;
        const auto& windows = session.ui->drawnWindows();
        std::vector<std::string> names;
        for (const app::DrawnWindow& w : windows) names.push_back(w.name);
        for (const char* wanted : {"##title", "##caption", "##status", "##legend", "##timeline",
                                   view.help ? "##help" : "##panel"}) {
          EXPECT_NE(std::find(names.begin(), names.end(), wanted), names.end()) << wanted;
        }
        for (size_t i = 0; i < windows.size(); ++i) {
          const app::DrawnWindow& w = windows[i];
          SCOPED_TRACE(w.name);
          EXPECT_GE(w.rect[0], 0.0f);
          EXPECT_GE(w.rect[1], 0.0f);
          EXPECT_LE(w.rect[2], float(size.width));
          EXPECT_LE(w.rect[3], float(size.height));
          EXPECT_FALSE(w.clipped) << "its content does not fit and does not scroll";
          if (w.name == "##title") {
            EXPECT_FALSE(w.scrolls);
          }
          for (size_t j = 0; j < i; ++j) {
            EXPECT_FALSE(app::overlaps(w.rect, windows[j].rect)) << "over " << windows[j].name;
          }
        }
        EXPECT_FALSE(frame.pixels.rgba.empty());
      }
    }
  }
  EXPECT_EQ(vkutil::validationErrorCount(), errorsBefore);
}
