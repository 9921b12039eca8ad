// The text modes (issue 21): every step of the tour rendered in booth mode at 1920x1080 carries
// at most 25 words in English and German, counting every text drawn (windows and labels in the
// world), with a headline of at least 48 px and no label in the world (none names the station
// at the screen's centre); the clean plate (tour --text off, shot --clean) draws no window and
// no label at all. Before, each frame carried 120 to 250 words at about 13 px.
#include <gtest/gtest.h>

#include "app/session/frame.h"
#include "app/session/session.h"
#include "app/session/tour_session.h"
#include "app/session/tour_view.h"

namespace {

// Words: runs of characters between spaces (no-break spaces too) holding a letter or a digit
// (dashes, slashes and dots alone are not words).
size_t countWords(const std::string& text) {
  size_t n = 0;
  std::string word;
  auto flush = [&] {
    for (char c : word) {
      if (std::isalnum(static_cast<unsigned char>(c))) {
        ++n;
        break;
      }
    }
    word.clear();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == ' ' || text[i] == '\n' || text[i] == '\t') {
      flush();
    } else if (text.compare(i, 2, "\u00a0") == 0) {
      flush();
      ++i;
    } else {
      word += text[i];
    }
  }
  flush();
  return n;
}

// Visible characters: code points that are not spaces (what ImGui draws a glyph quad for).
size_t visibleCharacters(const std::string& text) {
  size_t n = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) == 0x80) continue;  // a continuation byte
    if (c == ' ' || c == '\n' || text.compare(i, 2, "\u00a0") == 0) continue;
    ++n;
  }
  return n;
}

}  // namespace

TEST(TextModes, WordsAreCounted) {
  EXPECT_EQ(countWords("24.5\u00a0GB / 80\u00a0GB — fits"), 5u);
  EXPECT_EQ(countWords("3. The 3 AM CUDA out-of-memory crash\nOne line."), 9u);
}

TEST(TextModes, BoothFramesCarryAtMost25WordsAndA48PixelHeadline) {
  app::RenderOptions options;
  options.width = 1920;
  options.height = 1080;
  app::Session session;
  ASSERT_EQ(app::openSession(options, nullptr, app::fontPixelsFor(options.height), session), 0);
  auto panel = app::TourPanel::load(*session.catalog);
  ASSERT_TRUE(panel) << panel.error();
  session.ui->setTextCapture(true);
  size_t most = 0, frames = 0;
  for (const std::string language : {"en", "de"}) {
    world::TourPlayerDesc desc;
    desc.language = language;
    desc.reducedMotion = true;
    auto player = app::makeTourPlayer(*session.world, "default", desc);
    ASSERT_TRUE(player) << player.error();
    app::TourDriver driver(std::move(*player));
    std::vector<app::SimCommand> commands;
    driver.start(commands, true);
    for (auto& c : commands) session.sim->queue(std::move(c));
    app::TourView view(driver, *panel, language);
    view.setTextMode(app::TextMode::Booth);
    do {
      const world::TourFrame frame = driver.player().frame();
      SCOPED_TRACE(language + " chapter " + std::to_string(frame.chapter + 1) + " step " +
                   std::to_string(frame.step + 1));
      app::renderStill(session, view, {options.width, options.height});
      const std::string& text = session.ui->capturedText();
      const size_t words = countWords(text);
      most = std::max(most, words);
      ++frames;
      EXPECT_LE(words, 25u) << text;
      // Every glyph of the frame is in the text counted: nothing else drew any.
      EXPECT_EQ(session.ui->glyphQuads(), visibleCharacters(text)) << text;
      EXPECT_GE(session.ui->headlinePixels(), 48.0f) << text;
      EXPECT_TRUE(session.ui->placedLabels().empty()) << session.ui->placedLabels().front().text;
      std::string oneLine = text;
      for (char& c : oneLine) c = c == '\n' ? ' ' : c;
      EXPECT_NE(oneLine.find(frame.chapterTitle), std::string::npos) << text;
    } while (driver.player().nextStep());
  }
  std::printf("booth: %zu frames, at most %zu words\n", frames, most);
  session.ui->setTextCapture(false);
}

TEST(TextModes, TheCleanPlateDrawsNoTextAtAll) {
  app::RenderOptions options;
  app::Session session;
  ASSERT_EQ(app::openSession(options, nullptr, app::fontPixelsFor(options.height), session), 0);
  session.ui->setTextCapture(true);
  // shot --clean: a station with its overlay and live labels in the render list.
  app::StationView station;
  const world::Station* rack = session.world->station("rack");
  ASSERT_NE(rack, nullptr);
  station.camera().setPose(world::toPose(rack->viewpoint));
  station.setStation(rack);
  station.setOverlay(world::OverlayMetric::Power);
  station.setTextMode(app::TextMode::Off);
  app::renderStill(session, station, {options.width, options.height});
  EXPECT_FALSE(session.list.labels.empty());  // there were labels to draw
  EXPECT_TRUE(session.ui->drawnWindows().empty());
  EXPECT_TRUE(session.ui->placedLabels().empty());
  EXPECT_EQ(countWords(session.ui->capturedText()), 0u) << session.ui->capturedText();
  EXPECT_EQ(session.ui->glyphQuads(), 0u);
  // tour --text off: the chapter's panel is not drawn either.
  auto panel = app::TourPanel::load(*session.catalog);
  ASSERT_TRUE(panel) << panel.error();
  auto player = app::makeTourPlayer(*session.world, "default", {});
  ASSERT_TRUE(player) << player.error();
  app::TourDriver driver(std::move(*player));
  std::vector<app::SimCommand> commands;
  driver.start(commands, true);
  for (auto& c : commands) session.sim->queue(std::move(c));
  app::TourView view(driver, *panel, "en");
  view.setTextMode(app::TextMode::Off);
  app::renderStill(session, view, {options.width, options.height});
  EXPECT_TRUE(session.ui->drawnWindows().empty());
  EXPECT_EQ(session.ui->glyphQuads(), 0u);
}
