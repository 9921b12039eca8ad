// `dcwalk tour` (the default command): with a display, the window; without one (or with
// --headless), every step's key frame rendered to PNGs plus a contact sheet, or with --fps the
// tour as a clip (frames + MP4); with --kiosk --soak, the headless booth soak (app/modes/soak.h).
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>

#include "app/cli/commands.h"
#include "app/cli/flag_domains.h"
#include "app/cli/options.h"
#include "app/modes/headless_tour.h"
#include "app/modes/soak.h"
#include "app/modes/window_mode.h"
#include "app/platform/settings.h"

namespace app {
namespace {

struct TourOptions {
  RenderOptions render;
  bool headless = false;
  std::string out = "out";
  int chapter = 0;  // headless: only this chapter (1..10, 11 the finale); 0 = all
  double fps = 0;   // headless: a clip at this rate instead of key frames; soak: the frame cap
  WindowModeOptions window;
  SoakOptions soak;
  TraceRequest trace;
  double traceTime_s = 0;
  int64_t traceStep = 0;
  std::string text;  // --text: booth, engineer or off ("" = the mode's default)
};

bool haveDisplay() {
  const char* x = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  return (x && *x) || (wayland && *wayland);
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
  addNumberOption(*sub, "tour", "--chapter", options->chapter,
                  "headless: render only this chapter (1..10; 11: the finale)");
  sub->add_option("--text", options->text,
                  "how much text a frame carries: booth (title, one number, one line; default in "
                  "--kiosk), engineer (the panel, verdict first; default otherwise) or off (the "
                  "picture alone)")
      ->check(CLI::IsMember({"booth", "engineer", "off"}));
  sub->add_flag("--reduced-motion", options->window.reducedMotion, "cut between views, no flights");
  sub->add_option("--captures", options->window.captureDir,
                  "window: folder for F12 screenshots and F9 clips (default: the pictures "
                  "folder's dcwalk/ when installed, captures/ from a build tree)");
  addNumberOption(*sub, "tour", "--ui-scale", options->window.uiScale,
                  "text size (0.5..4; the window also applies the monitor's HiDPI scale)");
  CLI::Option* kiosk =
      sub->add_flag("--kiosk", options->window.kiosk,
                    "booth mode: full screen, attract loop, idle reset; only Ctrl+Alt+Q quits");
  addNumberOption(*sub, "tour", "--soak", options->soak.minutes,
                  "with --kiosk: run booth mode headless for MINUTES with a scripted visitor and "
                  "report memory, frame time and validation errors (OUT/soak.json)")
      ->needs(kiosk);
  addNumberOption(*sub, "tour", "--fps", options->fps,
                  "headless: render the tour as a clip at this rate (PNG frames, and an MP4 where "
                  "ffmpeg is installed); with --soak: at most this many frames a second (30)");
  sub->add_flag("--soak-frame-clock", options->soak.frameClock,
                "with --soak: the booth's clock advances 1/fps per frame, unpaced, instead of "
                "following the wall (the same run on any machine, however busy)")
      ->needs("--soak");
  addNumberOption(*sub, "tour", "--soak-report-every", options->soak.reportEvery_s,
                  "with --soak: seconds between report lines")
      ->capture_default_str();
  addNumberOption(*sub, "tour", "--kiosk-idle", options->window.kioskIdle_s,
                  "kiosk: seconds without input before the idle warning")
      ->capture_default_str();
  addNumberOption(*sub, "tour", "--kiosk-warning", options->window.kioskWarning_s,
                  "kiosk: seconds of warning before the attract loop returns")
      ->capture_default_str();
  sub->add_flag("--fullscreen", options->window.fullscreen, "full screen (see --monitor)");
  addNumberOption(*sub, "tour", "--monitor", options->window.monitor,
                  "full screen and kiosk: on this monitor (0, 1, ...; default the primary)");
  addNumberOption(*sub, "tour", "--frames", options->window.maxFrames,
                  "quit after this many frames (window; 0 = run until closed)");
  addTraceOptions(*sub, options->trace);
  addNumberOption(*sub, "tour", "--time", options->traceTime_s,
                  "with --trace: start the replay this many seconds after its first GPU event");
  addNumberOption(*sub, "tour", "--step", options->traceStep,
                  "with --trace: start the replay at ProfilerStep#N");
  addRenderOptions(*sub, options->render);
  return {sub, [options, sub] {
            TraceRequest trace = options->trace;
            if (sub->count("--time")) trace.time_s = options->traceTime_s;
            if (sub->count("--step")) trace.step = options->traceStep;
            if (!trace.active() && (sub->count("--time") || sub->count("--step"))) {
              std::fprintf(stderr, "dcwalk: tour: --time and --step need --trace\n");
              return EXIT_BAD_INPUT;
            }
            std::optional<TextMode> text;
            if (TextMode mode; !options->text.empty() && parseTextMode(options->text.c_str(), mode))
              text = mode;
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
            if (options->headless || !haveDisplay()) {
              HeadlessTourOptions headless;
              headless.render = options->render;
              headless.tour = options->window.tour;
              headless.language = options->window.language;
              headless.out = options->out;
              headless.chapter = options->chapter;
              headless.reducedMotion = options->window.reducedMotion;
              headless.uiScale = options->window.uiScale;
              headless.trace = trace;
              headless.text = text.value_or(TextMode::Engineer);
              return options->fps > 0 ? runHeadlessClip(headless, options->fps)
                                      : runHeadlessTour(headless);
            }
            // The window remembers the visitor's language, motion and text size; flags given
            // on the command line win. Booth mode reads them but never writes.
            WindowModeOptions window = options->window;
            window.trace = trace;
            window.text = text;
            const LoadedSettings loaded = loadSettings(settingsPath());
            if (!loaded.message.empty())
              std::fprintf(stderr, "dcwalk: %s\n", loaded.message.c_str());
            if (!sub->count("--language")) window.language = loaded.settings.language;
            if (!sub->count("--reduced-motion"))
              window.reducedMotion = loaded.settings.reducedMotion;
            if (!sub->count("--ui-scale")) window.uiScale = loaded.settings.uiScale;
            // A settings file that cannot be read is never replaced (saveSettings refuses too).
            if (!window.kiosk && !loaded.unreadable) window.settingsFile = settingsPath();
            return runWindowMode(options->render, window);
          }};
}

}  // namespace app
