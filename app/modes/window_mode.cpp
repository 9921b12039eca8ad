#include "app/modes/window_mode.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <imgui.h>

#include "app/modes/booth.h"
#include "app/modes/kiosk.h"
#include "app/platform/capture.h"
#include "app/platform/settings.h"
#include "app/platform/window.h"
#include "app/session/exit_status.h"
#include "app/session/frame.h"
#include "app/session/session.h"
#include "app/session/tour_driver.h"
#include "app/session/tour_session.h"
#include "app/session/tour_view.h"
#include "app/ui/selection_panel.h"
#include "app/ui/timeline_panel.h"
#include "app/ui/tour_panel.h"
#include "app/ui/whatif_panel.h"

namespace app {
namespace {

constexpr const char* HELP_TEXT =
    "Space/PageDown next  PageUp back  1-9 0 chapters  Home back to the tour\n"
    "WASD fly  Q/E down/up  Shift fast  right-drag look  wheel closer/farther  +/- scale\n"
    "click select  left-drag orbit  F fly to selection  O heat overlay  X traffic  L language\n"
    "R reduced motion  M chapter menu  T timeline  P pause  [ ] sim speed  N sim step\n"
    "I what-if and faults\n"
    "F12 screenshot  F9 record clip  H help  Esc quit";

// The window on top of the tour view: keys, mouse flight (which leaves the path; Home returns),
// picking, zooming one scale, the selection, timeline, what-if and chapter-menu windows, and the
// debug status line. Keys and windows ask the simulation for changes with commands.
class WindowApp : public TourView {
 public:
  WindowApp(Session& session, Window& window, TourDriver& driver, TourPanel& panel,
            const WindowModeOptions& options)
      : TourView(driver, panel, options.language),
        m_session(session),
        m_window(window),
        m_driver(driver),
        m_settingsFile(options.settingsFile),
        m_settings{options.language, options.reducedMotion, options.uiScale},
        m_captureDir(options.captureDir) {}

  /// Keys of the tour and the flight (not used in kiosk mode, which filters keys itself).
  void handleKey(int key, std::vector<SimCommand>& commands) {
    if (ImGui::GetIO().WantTextInput) return;  // typing into a panel's field (what-if)
    switch (key) {
      case GLFW_KEY_ESCAPE:
        m_quit = true;
        break;
      case GLFW_KEY_PAGE_DOWN:
      case GLFW_KEY_SPACE:
      case GLFW_KEY_RIGHT:
        m_driver.next();
        break;
      case GLFW_KEY_PAGE_UP:
      case GLFW_KEY_LEFT:
        m_driver.prev();
        break;
      case GLFW_KEY_HOME:
      case GLFW_KEY_BACKSPACE:
        m_driver.returnToPath();
        break;
      case GLFW_KEY_EQUAL:
      case GLFW_KEY_KP_ADD:
        zoomScale(-1);
        break;
      case GLFW_KEY_MINUS:
      case GLFW_KEY_KP_SUBTRACT:
        zoomScale(+1);
        break;
      case GLFW_KEY_H:
        m_showHelp = !m_showHelp;
        break;
      case GLFW_KEY_L:
        m_settings.language = m_settings.language == "en" ? "de" : "en";
        m_driver.player().setLanguage(m_settings.language);
        setLanguage(m_settings.language);
        saveSettings();
        break;
      case GLFW_KEY_R:
        m_settings.reducedMotion = !m_settings.reducedMotion;
        m_driver.player().setReducedMotion(m_settings.reducedMotion);
        saveSettings();
        break;
      case GLFW_KEY_O:
        m_driver.cycleOverlay();
        break;
      case GLFW_KEY_X:
        m_driver.toggleTraffic();
        break;
      case GLFW_KEY_F:
        flyToSelection();
        break;
      case GLFW_KEY_T:
        m_showTimeline = !m_showTimeline;
        break;
      case GLFW_KEY_I:
        m_whatIf.toggle();
        break;
      case GLFW_KEY_P:
        commands.push_back(SimCommand::togglePause());
        break;
      case GLFW_KEY_N:
        commands.push_back(SimCommand::step());
        break;
      case GLFW_KEY_LEFT_BRACKET:
        commands.push_back(SimCommand::scaleSpeed(0.5));
        break;
      case GLFW_KEY_RIGHT_BRACKET:
        commands.push_back(SimCommand::scaleSpeed(2.0));
        break;
      case GLFW_KEY_M:
      case GLFW_KEY_TAB:
        m_menuOpen = !m_menuOpen;
        break;
      case GLFW_KEY_F12:
        m_wantScreenshot = true;
        break;
      case GLFW_KEY_F9:
        m_toggleRecording = true;
        break;
      default:
        if (key >= GLFW_KEY_0 && key <= GLFW_KEY_9) {
          m_driver.chapter(key - GLFW_KEY_0);
          m_menuOpen = false;
        }
    }
  }

