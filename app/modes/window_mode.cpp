#include "app/modes/window_mode.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <imgui.h>

#include "app/modes/booth.h"
#include "app/modes/kiosk.h"
#include "app/platform/capture.h"
#include "app/platform/frame_rate.h"
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
#include "app/ui/ui_text.h"
#include "app/ui/whatif_panel.h"
#include "sim/format.h"
#include "world/live/selection.h"

namespace app {
namespace {

// How long a first Esc (with nothing selected or open) waits for the second one that quits.
constexpr double QUIT_CONFIRM_S = 3.0;

// The capture folder as notices name it: in full, not relative to the folder dcwalk started in.
std::filesystem::path inFull(const std::filesystem::path& folder) {
  std::error_code error;
  const std::filesystem::path full = std::filesystem::absolute(folder, error);
  return error ? folder : full.lexically_normal();
}

// The window on top of the tour view: keys, mouse flight (which leaves the path; Home returns),
// picking, zooming one scale, the selection, timeline, what-if and chapter-menu windows, and the
// status line. Keys and windows ask the simulation for changes with commands.
class WindowApp : public TourView {
 public:
  WindowApp(Session& session, TourDriver& driver, TourPanel& panel,
            const WindowModeOptions& options)
      : TourView(driver, panel, options.language),
        m_session(session),
        m_driver(driver),
        m_settingsFile(options.settingsFile),
        m_settings{options.language, options.reducedMotion, options.uiScale},
        m_captureDir(inFull(options.captureDir)) {}

  /// Keys of the tour and the flight (not used in kiosk mode, which filters keys itself).
  void handleKey(int key, std::vector<SimCommand>& commands) {
    if (ImGui::GetIO().WantTextInput) return;  // typing into a panel's field (what-if)
    if (key != GLFW_KEY_ESCAPE) m_quitArmedUntil = {};
    if (m_menuOpen && menuKey(key)) return;
    switch (key) {
      case GLFW_KEY_ESCAPE:
        escape();
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
      case GLFW_KEY_G:
        m_driver.player().setAutoAdvance(!m_driver.player().autoAdvance());
        break;
      case GLFW_KEY_HOME:
      case GLFW_KEY_BACKSPACE:
        forgetLadder();
        m_driver.returnToPath();
        break;
      case GLFW_KEY_EQUAL:
      case GLFW_KEY_KP_ADD:
        zoom(-1, *m_session.world);
        break;
      case GLFW_KEY_MINUS:
      case GLFW_KEY_KP_SUBTRACT:
        zoom(+1, *m_session.world);
        break;
      case GLFW_KEY_B:
        backOut();
        break;
      case GLFW_KEY_H:
        m_showHelp = !m_showHelp;
        break;
      case GLFW_KEY_V:
        toggleDetails();
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
        notify(uiText(m_settings.reducedMotion ? "notice.reduced_on" : "notice.reduced_off",
                      language()));
        break;
      case GLFW_KEY_O:
        m_driver.cycleOverlay();
        break;
      case GLFW_KEY_X:
        m_driver.toggleTraffic();
        notify(uiText(m_driver.traffic() ? "notice.traffic_on" : "notice.traffic_off", language()));
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
        openMenu();
        break;
      case GLFW_KEY_F12:
        m_wantScreenshot = true;
        break;
      case GLFW_KEY_F9:
        m_toggleRecording = true;
        break;
      default:
        if (key >= GLFW_KEY_0 && key <= GLFW_KEY_9) m_driver.chapter(key - GLFW_KEY_0);
    }
  }

  /// Esc: closes what is open (the menu, the what-if panel), else clears the selection, else
  /// quits once pressed twice within a few seconds (the first press says so).
  void escape() {
    const auto now = std::chrono::steady_clock::now();
    if (m_menuOpen) {
      m_menuOpen = false;
    } else if (m_whatIf.open()) {
      m_whatIf.toggle();
    } else if (m_selection) {
      m_selection.reset();
    } else if (now < m_quitArmedUntil) {
      m_quit = true;
    } else {
      m_quitArmedUntil = now + std::chrono::milliseconds(int(QUIT_CONFIRM_S * 1000));
      notify(uiText("hud.quit_confirm", language()), QUIT_CONFIRM_S);
    }
  }

