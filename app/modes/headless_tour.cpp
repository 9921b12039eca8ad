#include "app/modes/headless_tour.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "app/platform/capture.h"
#include "app/session/exit_status.h"
#include "app/session/frame.h"
#include "app/session/session.h"
#include "app/session/tour_driver.h"
#include "app/session/tour_session.h"
#include "app/session/tour_view.h"
#include "app/ui/timeline_panel.h"
#include "app/ui/tour_panel.h"
#include "renderer/image_io.h"

namespace app {
namespace {

// --chapter 11: the finale, which has no number key of its own.
constexpr int FINALE_CHAPTER = 11;

// The --chapter number of `frame`'s chapter.
int chapterOption(const world::TourFrame& frame) {
  return frame.chapterNumber == 0 ? FINALE_CHAPTER : frame.chapterNumber;
}

// The tour's frames headless; with --trace the traced job's step timeline (and measured vs
// modelled) under the narration, without the time controls nobody can click.
class HeadlessView : public TourView {
 public:
  HeadlessView(TourDriver& driver, TourPanel& panel, std::string language, const Session& session)
      : TourView(driver, panel, std::move(language)), m_session(session) {}
  HudInfo hud(FrameContext& context) override {
    HudInfo hud = TourView::hud(context);
    const ReplayHost* replay = m_session.replay.get();
    hud.timeline = replay != nullptr && hud.mode == TextMode::Engineer;
    hud.timelineComparison = hud.timeline && !replay->comparisons().empty();
    if (replay) hud.caption = replay->narrate(hud.caption);
    return hud;
  }
  void drawWindows(FrameContext& context) override {
    TourView::drawWindows(context);
    if (!m_session.replay || textMode() != TextMode::Engineer) return;
    TimeState state;
    state.controls = false;
    drawTimeline(m_session.replay->timeline(language()), state, context.ui.layout().timeline,
                 language(), context.commands);
  }

 private:
  const Session& m_session;
};

// What the headless modes hold: the session, the chapter panels, the driver of the tour and the
// frame source over them.
struct HeadlessTour {
  Session session;
  std::optional<TourPanel> panel;
  std::unique_ptr<TourDriver> driver;
  std::unique_ptr<HeadlessView> view;
};

// Opens the session, loads the tour (`desc`) and the panels, starts at the first step or at
// --chapter. Returns an exit status (the message printed).
int openHeadlessTour(const HeadlessTourOptions& options, const world::TourPlayerDesc& desc,
                     HeadlessTour& out) {
  const float font = fontPixelsFor(options.render.height) * float(options.uiScale);
  SessionDesc sessionDesc;
  sessionDesc.trace = options.trace;
  if (int status = openSession(options.render, nullptr, font, out.session, sessionDesc)) {
    return status;
  }
  out.session.ui->setScaling(1.0f, options.uiScale);
  auto player = makeTourPlayer(*out.session.world, options.tour, desc, options.trace.active());
  if (!player) {
    std::fprintf(stderr, "dcwalk: %s\n", player.error().c_str());
    return EXIT_BAD_INPUT;
  }
  // Frames of a step whose simulation cannot start would show the previous one's: refuse.
  if (auto runs = checkTourRuns(player->tour(), *out.session.catalog); !runs) {
    std::fprintf(stderr, "dcwalk: %s\n", runs.error().c_str());
    return EXIT_BAD_INPUT;
  }
  auto panel = TourPanel::load(*out.session.catalog);
  if (!panel) {
    std::fprintf(stderr, "dcwalk: %s\n", panel.error().c_str());
    return EXIT_BAD_INPUT;
  }
  out.panel = std::move(*panel);
  out.driver = std::make_unique<TourDriver>(std::move(*player));
  out.view = std::make_unique<HeadlessView>(*out.driver, *out.panel, desc.language, out.session);
  out.view->setTextMode(options.text);
  std::vector<SimCommand> commands;
  out.driver->start(commands, /*cut=*/true);
  world::TourPlayer& started = out.driver->player();
  const bool jumped =
      options.chapter == 0 ||
      (options.chapter == FINALE_CHAPTER ? started.jumpToFinale()
                                         : started.jumpToChapterKey(options.chapter % 10));
  if (!jumped) {
    std::fprintf(stderr, "dcwalk: tour: there is no chapter %d\n", options.chapter);
    return EXIT_BAD_INPUT;
  }
  for (SimCommand& c : commands) out.session.sim->queue(std::move(c));
  return EXIT_OK;
}

bool makeFolder(const std::filesystem::path& folder) {
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) {
    std::fprintf(stderr, "dcwalk: tour: cannot create '%s': %s\n", folder.c_str(),
                 ec.message().c_str());
  }
  return !ec;
}

// The key frames' source: each step's view, and once its simulation is in place, the engine run
// on to the step's key moment.
class KeyFrameView : public HeadlessView {
 public:
  using HeadlessView::HeadlessView;
  void advance(double, std::vector<SimCommand>& commands) override {
    HeadlessView::advance(0, commands);  // the step's view, its engine scenario and faults
    const world::TourFrame frame = driver().player().frame();
    // A key frame shows the simulation as a visitor sees it at the end of the step, or, when the
    // step injects a fault (its engine then starts at the step), in the middle of the fault.
    const world::TourStep& step =
        driver().player().tour().chapters[frame.chapter].steps[frame.step];
    // A race is shown at its photo finish, the moment that tells it.
    holdEventsAt(step.overlays.race || step.overlays.tiles ? world::PixelRace::KEY_S : step.hold_s);
    if (step.faults.empty()) {
      commands.push_back(SimCommand::runFor(step.hold_s));
      return;
    }
    const sim::engine::FaultDesc& f = step.faults.front();
    commands.push_back(SimCommand::runTo(std::clamp(
        f.start_s + 0.5 * (std::min(f.end_s, step.hold_s) - f.start_s), 0.0, step.hold_s)));
  }
};

}  // namespace