  /// The chapter menu (M): every chapter played, the current one highlighted; a click jumps.
  void drawChapterMenu() {
    if (!m_menuOpen) return;
    const world::TourPlayer& player = m_driver.player();
    std::vector<std::string> entries;
    std::vector<size_t> chapters;
    size_t current = 0;
    const size_t here = player.frame().chapter;
    for (const auto& [chapter, step] : player.order()) {
      if (step != 0) continue;
      if (chapter == here) current = entries.size();
      chapters.push_back(chapter);
      entries.push_back(player.text(player.tour().chapters[chapter].title));
    }
    const std::string heading = m_settings.language == "de" ? "Kapitel" : "Chapters";
    if (auto clicked = m_session.ui->drawChapterMenu(heading, entries, current)) {
      m_driver.player().jumpToChapter(chapters[*clicked]);
      m_menuOpen = false;
    }
  }

  /// The timeline and time controls (T), acting on what the visitor clicks.
  void drawTimeline(const FrameContext& context) {
    m_scrubMax_s = std::max(m_scrubMax_s, context.sim.time_s());
    if (!m_showTimeline) return;
    const TimeState state{context.sim.time_s(), context.sim.speed(), context.sim.paused(),
                          m_scrubMax_s};
    app::drawTimeline(timelineOf(context.snapshot), state, context.commands);
  }

  /// The what-if and faults panel (I), asking the simulation for what the visitor changes.
  void drawWhatIf(const FrameContext& context) {
    const SimNotice& notice = context.sim.notice();
    m_whatIf.draw({context.sim.request(), context.sim.generation(), context.sim.time_s(),
                   notice.text, notice.error, notice.serial},
                  context.commands);
  }

  /// Whether this frame's pixels are wanted (F12, or a clip recording); starts and stops clips.
  bool wantsPixels(VkExtent2D extent) {
    if (m_toggleRecording) {
      m_toggleRecording = false;
      if (m_clip) {
        finishClip();
      } else {
        const auto mp4 = m_captureDir / (captureStem() + ".mp4");
        auto started = ClipRecorder::start(mp4, extent.width, extent.height, 30.0);
        if (started) {
          m_clip = std::move(*started);
          notify("Recording " + mp4.string() + "  (F9 stops)");
        } else {
          notify(started.error());
        }
      }
    }
    return m_wantScreenshot || m_clip;
  }

  /// Saves the screenshot asked for (F12) and feeds the clip (F9) with this frame's pixels.
  void capture(const renderer::Pixels& pixels) {
    if (m_wantScreenshot) {
      m_wantScreenshot = false;
      auto saved = saveScreenshot(pixels, m_captureDir);
      notify(saved ? "Saved " + saved->string() : saved.error());
    }
    if (m_clip && !m_clip->addFrame(pixels)) finishClip();  // resized, or ffmpeg went away
  }

  void finishClip() {
    auto done = m_clip->finish();
    const uint64_t frames = m_clip->frames();
    m_clip.reset();
    notify(done ? "Saved " + done->string() + " (" + std::to_string(frames) + " frames)"
                : done.error());
  }

  /// A notice shown for a few seconds (and printed).
  void notify(const std::string& text) {
    std::printf("dcwalk: %s\n", text.c_str());
    std::fflush(stdout);
    m_notice = text;
    m_noticeUntil = std::chrono::steady_clock::now() + std::chrono::seconds(4);
  }
  std::string notice() const {
    return std::chrono::steady_clock::now() < m_noticeUntil ? m_notice : std::string();
  }