  /// The chapter menu's keys: Up/Down choose, Enter jumps, a digit jumps, M/Tab/Esc close.
  bool menuKey(int key) {
    const size_t n = m_menuChapters.size();
    switch (key) {
      case GLFW_KEY_UP:
        if (n) m_menuChoice = (m_menuChoice + n - 1) % n;
        return true;
      case GLFW_KEY_DOWN:
        if (n) m_menuChoice = (m_menuChoice + 1) % n;
        return true;
      case GLFW_KEY_ENTER:
      case GLFW_KEY_KP_ENTER:
        if (m_menuChoice < n) m_driver.player().jumpToChapter(m_menuChapters[m_menuChoice]);
        m_menuOpen = false;
        return true;
      case GLFW_KEY_M:
      case GLFW_KEY_TAB:
      case GLFW_KEY_ESCAPE:
        m_menuOpen = false;
        return true;
      default:
        if (key >= GLFW_KEY_0 && key <= GLFW_KEY_9) {
          m_driver.chapter(key - GLFW_KEY_0);
          m_menuOpen = false;
          return true;
        }
        return false;
    }
  }

  void openMenu() {
    m_menuOpen = !m_menuOpen;
    if (!m_menuOpen) return;
    // The keyboard starts on the chapter the tour is in.
    const world::TourPlayer& player = m_driver.player();
    m_menuChapters.clear();
    m_menuChoice = 0;
    for (const auto& [chapter, step] : player.order()) {
      if (step != 0) continue;
      if (chapter == player.frame().chapter) m_menuChoice = m_menuChapters.size();
      m_menuChapters.push_back(chapter);
    }
  }

  /// The chapter menu (M): every chapter played, the current one marked; a click jumps.
  void drawChapterMenu() {
    if (!m_menuOpen) return;
    const world::TourPlayer& player = m_driver.player();
    std::vector<std::string> entries;
    size_t current = 0;
    for (size_t i = 0; i < m_menuChapters.size(); ++i) {
      if (m_menuChapters[i] == player.frame().chapter) current = i;
      entries.push_back(player.text(player.tour().chapters[m_menuChapters[i]].title));
    }
    if (auto clicked = m_session.ui->drawChapterMenu(uiText("menu.chapters", language()), entries,
                                                     current, m_menuChoice)) {
      m_driver.player().jumpToChapter(m_menuChapters[*clicked]);
      m_menuOpen = false;
    }
  }

  /// The timeline and time controls (T), acting on what the visitor clicks.
  void drawTimeline(const FrameContext& context) {
    const SimHost& sim = context.sim;
    const double scrubMax_s = m_scrubRange.update(sim.run(), sim.time_s());
    if (!m_showTimeline) return;
    const TimeState state{sim.time_s(),     sim.speed(),           sim.paused(),         scrubMax_s,
                          sim.catchingUp(), sim.catchUpTarget_s(), sim.catchUpProgress()};
    app::drawTimeline(stepTimeline(m_session.replay.get(), context.snapshot, language()), state,
                      context.ui.layout().timeline, language(), context.commands);
  }

  /// The what-if and faults panel (I), asking the simulation for what the visitor changes.
  void drawWhatIf(const FrameContext& context) {
    const SimNotice& notice = context.sim.notice();
    const WorldRebuild* rebuild = m_session.rebuild.get();
    m_whatIf.draw({context.sim.request(), context.sim.generation(), context.sim.time_s(),
                   notice.text, notice.error, notice.serial,
                   rebuild && rebuild->pending() ? rebuild->pendingSystem() : std::string(),
                   &context.snapshot, &context.catalog},
                  context.ui.layout().panel, language(), context.commands);
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
          const bool frames = !m_clip->framesFolder().empty();
          notify(
              withValue(uiText(frames ? "notice.recording_frames" : "notice.recording", language()),
                        frames ? m_clip->framesFolder().string() : mp4.string()));
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
      notify(saved ? withValue(uiText("notice.saved", language()), saved->string())
                   : saved.error());
    }
    if (m_clip && !m_clip->addFrame(pixels)) finishClip();  // resized, or ffmpeg went away
  }

  void finishClip() {
    auto done = m_clip->finish();
    const uint64_t frames = m_clip->frames();
    m_clip.reset();
    notify(done ? withValue(uiText("notice.saved", language()),
                            done->string() + " (" + std::to_string(frames) + " frames)")
                : done.error());
  }