int runHeadlessTour(const HeadlessTourOptions& options) {
  world::TourPlayerDesc desc;
  desc.language = options.language;
  desc.reducedMotion = true;  // key frames: every step's view, no flight in between
  HeadlessTour tour;
  if (int status = openHeadlessTour(options, desc, tour)) return status;
  if (!makeFolder(options.out)) return EXIT_FAILURE_RUNTIME;
  KeyFrameView view(*tour.driver, *tour.panel, desc.language, tour.session);
  view.setTextMode(options.text);
  std::vector<renderer::Pixels> keyFrames;  // the first step of each chapter
  size_t written = 0;
  size_t lastChapter = SIZE_MAX;
  const VkExtent2D extent{options.render.width, options.render.height};
  do {
    const world::TourFrame frame = tour.driver->player().frame();
    if (options.chapter > 0 && chapterOption(frame) != options.chapter) break;
    FrameResult result = renderStill(tour.session, view, extent);
    const std::string chapterId = tour.driver->player().tour().chapters[frame.chapter].id;
    char name[128];
    std::snprintf(name, sizeof(name), "%02zu-%s-%zu.png", frame.chapter + 1, chapterId.c_str(),
                  frame.step + 1);
    std::string error;
    if (!renderer::writePng(std::filesystem::path(options.out) / name, result.pixels, error)) {
      std::fprintf(stderr, "dcwalk: %s\n", error.c_str());
      return EXIT_FAILURE_RUNTIME;
    }
    ++written;
    if (frame.chapter != lastChapter) keyFrames.push_back(std::move(result.pixels));
    lastChapter = frame.chapter;
  } while (tour.driver->player().nextStep());

  renderer::Pixels sheet = renderer::makeContactSheet(keyFrames, 4, 480);
  std::string error;
  const auto sheetPath = std::filesystem::path(options.out) / "contact-sheet.png";
  if (!renderer::writePng(sheetPath, sheet, error)) {
    std::fprintf(stderr, "dcwalk: %s\n", error.c_str());
    return EXIT_FAILURE_RUNTIME;
  }
  std::printf("dcwalk: rendered %zu tour frames (%zu chapters) and %s into %s\n", written,
              keyFrames.size(), sheetPath.filename().c_str(),
              std::filesystem::absolute(options.out).c_str());
  return reportValidation() ? EXIT_OK : EXIT_FAILURE_RUNTIME;
}

int runHeadlessClip(const HeadlessTourOptions& options, double fps) {
  world::TourPlayerDesc desc;
  desc.language = options.language;
  desc.reducedMotion = options.reducedMotion;
  desc.autoAdvance = true;  // nobody presses keys: every beat holds for its time
  HeadlessTour tour;
  if (int status = openHeadlessTour(options, desc, tour)) return status;
  const std::string name =
      options.chapter > 0 ? "chapter-" + std::to_string(options.chapter) : std::string("tour");
  const std::filesystem::path folder =
      std::filesystem::path(options.out) / (options.chapter > 0 ? "frames-" + name : "frames");
  std::error_code ec;
  std::filesystem::remove_all(folder, ec);  // frames of an earlier clip would join this one
  if (!makeFolder(folder)) return EXIT_FAILURE_RUNTIME;

  const double dt = 1.0 / fps;
  constexpr uint64_t MAX_FRAMES = 1'000'000;  // a runaway guard: 9 hours at 30 fps
  uint64_t frames = 0;
  for (; frames < MAX_FRAMES; ++frames) {
    FrameSpec spec;
    spec.dt_s = frames == 0 ? 0.0 : dt;
    spec.extent = {options.render.width, options.render.height};
    spec.output = FrameOutput::Pixels;
    spec.settleUi = frames == 0;
    // The frame is made, then judged: a clip ends at the end of the tour or of its chapter.
    FrameResult result = runFrame(tour.session, *tour.view, spec);
    const world::TourFrame frame = tour.driver->player().frame();
    if (tour.driver->player().finished()) break;
    if (options.chapter > 0 && chapterOption(frame) != options.chapter) break;
    char file[32];
    std::snprintf(file, sizeof(file), "frame-%06llu.png",
                  static_cast<unsigned long long>(frames + 1));
    std::string error;
    if (!renderer::writePng(folder / file, result.pixels, error)) {
      std::fprintf(stderr, "dcwalk: %s\n", error.c_str());
      return EXIT_FAILURE_RUNTIME;
    }
  }
  std::printf("dcwalk: rendered %llu frames (%.1f s at %g fps) into %s\n",
              static_cast<unsigned long long>(frames), double(frames) * dt, fps,
              std::filesystem::absolute(folder).c_str());
  if (!haveFfmpeg()) {
    std::printf("dcwalk: no MP4: ffmpeg is not installed (Debian package ffmpeg)\n");
  } else if (frames > 0) {
    const auto mp4 = std::filesystem::path(options.out) / (name + ".mp4");
    if (auto encoded = encodeFrames(folder, fps, mp4); !encoded) {
      std::fprintf(stderr, "dcwalk: %s\n", encoded.error().c_str());
      return EXIT_FAILURE_RUNTIME;
    }
    std::printf("dcwalk: encoded %s\n", std::filesystem::absolute(mp4).c_str());
  }
  return reportValidation() ? EXIT_OK : EXIT_FAILURE_RUNTIME;
}

}  // namespace app