  /// Free-flight input; any move leaves the tour's path.
  void fly(const InputSnapshot& input, double dt, VkExtent2D extent) {
    const ImGuiIO& io = ImGui::GetIO();
    world::Camera& camera = m_driver.camera();
    const double clearance = std::max(1e-6, m_session.world->nearestSurface(camera.position()));
    if (!io.WantCaptureMouse) {
      if (input.mouseDeltaX != 0 || input.mouseDeltaY != 0) {
        m_driver.leavePath();
        const double radiansPerPixel = 0.004;
        if (glfwGetMouseButton(m_window.handle(), GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS &&
            m_selection) {
          camera.orbit(m_selection->worldBounds.center(), -input.mouseDeltaX * radiansPerPixel,
                       -input.mouseDeltaY * radiansPerPixel);
        } else {
          camera.look(-input.mouseDeltaX * radiansPerPixel, -input.mouseDeltaY * radiansPerPixel);
        }
      }
      if (input.scroll != 0) {
        m_driver.leavePath();
        camera.dolly(input.scroll, clearance);
      }
      if (input.leftClick) {
        world::FrameDesc frame{extent.width, extent.height};
        m_selection = m_session.world->pick(camera, input.clickX, input.clickY, frame);
      }
    }
    if (!io.WantCaptureKeyboard) {
      glm::dvec3 axes(0.0);
      if (input.keyHeld[GLFW_KEY_D]) axes.x += 1;
      if (input.keyHeld[GLFW_KEY_A]) axes.x -= 1;
      if (input.keyHeld[GLFW_KEY_E]) axes.y += 1;
      if (input.keyHeld[GLFW_KEY_Q]) axes.y -= 1;
      if (input.keyHeld[GLFW_KEY_W]) axes.z += 1;
      if (input.keyHeld[GLFW_KEY_S]) axes.z -= 1;
      if (input.keyHeld[GLFW_KEY_LEFT_SHIFT]) axes *= 4.0;
      if (axes != glm::dvec3(0.0)) {
        m_driver.leavePath();
        camera.fly(axes, dt, clearance);
      }
    }
  }

  // --- the frame source: the tour view plus the window's status, help and windows ---
  void setFps(double fps) { m_fps = fps; }

  world::FrameDesc frameDesc(VkExtent2D extent, const SimHost& sim) const override {
    world::FrameDesc frame = TourView::frameDesc(extent, sim);
    frame.selectedPath = m_selection ? m_selection->path : std::string();
    return frame;
  }

  void follow(FrameContext& context) override {
    TourView::follow(context);
    m_selectionPanel.update(m_selection, context.world, context.snapshot, context.catalog);
  }

  HudInfo hud(FrameContext& context) override {
    HudInfo hud = TourView::hud(context);
    hud.panelOnRight = hud.panelOnRight || m_selectionPanel.active();
    if (m_kiosk) return hud;
    hud.banner = notice();
    if (context.sim.catchingUp()) {
      char text[96];
      std::snprintf(text, sizeof(text), "Catching up to t = %.1f s (%.0f %%)",
                    context.sim.catchUpTarget_s(), 100.0 * context.sim.catchUpProgress());
      hud.banner = text;
    }
    char status[256];
    std::snprintf(status, sizeof(status), "\n%s%s  nearest surface %s   %.0f fps   %llu triangles",
                  m_selection ? "selected: " : "", m_selection ? m_selection->part.c_str() : "",
                  world::formatLength(m_session.worldStats.nearestSurface_m).c_str(), m_fps,
                  static_cast<unsigned long long>(m_session.worldStats.triangles));
    hud.status += status;
    if (m_session.worldStats.heldBack > 0) {
      // Heavy --assets models: say why some parts show as plain boxes.
      std::snprintf(status, sizeof(status), " (budget: %u parts as boxes)",
                    m_session.worldStats.heldBack);
      hud.status += status;
    }
    if (m_showHelp) hud.help = HELP_TEXT;
    return hud;
  }

  void drawWindows(FrameContext& context) override {
    // A selection takes the simulator panel's place while it lasts.
    if (!m_selectionPanel.draw()) TourView::drawWindows(context);
    if (m_kiosk) return;
    drawTimeline(context);
    drawChapterMenu();
    drawWhatIf(context);
  }

  /// Shows a notice from the sim host once (what it did with the last command, or why not).
  void followNotice(const SimNotice& notice) {
    if (notice.serial == m_noticeSerial) return;
    m_noticeSerial = notice.serial;
    if (!notice.text.empty()) notify(notice.text);
  }

  void setKiosk(bool kiosk) { m_kiosk = kiosk; }

  /// Finishes a clip still being recorded (the window is closing).
  void stopRecording() {
    if (m_clip) finishClip();
  }

  bool quitRequested() const { return m_quit; }

 private:
  // Remembers the visitor's choices for the next run; a failed save is reported, not fatal.
  void saveSettings() const {
    if (m_settingsFile.empty()) return;
    if (auto saved = app::saveSettings(m_settingsFile, m_settings); !saved) {
      std::fprintf(stderr, "dcwalk: %s\n", saved.error().c_str());
    }
  }

  void zoomScale(int direction) {
    const auto& stations = m_session.world->stations();
    std::optional<size_t> current = world::closestOnLadder(stations, scaleInView());
    std::optional<size_t> next =
        current ? world::neighbourOnLadder(stations, stations[*current].name, direction)
                : std::nullopt;
    if (next) m_driver.flyTo(stations[*next].viewpoint);
  }

  // The size of what the camera looks at: twice the distance to the nearest surface is a fair
  // measure of the scale in view.
  double scaleInView() const { return 2.0 * std::max(1e-6, m_session.worldStats.nearestSurface_m); }

  void flyToSelection() {
    if (!m_selection) return;
    world::OrbitPose target = world::toOrbitPose(m_driver.camera().pose(), 1.0);
    target.target = m_selection->worldBounds.center();
    target.distance_m = 2.0 * glm::length(m_selection->worldBounds.size());
    m_driver.flyTo(target);
  }

  Session& m_session;
  Window& m_window;
  TourDriver& m_driver;
  std::optional<world::PickHit> m_selection;
  SelectionPanel m_selectionPanel;
  double m_fps = 0;
  bool m_kiosk = false;
  uint64_t m_noticeSerial = 0;
  std::filesystem::path m_settingsFile;
  Settings m_settings;
  std::filesystem::path m_captureDir;
  std::unique_ptr<ClipRecorder> m_clip;
  std::string m_notice;
  std::chrono::steady_clock::time_point m_noticeUntil;
  bool m_menuOpen = false;
  bool m_showTimeline = true;
  WhatIfPanel m_whatIf;
  double m_scrubMax_s = 0;
  bool m_wantScreenshot = false;
  bool m_toggleRecording = false;
  bool m_showHelp = true;
  bool m_quit = false;
};

// Booth keys: the presenter remote's and the operator's quit chord; everything else is "any key".
KioskEvent kioskEvent(const InputSnapshot::KeyPress& press) {
  const int key = press.key;
  const int chord = GLFW_MOD_CONTROL | GLFW_MOD_ALT;
  if (key == GLFW_KEY_Q && (press.mods & chord) == chord) return {KioskInput::QuitChord};
  switch (key) {
    case GLFW_KEY_LEFT_CONTROL:
    case GLFW_KEY_RIGHT_CONTROL:
    case GLFW_KEY_LEFT_ALT:
    case GLFW_KEY_RIGHT_ALT:
    case GLFW_KEY_LEFT_SHIFT:
    case GLFW_KEY_RIGHT_SHIFT:
      return {KioskInput::None};  // part of a chord, not a touch
    case GLFW_KEY_PAGE_DOWN:
    case GLFW_KEY_SPACE:
    case GLFW_KEY_RIGHT:
      return {KioskInput::Next};
    case GLFW_KEY_PAGE_UP:
    case GLFW_KEY_LEFT:
      return {KioskInput::Prev};
    case GLFW_KEY_B:
    case GLFW_KEY_PERIOD:
      return {KioskInput::Blank};
    default:
      if (key >= GLFW_KEY_0 && key <= GLFW_KEY_9) {
        return {KioskInput::Chapter, key - GLFW_KEY_0};
      }
      return {KioskInput::AnyKey};
  }
}

}  // namespace

int runWindowMode(const RenderOptions& render, const WindowModeOptions& options) {
  Window window;
  std::string error;
  if (!window.open("dcwalk", render.width, render.height, options.fullscreen || options.kiosk,
                   options.monitor, error)) {
    std::fprintf(stderr, "dcwalk: %s\n", error.c_str());
    return EXIT_FAILURE_RUNTIME;
  }
  Session session;
  SessionDesc sessionDesc;
  sessionDesc.trace = options.trace;
  if (int status =
          openSession(render, &window, 18.0f * window.contentScale() * float(options.uiScale),
                      session, sessionDesc)) {
    return status;
  }
  world::TourPlayerDesc playerDesc;
  playerDesc.language = options.language;
  playerDesc.reducedMotion = options.reducedMotion;
  Booth booth(*session.world, options.tour, playerDesc,
              KioskDesc{options.kioskIdle_s, options.kioskWarning_s}, options.kiosk);
  auto player = options.kiosk ? booth.attractPlayer()
                              : makeTourPlayer(*session.world, options.tour, playerDesc);
  if (!player) {
    std::fprintf(stderr, "dcwalk: %s\n", player.error().c_str());
    return EXIT_BAD_INPUT;
  }
  auto panel = TourPanel::load(*session.catalog);
  if (!panel) {
    std::fprintf(stderr, "dcwalk: %s\n", panel.error().c_str());
    return EXIT_BAD_INPUT;
  }
  ImGui_ImplGlfw_InitForVulkan(window.handle(), true);
  session.sim->keepCheckpoints(!options.kiosk);  // scrubbing back is the window's, not the booth's
  TourDriver driver(std::move(*player));
  std::vector<SimCommand> commands;
  driver.start(commands, /*cut=*/true);
  WindowApp app(session, window, driver, *panel, options);
  app.setKiosk(options.kiosk);
  app.setInteractive(true);

  using Clock = std::chrono::steady_clock;
  auto last = Clock::now();
  double fps = 0;
  uint64_t frames = 0;
  while (!app.quitRequested() && !booth.quitRequested()) {
    if (window.shouldClose()) {
      if (!options.kiosk) break;
      window.cancelClose();  // a visitor cannot close the booth's window
    }
    InputSnapshot input = window.poll();
    VkExtent2D extent = window.framebufferExtent();
    if (extent.width == 0 || extent.height == 0) {  // minimised: wait, render nothing
      window.waitEvents();
      last = Clock::now();
      continue;
    }
    const auto now = Clock::now();
    const double wall_s = std::chrono::duration<double>(now - last).count();
    const double dt = std::clamp(wall_s, 1e-4, 0.1);  // motion: a long frame must not jump
    last = now;
    fps = fps == 0 ? 1.0 / dt : 0.95 * fps + 0.05 / dt;

    // Input since the last frame: what it asks of the simulation is applied as this frame starts.
    if (options.kiosk) {
      std::vector<KioskEvent> events;
      for (const auto& press : input.keysPressed) events.push_back(kioskEvent(press));
      if (input.leftClick || input.mouseDeltaX != 0 || input.mouseDeltaY != 0 ||
          input.scroll != 0) {
        events.push_back({KioskInput::AnyKey});
      }
      booth.update(events, wall_s, driver, commands);
      app.setBooth(booth.blanked(), booth.state() == KioskState::Attract, booth.banner());
    } else {
      for (const auto& press : input.keysPressed) app.handleKey(press.key, commands);
      app.fly(input, dt, extent);
    }
    for (SimCommand& c : commands) session.sim->queue(std::move(c));
    commands.clear();
    app.followNotice(session.sim->notice());
    app.setFps(fps);

    FrameSpec spec;
    spec.dt_s = dt;  // the simulation runs in real time behind every scale
    spec.extent = extent;
    spec.output = FrameOutput::Present;
    spec.alsoReadBack = app.wantsPixels(extent);
    spec.platformNewFrame = [] { ImGui_ImplGlfw_NewFrame(); };
    FrameResult frame = runFrame(session, app, spec);
    if (spec.alsoReadBack) app.capture(frame.pixels);
    if (options.maxFrames && ++frames >= options.maxFrames) break;
  }
  app.stopRecording();
  session.renderer->waitIdle();
  ImGui_ImplGlfw_Shutdown();
  return reportValidation() ? EXIT_OK : EXIT_FAILURE_RUNTIME;
}

}  // namespace app
