// The text modes (issue 21): every step of the tour rendered in booth mode at 1920x1080 carries
// at most 25 words in English and German, counting every text drawn (windows and labels in the
// world), with a headline of at least 96 px (read from three to five metres, issue 35) and no
// label in the world (none names the station at the screen's centre); the clean plate (tour
// --text off, shot --clean) draws no window and no label at all. Before, each frame carried 120
// to 250 words at about 13 px. Booth numbers are for people (issue 35): a headline's numbers
// carry at most three significant figures, and no two steps of a chapter show the same headline
// (each says what its own frame shows); no window of a booth frame is cut off.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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

// The significant figures of each number in `text`: digits from the first non-zero one, zeros
// at the end of a whole number not counted ("132" 3, "0.0788" 3, "16,384" 5, "9.33" 3, "130" 2).
std::vector<size_t> significantFigures(const std::string& text) {
  std::vector<size_t> out;
  for (size_t i = 0; i < text.size();) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    std::string digits;
    bool fraction = false;
    for (; i < text.size(); ++i) {
      const char c = text[i];
      const bool separator = (c == '.' || c == ',') && i + 1 < text.size() &&
                             std::isdigit(static_cast<unsigned char>(text[i + 1]));
      if (std::isdigit(static_cast<unsigned char>(c))) {
        digits += c;
      } else if (separator) {
        fraction = fraction || c == '.';
      } else {
        break;
      }
    }
    const size_t first = digits.find_first_not_of('0');
    if (first == std::string::npos) {
      out.push_back(1);
      continue;
    }
    size_t end = digits.size();
    if (!fraction)
      while (end > first + 1 && digits[end - 1] == '0') --end;
    out.push_back(end - first);
  }
  return out;
}

// The default tour in `language` started on `session`: its driver at the first step, the
// step's simulation queued.
std::optional<app::TourDriver> startDefaultTour(app::Session& session,
                                                const std::string& language) {
  world::TourPlayerDesc desc;
  desc.language = language;
  desc.reducedMotion = true;
  auto player = app::makeTourPlayer(*session.world, "default", desc);
  EXPECT_TRUE(player) << player.error();
  if (!player) return std::nullopt;
  std::optional<app::TourDriver> driver(std::in_place, std::move(*player));
  std::vector<app::SimCommand> commands;
  driver->start(commands, true);
  for (auto& c : commands) session.sim->queue(std::move(c));
  return driver;
}

}  // namespace

TEST(TextModes, SignificantFiguresAreCounted) {
  EXPECT_EQ(significantFigures("GPU: 9.33× faster"), std::vector<size_t>{3});
  EXPECT_EQ(significantFigures("$0.0788 and 16,384 GPUs"), (std::vector<size_t>{3, 5}));
  EXPECT_EQ(significantFigures("130 TB/s in 1 rack"), (std::vector<size_t>{2, 1}));
}

TEST(TextModes, WordsAreCounted) {
  EXPECT_EQ(countWords("24.5\u00a0GB / 80\u00a0GB — fits"), 5u);
  EXPECT_EQ(countWords("3. The 3 AM CUDA out-of-memory crash\nOne line."), 9u);
}