  /// A notice shown for a few seconds (and printed).
  void notify(const std::string& text, double seconds = 4.0) {
    std::printf("dcwalk: %s\n", text.c_str());
    std::fflush(stdout);
    m_notice = text;
    m_noticeUntil =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(int(seconds * 1e3));
  }
  std::string notice() const {
    return std::chrono::steady_clock::now() < m_noticeUntil ? m_notice : std::string();
  }

  /// Free-flight input; any move leaves the tour's path. Flight stops short of what it flies
  /// into and never below a speed that suits the place, so nothing traps the camera.
  void fly(const InputSnapshot& input, double dt, VkExtent2D extent) {
    const ImGuiIO& io = ImGui::GetIO();
    world::Camera& camera = m_driver.camera();
    const world::World& w = *m_session.world;
    if (!io.WantCaptureMouse) {
      if (input.mouseDeltaX != 0 || input.mouseDeltaY != 0) {
        leavePath();
        const double radiansPerPixel = 0.004;
        if (input.leftHeld && m_selection) {
          camera.orbit(m_selection->worldBounds.center(), -input.mouseDeltaX * radiansPerPixel,
                       -input.mouseDeltaY * radiansPerPixel);
        } else {
          camera.look(-input.mouseDeltaX * radiansPerPixel, -input.mouseDeltaY * radiansPerPixel);
        }
      }
      if (input.scroll != 0) {
        leavePath();
        dolly(input.scroll, w);
      }
      // A click on a panel is the panel's even when the pointer got there in the same frame
      // (WantCaptureMouse is still last frame's): it must not also select what lies behind.
      if (input.leftClick && !m_session.ui->takesPoint(float(input.clickX), float(input.clickY))) {
        // A click on empty space (or the backdrop) clears the selection.
        world::FrameDesc frame{extent.width, extent.height};
        m_selection = world::pickForSelection(w, camera, input.clickX, input.clickY, frame);
      }
    }
    if (!io.WantCaptureKeyboard && !m_menuOpen) {
      glm::dvec3 axes(0.0);
      if (input.keyHeld[GLFW_KEY_D]) axes.x += 1;
      if (input.keyHeld[GLFW_KEY_A]) axes.x -= 1;
      if (input.keyHeld[GLFW_KEY_E]) axes.y += 1;
      if (input.keyHeld[GLFW_KEY_Q]) axes.y -= 1;
      if (input.keyHeld[GLFW_KEY_W]) axes.z += 1;
      if (input.keyHeld[GLFW_KEY_S]) axes.z -= 1;
      if (input.keyHeld[GLFW_KEY_LEFT_SHIFT]) axes *= 4.0;
      if (axes != glm::dvec3(0.0)) {
        leavePath();
        TourView::fly(axes, dt, w);
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

  void worldRebuilt(const world::World& old, const world::World& world) override {
    // The picked part and the ladder rung were the old world's.
    m_selection.reset();
    forgetLadder();
    TourView::worldRebuilt(old, world);
  }

  void follow(FrameContext& context) override {
    TourView::follow(context);
    m_selectionPanel.update(m_selection, context.world, context.snapshot, context.catalog);
  }

  HudInfo hud(FrameContext& context) override {
    HudInfo hud = TourView::hud(context);
    if (m_session.replay) hud.caption = m_session.replay->narrate(hud.caption);
    if (m_kiosk) return hud;
    // The right column holds one panel: what-if, else the selection, else the chapter's.
    hud.panelOnRight = hud.panelOnRight || m_selectionPanel.active() || m_whatIf.open();
    hud.timeline = m_showTimeline;
    hud.timelineComparison = m_session.replay && !m_session.replay->comparisons().empty();
    hud.banner = notice();
    const std::string& lang = language();
    if (context.sim.catchingUp()) {
      char progress[32];
      std::snprintf(progress, sizeof progress, " (%.0f %%)", 100.0 * context.sim.catchUpProgress());
      hud.banner =
          withValue(uiText("time.catching_up", lang), secondsText(context.sim.catchUpTarget_s())) +
          progress;
    }
    if (m_session.rebuild && m_session.rebuild->pending()) {
      hud.banner = withValue(uiText("whatif.rebuilding", lang), m_session.rebuild->pendingSystem());
    }
    // Where the camera is (what it looks at, in the studio the frame is lit as), and how fast
    // things run.
    const world::Camera& camera = m_driver.camera();
    const world::Whereabouts here =
        world::locate(*m_session.world, camera.position(), camera.forward(), studio());
    std::string place;
    switch (here.kind) {
      case world::Whereabouts::Kind::Station:
        place = here.station;
        break;
      case world::Whereabouts::Kind::Rack:
        place = withValue(uiText("place.rack", lang), std::to_string(here.index));
        break;
      case world::Whereabouts::Kind::Hall:
        place = withValue(uiText("place.hall", lang), std::to_string(here.index));
        break;
      case world::Whereabouts::Kind::Campus:
        place = uiText("place.campus", lang);
        break;
    }
    std::string line2 =
        withValue(uiText("hud.you_are_in", lang), place + " · " + sim::formatLength(here.scale_m));
    if (m_selectionPanel.active())
      line2 += "   ·   " + withValue(uiText("hud.selected", lang), m_selectionPanel.info().title);
    char fps[32];
    std::snprintf(fps, sizeof fps, "%.0f", m_fps);
    line2 += "   ·   " + withValue(uiText("hud.fps", lang), fps);
    if (!m_showHelp) line2 += "   ·   " + std::string(uiText("hud.help_hint", lang));
    if (m_clip) line2 = std::string(uiText("hud.recording", lang)) + "   ·   " + line2;
    hud.status += "\n" + line2;
    if (m_showHelp) hud.help = uiText("help.keys", lang);
    return hud;
  }

  void drawWindows(FrameContext& context) override {
    if (m_kiosk) {
      TourView::drawWindows(context);
      return;
    }
    // One panel in the right column at a time.
    if (m_whatIf.open()) {
      drawWhatIf(context);
    } else if (!m_selectionPanel.draw(context.ui.layout().panel, language())) {
      TourView::drawWindows(context);
    }
    if (!m_whatIf.open()) drawWhatIf(context);  // follows the host's notices while closed
    drawTimeline(context);
    drawChapterMenu();
  }

  /// Shows a notice from the sim host once (what it did with the last command, or why not, or
  /// which of the visitor's changes a chapter's own simulation cleared).
  void followNotice(const SimNotice& notice) {
    if (notice.serial == m_noticeSerial) return;
    m_noticeSerial = notice.serial;
    if (!notice.cleared.empty()) {
      const std::string& lang = language();
      // One line: the first two changes named, the rest counted.
      std::vector<std::string> changes;
      for (const auto& f : notice.cleared.faults) changes.push_back(faultLabel(f, lang));
      if (!notice.cleared.scenario.empty())
        changes.push_back(withValue(uiText("notice.your_scenario", lang), notice.cleared.scenario));
      if (notice.cleared.fields) changes.push_back(uiText("notice.your_fields", lang));
      std::string what;
      for (size_t i = 0; i < std::min<size_t>(2, changes.size()); ++i)
        what += (i ? "; " : "") + changes[i];
      if (changes.size() > 2)
        what += " " + withValue(uiText("notice.more", lang), std::to_string(changes.size() - 2));
      notify(withValue(uiText("notice.cleared", lang), notice.cleared.chapter) + what, 8.0);
    } else if (!notice.text.empty()) {
      notify(notice.text);
    }
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

  void leavePath() {
    m_driver.leavePath();
    forgetLadder();
  }

  // B: back away from whatever the camera is close to, to see the place it is in.
  void backOut() {
    world::Camera& camera = m_driver.camera();
    const world::World& w = *m_session.world;
    const double clearance = std::max(0.0, w.nearestSurface(camera.position()));
    const double scale = placeScale(w);
    const double distance = std::max(clearance, 0.1 * scale);
    world::OrbitPose target = world::toOrbitPose(camera.pose(), distance);
    target.distance_m = distance + 0.6 * scale;
    m_driver.flyTo(target);
    forgetLadder();
  }

  // F: the selected thing framed whole, from outside it.
  void flyToSelection() {
    if (!m_selection) return;
    m_driver.flyTo(world::frameSelection(*m_session.world, *m_selection, m_driver.camera()));
    forgetLadder();
  }

  Session& m_session;
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
  std::chrono::steady_clock::time_point m_quitArmedUntil;
  bool m_menuOpen = false;
  std::vector<size_t> m_menuChapters;
  size_t m_menuChoice = 0;
  bool m_showTimeline = true;
  WhatIfPanel m_whatIf;
  ScrubRange m_scrubRange;  // the timeline's slider: the run on screen so far
  bool m_wantScreenshot = false;
  bool m_toggleRecording = false;
  bool m_showHelp = false;
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
  const VkExtent2D first = window.framebufferExtent();
  if (int status = openSession(
          render, &window,
          uiFontPixels(first.width, first.height, window.contentScale(), options.uiScale), session,
          sessionDesc)) {
    return status;
  }
  // The text size follows the window (runFrame refits the fonts when it is resized).
  session.ui->setScaling(window.contentScale(), options.uiScale);
  world::TourPlayerDesc playerDesc;
  playerDesc.language = options.language;
  playerDesc.reducedMotion = options.reducedMotion;
  Booth booth(*session.world, options.tour, playerDesc,
              KioskDesc{options.kioskIdle_s, options.kioskWarning_s}, options.kiosk);
  auto player = options.kiosk ? booth.attractPlayer()
                              : makeTourPlayer(*session.world, options.tour, playerDesc,
                                               options.trace.active());
  if (!player) {
    std::fprintf(stderr, "dcwalk: %s\n", player.error().c_str());
    return EXIT_BAD_INPUT;
  }
  if (auto text = checkTourText(player->bundle(), *session.catalog); !text) {
    std::fprintf(stderr, "dcwalk: %s\n", text.error().c_str());
    return EXIT_BAD_INPUT;
  }
  auto panel = TourPanel::load(*session.catalog);
  if (!panel) {
    std::fprintf(stderr, "dcwalk: %s\n", panel.error().c_str());
    return EXIT_BAD_INPUT;
  }
  ImGui_ImplGlfw_InitForVulkan(window.handle(), true);
  session.sim->keepCheckpoints(!options.kiosk);  // scrubbing back is the window's, not the booth's
  // A new system's world is built off the frame: the window keeps running meanwhile.
  if (session.rebuild) session.rebuild->setMode(WorldRebuild::Mode::Background);
  TourDriver driver(std::move(*player));
  std::vector<SimCommand> commands;
  driver.start(commands, /*cut=*/true);
  WindowApp app(session, driver, *panel, options);
  app.setKiosk(options.kiosk);
  app.setInteractive(true);
  app.setTextMode(options.text ? *options.text
                               : (options.kiosk ? TextMode::Booth : TextMode::Engineer));

  using Clock = std::chrono::steady_clock;
  auto last = Clock::now();
  FrameRate fps;
  uint64_t frames = 0;
  while (!app.quitRequested() && !booth.quitRequested()) {
    if (window.shouldClose()) {
      if (!options.kiosk) break;
      window.cancelClose();  // a visitor cannot close the booth's window
    }
    InputSnapshot input = window.poll();
    VkExtent2D extent = window.framebufferExtent();
    if (extent.width == 0 || extent.height == 0) {  // minimised or unmapped: wait, render nothing
      window.waitEvents();
      last = Clock::now();
      continue;
    }
    const auto now = Clock::now();
    const double wall_s = std::chrono::duration<double>(now - last).count();
    const double dt = std::clamp(wall_s, 1e-4, 0.1);  // motion: a long frame must not jump
    last = now;
    fps.add(wall_s);

    // Input since the last frame: what it asks of the simulation is applied as this frame starts.
    if (options.kiosk) {
      std::vector<KioskEvent> events;
      for (const auto& press : input.keysPressed) events.push_back(kioskEvent(press));
      if (input.leftClick || input.mouseDeltaX != 0 || input.mouseDeltaY != 0 ||
          input.scroll != 0) {
        events.push_back({KioskInput::AnyKey});
      }
      booth.update(events, wall_s, driver, commands);
      // The attract loop says in one line what this is and asks for a key; a visitor who just
      // woke the booth is told how to go on.
      app.setBooth(booth.blanked(), booth.state() == KioskState::Attract, booth.banner(),
                   booth.hint());
    } else {
      for (const auto& press : input.keysPressed) app.handleKey(press.key, commands);
      app.fly(input, dt, extent);
    }
    for (SimCommand& c : commands) session.sim->queue(std::move(c));
    commands.clear();
    app.followNotice(session.sim->notice());
    app.setFps(fps.fps());

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
