#include "app/modes/headless_tour.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>

#include "app/platform/capture.h"
#include "app/session/exit_status.h"
#include "app/session/frame.h"
#include "app/session/session.h"
#include "app/session/sim_budget.h"
#include "app/session/tour_driver.h"
#include "app/session/tour_session.h"
#include "app/session/tour_view.h"
#include "app/ui/timeline_panel.h"
#include "app/ui/tour_panel.h"
#include "renderer/image_io.h"
#include "world/live/events/pixel_race.h"
#include "world/tour/tour_player.h"

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
  if (auto text = checkTourText(player->bundle(), *out.session.catalog); !text) {
    std::fprintf(stderr, "dcwalk: %s\n", text.error().c_str());
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

// --out: created when absent, and writable, before anything is rendered. Returns an exit status
// (the message printed).
int makeOutFolder(const std::filesystem::path& folder) {
  if (folder.empty()) {
    std::fprintf(stderr, "dcwalk: tour: --out: no folder named (an empty name)\n");
    return EXIT_BAD_INPUT;
  }
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) {
    std::fprintf(stderr, "dcwalk: tour: --out: cannot create '%s': %s\n", folder.c_str(),
                 ec.message().c_str());
    return EXIT_FAILURE_RUNTIME;
  }
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    std::fprintf(stderr, "dcwalk: tour: --out: cannot write into '%s': %s\n", folder.c_str(),
                 std::strerror(errno));
    return EXIT_FAILURE_RUNTIME;
  }
  return EXIT_OK;
}

// The clip's frames folder is one this run makes: anything already there under its name (a
// folder of the user's, an earlier clip, a link) is refused and left exactly as it is. Returns an
// exit status (the message printed).
int refuseExistingFrames(const std::filesystem::path& folder) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(folder, ec))) return EXIT_OK;
  std::fprintf(stderr,
               "dcwalk: tour: %s is already there: a clip's frames go into a new folder, which "
               "this run makes and never empties (move or remove it, or choose another --out)\n",
               folder.c_str());
  return EXIT_BAD_INPUT;
}

int makeFramesFolder(const std::filesystem::path& folder) {
  std::error_code ec;
  if (std::filesystem::create_directory(folder, ec) && !ec) return EXIT_OK;
  if (!ec) return refuseExistingFrames(folder);  // it appeared meanwhile
  std::fprintf(stderr, "dcwalk: tour: cannot create '%s': %s\n", folder.c_str(),
               ec.message().c_str());
  return EXIT_FAILURE_RUNTIME;
}

// The most frames the clip of the steps `player` plays (its chapter only with --chapter) can take
// at `fps`: each step's hold, its flight at its longest unless cut, and the frame a flight's end
// may take without moving the beats on; and the first frame, which shows time 0.
uint64_t clipFrameBound(const world::TourPlayer& player, const world::TourPlayerDesc& desc,
                        bool oneChapter, double fps) {
  const world::Tour& tour = player.tour();
  const size_t chapter = player.frame().chapter;
  const double flight_s = desc.reducedMotion ? 0.0 : desc.flight.maxDuration_s;
  double total_s = 0;
  uint64_t steps = 0;
  for (const auto& [c, s] : player.order()) {
    if (oneChapter && c != chapter) continue;
    total_s += tour.chapters[c].steps[s].hold_s + flight_s;
    ++steps;
  }
  return uint64_t(std::ceil(total_s * fps)) + steps + 1;
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
    holdEventsAt(step.overlays.layers.has(world::LayerId::PixelRace) ? world::PixelRace::KEY_S
                                                                     : step.hold_s);
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

std::string keyFrameName(size_t chapter, const std::string& chapterId, size_t step) {
  char number[24];
  std::snprintf(number, sizeof number, "%02zu", chapter + 1);
  return number + ("-" + chapterId) + "-" + std::to_string(step + 1) + ".png";
}

int runHeadlessTour(const HeadlessTourOptions& options) {
  world::TourPlayerDesc desc;
  desc.language = options.language;
  desc.reducedMotion = true;  // key frames: every step's view, no flight in between
  if (int status = makeOutFolder(options.out)) return status;
  HeadlessTour tour;
  if (int status = openHeadlessTour(options, desc, tour)) return status;
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
    const std::string name = keyFrameName(
        frame.chapter, tour.driver->player().tour().chapters[frame.chapter].id, frame.step);
    if (auto written = writePng(std::filesystem::path(options.out) / name, result.pixels);
        !written) {
      std::fprintf(stderr, "dcwalk: %s\n", written.error().c_str());
      return EXIT_FAILURE_RUNTIME;
    }
    ++written;
    if (frame.chapter != lastChapter) keyFrames.push_back(std::move(result.pixels));
    lastChapter = frame.chapter;
  } while (tour.driver->player().nextStep());

  renderer::Pixels sheet = renderer::makeContactSheet(keyFrames, 4, 480);
  const auto sheetPath = std::filesystem::path(options.out) / "contact-sheet.png";
  if (auto written = writePng(sheetPath, sheet); !written) {
    std::fprintf(stderr, "dcwalk: %s\n", written.error().c_str());
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
  const std::string name =
      options.chapter > 0 ? "chapter-" + std::to_string(options.chapter) : std::string("tour");
  const std::filesystem::path folder =
      std::filesystem::path(options.out) / (options.chapter > 0 ? "frames-" + name : "frames");
  if (int status = makeOutFolder(options.out)) return status;
  if (int status = refuseExistingFrames(folder)) return status;
  HeadlessTour tour;
  if (int status = openHeadlessTour(options, desc, tour)) return status;
  const uint64_t bound = clipFrameBound(tour.driver->player(), desc, options.chapter > 0, fps);
  if (bound > MAX_CLIP_FRAMES) {
    const std::string part = options.chapter > 0 ? " (" + name + ")" : "";
    std::fprintf(stderr,
                 "dcwalk: tour: --fps %g: the clip of tour '%s'%s would take up to %llu frames, "
                 "more than the %llu a clip may have; a lower --fps, --chapter or "
                 "--reduced-motion\n",
                 fps, options.tour.c_str(), part.c_str(), static_cast<unsigned long long>(bound),
                 static_cast<unsigned long long>(MAX_CLIP_FRAMES));
    return EXIT_BAD_INPUT;
  }
  if (int status = makeFramesFolder(folder)) return status;

  const double dt = 1.0 / fps;
  SimProgress progress("dcwalk tour", 0, double(bound));
  progress.measure("rendered", "frames at most");
  uint64_t frames = 0;
  for (; frames < bound; ++frames) {
    progress.update(double(frames));
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
    if (auto written = writePng(folder / file, result.pixels); !written) {
      std::fprintf(stderr, "dcwalk: %s\n", written.error().c_str());
      return EXIT_FAILURE_RUNTIME;
    }
  }
  progress.finish(double(frames));
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
