// `dcwalk tour` (the default command): with a display, the window; without one (or with
// --headless), every step's key frame rendered to PNGs plus a contact sheet, or with --fps the
// tour as a clip (frames + MP4); with --kiosk --soak, the headless booth soak (app/soak.h).
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>

#include "app/capture.h"
#include "app/commands.h"
#include "app/session.h"
#include "app/settings.h"
#include "app/soak.h"
#include "app/tour_driver.h"
#include "app/tour_panel.h"
#include "app/tour_session.h"
#include "app/window_mode.h"
#include "renderer/image_io.h"

namespace app {
namespace {

struct TourOptions {
  RenderOptions render;
  bool headless = false;
  std::string out = "out";
  int chapter = 0;  // headless: only this chapter (1..10); 0 = all
  double fps = 0;   // headless: a clip at this rate instead of key frames; soak: the frame cap
  WindowModeOptions window;
  SoakOptions soak;
};

bool haveDisplay() {
  const char* x = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  return (x && *x) || (wayland && *wayland);
}

// What the headless modes hold: the session, the chapter panels and the driver of the tour.
struct HeadlessTour {
  Session session;
  std::optional<TourPanel> panel;
  std::unique_ptr<TourDriver> driver;
};

// Opens the session, loads the tour (`desc`) and the panels, starts at the first step or at
// --chapter. Returns an exit status (the message printed).
int openHeadlessTour(const TourOptions& options, const world::TourPlayerDesc& desc,
                     HeadlessTour& out) {
  const float font = fontPixelsFor(options.render.height) * float(options.window.uiScale);
  if (int status = openSession(options.render, nullptr, font, out.session)) return status;
  auto player = makeTourPlayer(out.session, options.window.tour, desc);
  if (!player) {
    std::fprintf(stderr, "dcwalk: %s\n", player.error().c_str());
    return EXIT_BAD_INPUT;
  }
  auto panel = TourPanel::load(*out.session.catalog);
  if (!panel) {
    std::fprintf(stderr, "dcwalk: %s\n", panel.error().c_str());
    return EXIT_BAD_INPUT;
  }
  out.panel = std::move(*panel);
  out.driver = std::make_unique<TourDriver>(out.session, std::move(*player));
  out.driver->start(/*cut=*/true);
  if (options.chapter > 0 && !out.driver->player().jumpToChapterKey(options.chapter % 10)) {
    std::fprintf(stderr, "dcwalk: tour: there is no chapter %d\n", options.chapter);
    return EXIT_BAD_INPUT;
  }
  return EXIT_OK;
}

int runHeadlessTour(const TourOptions& options) {
  world::TourPlayerDesc desc;
  desc.language = options.window.language;
  desc.reducedMotion = true;  // key frames: every step's view, no flight in between
  HeadlessTour tour;
  if (int status = openHeadlessTour(options, desc, tour)) return status;
  Session& session = tour.session;
  TourDriver& driver = *tour.driver;
  TourPanel* panel = &*tour.panel;
  std::error_code ec;
  std::filesystem::create_directories(options.out, ec);
  if (ec) {
    std::fprintf(stderr, "dcwalk: tour: cannot create '%s': %s\n", options.out.c_str(),
                 ec.message().c_str());
    return EXIT_FAILURE_RUNTIME;
  }
  std::vector<renderer::Pixels> keyFrames;  // the first step of each chapter
  size_t written = 0;
  size_t lastChapter = SIZE_MAX;
  do {
    driver.advance(0);  // the step's view, and its engine scenario and faults
    const world::TourFrame frame = driver.player().frame();
    if (options.chapter > 0 && frame.chapterNumber != options.chapter) break;
    // A key frame shows the simulation as a visitor sees it at the end of the step, or, when the
    // step injects a fault (its engine then starts at the step), in the middle of the fault.
    const world::TourStep& step = driver.player().tour().chapters[frame.chapter].steps[frame.step];
    double key_s = session.engine->time_s() + step.hold_s;
    if (!step.faults.empty()) {
      const sim::engine::FaultDesc& f = step.faults.front();
      key_s = std::clamp(f.start_s + 0.5 * (std::min(f.end_s, step.hold_s) - f.start_s), 0.0,
                         step.hold_s);
    }
    session.engine->advanceTo(key_s);
    syncOverlay(session, driver.overlay());
    const std::string& language = options.window.language;
    panel->follow(frame, language);
    HudInfo hud = driver.hud(language);
    hud.panelOnRight = panel->view() != nullptr;
    renderer::Pixels pixels =
        renderView(session, driver.camera(), hud,
                   driver.frameDesc(options.render.width, options.render.height, panel->hbmFill()),
                   [&] { panel->draw(/*interactive=*/false, language); });
    const std::string chapterId = driver.player().tour().chapters[frame.chapter].id;
    char name[128];
    std::snprintf(name, sizeof(name), "%02zu-%s-%zu.png", frame.chapter + 1, chapterId.c_str(),
                  frame.step + 1);
    std::string error;
    if (!renderer::writePng(std::filesystem::path(options.out) / name, pixels, error)) {
      std::fprintf(stderr, "dcwalk: %s\n", error.c_str());
      return EXIT_FAILURE_RUNTIME;
    }
    ++written;
    if (frame.chapter != lastChapter) keyFrames.push_back(std::move(pixels));
    lastChapter = frame.chapter;
  } while (driver.player().nextStep());
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

// The tour as a visitor sees it, flights and all, at `fps`: numbered PNG frames in OUT/frames
// (or OUT/frames-chapter-K), then an MP4 beside them when ffmpeg is installed.
int runHeadlessClip(const TourOptions& options) {
  world::TourPlayerDesc desc;
  desc.language = options.window.language;
  desc.reducedMotion = options.window.reducedMotion;
  desc.autoAdvance = true;  // nobody presses keys: every beat holds for its time
  HeadlessTour tour;
  if (int status = openHeadlessTour(options, desc, tour)) return status;
  Session& session = tour.session;
  TourDriver& driver = *tour.driver;
  TourPanel* panel = &*tour.panel;
  const std::string name =
      options.chapter > 0 ? "chapter-" + std::to_string(options.chapter) : std::string("tour");
  const std::filesystem::path folder =
      std::filesystem::path(options.out) / (options.chapter > 0 ? "frames-" + name : "frames");
  std::error_code ec;
  std::filesystem::remove_all(folder, ec);  // frames of an earlier clip would join this one
  std::filesystem::create_directories(folder, ec);
  if (ec) {
    std::fprintf(stderr, "dcwalk: tour: cannot create '%s': %s\n", folder.c_str(),
                 ec.message().c_str());
    return EXIT_FAILURE_RUNTIME;
  }
  const double dt = 1.0 / options.fps;
  constexpr uint64_t MAX_FRAMES = 1'000'000;  // a runaway guard: 9 hours at 30 fps
  uint64_t frames = 0;
  for (; frames < MAX_FRAMES; ++frames) {
    driver.advance(frames == 0 ? 0.0 : dt);
    const world::TourFrame frame = driver.player().frame();
    if (driver.player().finished()) break;
    if (options.chapter > 0 && frame.chapterNumber != options.chapter) break;
    syncOverlay(session, driver.overlay());
    panel->follow(frame, desc.language);
    HudInfo hud = driver.hud(desc.language);
    hud.panelOnRight = panel->view() != nullptr;
    renderer::Pixels pixels =
        renderView(session, driver.camera(), hud,
                   driver.frameDesc(options.render.width, options.render.height, panel->hbmFill()),
                   [&] { panel->draw(/*interactive=*/false, desc.language); });
    char file[32];
    std::snprintf(file, sizeof(file), "frame-%06llu.png",
                  static_cast<unsigned long long>(frames + 1));
    std::string error;
    if (!renderer::writePng(folder / file, pixels, error)) {
      std::fprintf(stderr, "dcwalk: %s\n", error.c_str());
      return EXIT_FAILURE_RUNTIME;
    }
  }
  std::printf("dcwalk: rendered %llu frames (%.1f s at %g fps) into %s\n",
              static_cast<unsigned long long>(frames), double(frames) * dt, options.fps,
              std::filesystem::absolute(folder).c_str());
  if (!haveFfmpeg()) {
    std::printf("dcwalk: no MP4: ffmpeg is not installed (Debian package ffmpeg)\n");
  } else if (frames > 0) {
    const auto mp4 = std::filesystem::path(options.out) / (name + ".mp4");
    if (auto encoded = encodeFrames(folder, options.fps, mp4); !encoded) {
      std::fprintf(stderr, "dcwalk: %s\n", encoded.error().c_str());
      return EXIT_FAILURE_RUNTIME;
    }
    std::printf("dcwalk: encoded %s\n", std::filesystem::absolute(mp4).c_str());
  }
  return reportValidation() ? EXIT_OK : EXIT_FAILURE_RUNTIME;
}

}  // namespace

Command addTourCommand(CLI::App& cli) {
  auto options = std::make_shared<TourOptions>();
  CLI::App* sub = cli.add_subcommand(
      "tour", "the guided flight (default): a window with a display, else frames into --out");
  sub->add_flag("--headless", options->headless, "render frames to --out instead of a window");
  sub->add_option("--out", options->out, "folder for headless frames")->capture_default_str();
  sub->add_option("--tour", options->window.tour, "tour name or file (assets/tours/NAME.json)")
      ->capture_default_str();
  sub->add_option("--language", options->window.language, "caption language (en, de)")
      ->capture_default_str();
  sub->add_option("--chapter", options->chapter, "headless: render only this chapter (1..10)")
      ->check(CLI::Range(1, 10));
  sub->add_flag("--reduced-motion", options->window.reducedMotion, "cut between views, no flights");
  sub->add_option("--captures", options->window.captureDir,
                  "window: folder for F12 screenshots and F9 clips (default: the pictures "
                  "folder's dcwalk/ when installed, captures/ from a build tree)");
  sub->add_option("--ui-scale", options->window.uiScale,
                  "text size (0.5..4; the window also applies the monitor's HiDPI scale)")
      ->check(CLI::Range(MIN_UI_SCALE, MAX_UI_SCALE));
  CLI::Option* kiosk =
      sub->add_flag("--kiosk", options->window.kiosk,
                    "booth mode: full screen, attract loop, idle reset; only Ctrl+Alt+Q quits");
  sub->add_option("--soak", options->soak.minutes,
                  "with --kiosk: run booth mode headless for MINUTES with a scripted visitor and "
                  "report memory, frame time and validation errors (OUT/soak.json)")
      ->check(CLI::Range(0.01, 10080.0))
      ->needs(kiosk);
  sub->add_option("--fps", options->fps,
                  "headless: render the tour as a clip at this rate (PNG frames, and an MP4 where "
                  "ffmpeg is installed); with --soak: at most this many frames a second (30)")
      ->check(CLI::Range(1.0, 240.0));
  sub->add_option("--soak-report-every", options->soak.reportEvery_s,
                  "with --soak: seconds between report lines")
      ->check(CLI::Range(1.0, 3600.0))
      ->capture_default_str();
  sub->add_option("--kiosk-idle", options->window.kioskIdle_s,
                  "kiosk: seconds without input before the idle warning")
      ->check(CLI::Range(1.0, 86400.0))
      ->capture_default_str();
  sub->add_option("--kiosk-warning", options->window.kioskWarning_s,
                  "kiosk: seconds of warning before the attract loop returns")
      ->check(CLI::Range(1.0, 3600.0))
      ->capture_default_str();
  sub->add_flag("--fullscreen", options->window.fullscreen, "full screen (see --monitor)");
  sub->add_option("--monitor", options->window.monitor,
                  "full screen and kiosk: on this monitor (0, 1, ...; default the primary)")
      ->check(CLI::Range(0, 16));
  sub->add_option("--frames", options->window.maxFrames,
                  "quit after this many frames (window; 0 = run until closed)");
  addRenderOptions(*sub, options->render);
  return {sub, [options, sub] {
            if (sub->count("--soak")) {
              SoakOptions soak = options->soak;
              if (options->fps > 0) soak.fpsCap = options->fps;
              soak.tour = options->window.tour;
              soak.language = options->window.language;
              soak.kioskIdle_s = options->window.kioskIdle_s;
              soak.kioskWarning_s = options->window.kioskWarning_s;
              soak.out = options->out;
              return runSoak(options->render, soak);
            }
            if ((options->headless || !haveDisplay()) && options->fps > 0) {
              return runHeadlessClip(*options);
            }
            if (options->headless || !haveDisplay()) return runHeadlessTour(*options);
            // The window remembers the visitor's language, motion and text size; flags given
            // on the command line win. Booth mode reads them but never writes.
            WindowModeOptions window = options->window;
            const LoadedSettings loaded = loadSettings(settingsPath());
            if (!loaded.message.empty())
              std::fprintf(stderr, "dcwalk: %s\n", loaded.message.c_str());
            if (!sub->count("--language")) window.language = loaded.settings.language;
            if (!sub->count("--reduced-motion"))
              window.reducedMotion = loaded.settings.reducedMotion;
            if (!sub->count("--ui-scale")) window.uiScale = loaded.settings.uiScale;
            if (!window.kiosk) window.settingsFile = settingsPath();
            return runWindowMode(options->render, window);
          }};
}

}  // namespace app