TEST(TextModes, BoothFramesCarryAtMost25WordsAndA96PixelHeadlineOfItsOwn) {
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
    std::vector<std::string> chapterHeadlines;
    size_t chapter = SIZE_MAX;
    std::optional<app::TourDriver> started = startDefaultTour(session, language);
    ASSERT_TRUE(started);
    app::TourDriver& driver = *started;
    app::TourView view(driver, *panel, language);
    view.setTextMode(app::TextMode::Booth);
    do {
      const world::TourFrame frame = driver.player().frame();
      SCOPED_TRACE(language + " chapter " + std::to_string(frame.chapter + 1) + " step " +
                   std::to_string(frame.step + 1));
      const app::FrameResult result =
          app::renderStill(session, view, {options.width, options.height});
      const std::string& text = session.ui->capturedText();
      const std::string& headline = result.hud.headline;
      for (size_t figures : significantFigures(headline)) EXPECT_LE(figures, 3u) << headline;
      EXPECT_EQ(headline.find('{'), std::string::npos) << headline;  // every placeholder filled
      if (frame.chapter != chapter) chapterHeadlines.clear();
      chapter = frame.chapter;
      EXPECT_EQ(std::count(chapterHeadlines.begin(), chapterHeadlines.end(), headline), 0)
          << headline;
      chapterHeadlines.push_back(headline);
      const size_t words = countWords(text);
      most = std::max(most, words);
      ++frames;
      EXPECT_LE(words, 25u) << text;
      // Every glyph of the frame is in the text counted: nothing else drew any.
      EXPECT_EQ(session.ui->glyphQuads(), visibleCharacters(text)) << text;
      EXPECT_GE(session.ui->headlinePixels(), 96.0f) << text;
      for (const app::DrawnWindow& w : session.ui->drawnWindows())
        EXPECT_FALSE(w.clipped) << w.name << ": " << text;  // nothing cut off
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

// One world of numbers (issue 35): in the out-of-memory chapter the panel's verdict decides
// every place that shows the server's state. Where the panel of the step's scenario, evaluated
// here on its own, says the model does not fit, the booth's headline is red and shows the
// panel's need and budget as its rows print them, and the engineer's status line serves
// 0 tokens/s; where it fits, the headline is not red and the status line serves tokens.
TEST(OneWorldOfNumbers, AServerOutOfMemoryServesNothingWhereverItIsShown) {
  app::RenderOptions options;
  app::Session session;
  ASSERT_EQ(app::openSession(options, nullptr, app::fontPixelsFor(options.height), session), 0);
  auto panel = app::TourPanel::load(*session.catalog);
  ASSERT_TRUE(panel) << panel.error();
  auto panels = app::loadPanels(sim::assetsDir() / "panels.json");
  ASSERT_TRUE(panels) << panels.error();
  std::optional<app::TourDriver> started = startDefaultTour(session, "en");
  ASSERT_TRUE(started);
  app::TourDriver& driver = *started;
  app::TourView view(driver, *panel, "en");
  int fitting = 0, crashed = 0;
  do {
    const world::TourFrame frame = driver.player().frame();
    const app::Panel* chapterPanel = panels->find(frame.panel);
    ASSERT_NE(chapterPanel, nullptr) << frame.panel;
    if (!chapterPanel->bar || frame.panel != "vram_budget") continue;
    SCOPED_TRACE("chapter " + std::to_string(frame.chapter + 1) + " step " +
                 std::to_string(frame.step + 1) + " " + frame.scenario);
    auto scenario = sim::loadScenario(frame.scenario);
    ASSERT_TRUE(scenario) << scenario.error();
    const app::PanelView expected = app::evaluatePanel(
        *chapterPanel, *scenario, app::defaultKnobValues(*chapterPanel), *session.catalog);
    const app::PanelRowView* fits = expected.value("memory.fits");
    const app::PanelRowView* need = expected.value("memory.inference_per_gpu_bytes");
    const app::PanelRowView* budget = expected.value("memory.serving_budget_per_gpu_bytes");
    ASSERT_TRUE(fits && need && budget);
    const bool outOfMemory = fits->value == 0;
    (outOfMemory ? crashed : fitting)++;

    view.setTextMode(app::TextMode::Booth);
    const app::FrameResult booth = app::renderStill(session, view, {1280, 720});
    EXPECT_EQ(booth.hud.headlineIsWarning, outOfMemory) << booth.hud.headline;
    // The rows' texts with the no-break space the narration joins a number and its unit with.
    auto joined = [](std::string text) {
      const size_t space = text.find(' ');
      return space == std::string::npos ? text : text.replace(space, 1, "\u00a0");
    };
    EXPECT_NE(booth.hud.headline.find(joined(need->text)), std::string::npos)
        << booth.hud.headline << " / " << need->text;
    EXPECT_NE(booth.hud.headline.find(joined(budget->text)), std::string::npos)
        << booth.hud.headline << " / " << budget->text;

    view.setTextMode(app::TextMode::Engineer);
    const app::FrameResult engineer = app::renderStill(session, view, {1280, 720});
    EXPECT_EQ(engineer.hud.status.find("0 tokens/s: out of memory") != std::string::npos,
              outOfMemory)
        << engineer.hud.status;
  } while (driver.player().nextStep());
  // The chapter shows both states: one step that fits and one that crashes.
  EXPECT_GE(fitting, 1);
  EXPECT_GE(crashed, 1);
}
