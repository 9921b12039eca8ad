#include "app/window_mode.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <imgui.h>

#include "app/commands.h"
#include "app/legend.h"
#include "app/session.h"
#include "app/tour_session.h"
#include "app/window.h"
#include "world/tour_kiosk.h"

namespace app {
namespace {

constexpr const char* HELP_TEXT =
    "Space/PageDown next  PageUp back  1-9 0 chapters  Home back to the tour\n"
    "WASD fly  Q/E down/up  Shift fast  right-drag look  wheel closer/farther  +/- scale\n"
    "click select  left-drag orbit  F fly to selection  O heat overlay  L language\n"
    "R reduced motion  H help  Esc quit";

// The window's camera: the tour player drives it while on the path; any flying input leaves the
// path (the tour waits) and Home returns to it.
class WindowApp {
 public:
  WindowApp(Session& session, Window& window, world::TourPlayer player)
      : m_session(session), m_window(window), m_player(std::move(player)) {}

  void startTour() {
    m_player.start(m_camera.pose());
    m_camera.setPose(m_player.frame().cameraPose);
  }

  void setPlayer(world::TourPlayer player) {
    m_player = std::move(player);
    startTour();
  }
  world::TourPlayer& player() { return m_player; }

  /// Keys of the tour and the flight (not used in kiosk mode, which filters keys itself).
  void handleKey(int key) {
    switch (key) {
      case GLFW_KEY_ESCAPE:
        m_quit = true;
        break;
      case GLFW_KEY_PAGE_DOWN:
      case GLFW_KEY_SPACE:
      case GLFW_KEY_RIGHT:
        next();
        break;
      case GLFW_KEY_PAGE_UP:
      case GLFW_KEY_LEFT:
        prev();
        break;
      case GLFW_KEY_HOME:
      case GLFW_KEY_BACKSPACE:
        m_player.returnToPath(m_camera.pose());
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
        m_player.setLanguage(m_language = m_language == "en" ? "de" : "en");
        break;
      case GLFW_KEY_R:
        m_reducedMotion = !m_reducedMotion;
        m_player.setReducedMotion(m_reducedMotion);
        break;
      case GLFW_KEY_F:
        flyToSelection();
        break;
      default:
        if (key >= GLFW_KEY_0 && key <= GLFW_KEY_9) chapter(key - GLFW_KEY_0);
    }
  }
  void next() { m_player.next(); }
  void prev() { m_player.prev(); }
  void chapter(int digit) { m_player.jumpToChapterKey(digit); }

  /// Free-flight input; returns true when the visitor moved the camera.
  bool fly(const InputSnapshot& input, double dt, VkExtent2D extent) {
    const ImGuiIO& io = ImGui::GetIO();
    const double clearance = std::max(1e-6, m_session.world->nearestSurface(m_camera.position()));
    bool moved = false;
    if (!io.WantCaptureMouse) {
      if (input.mouseDeltaX != 0 || input.mouseDeltaY != 0) {
        leavePath();
        const double radiansPerPixel = 0.004;
        if (glfwGetMouseButton(m_window.handle(), GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS &&
            m_selection) {
          m_camera.orbit(m_selection->worldBounds.center(), -input.mouseDeltaX * radiansPerPixel,
                         -input.mouseDeltaY * radiansPerPixel);
        } else {
          m_camera.look(-input.mouseDeltaX * radiansPerPixel, -input.mouseDeltaY * radiansPerPixel);
        }
        moved = true;
      }
      if (input.scroll != 0) {
        leavePath();
        m_camera.dolly(input.scroll, clearance);
        moved = true;
      }
      if (input.leftClick) {
        world::FrameDesc frame{extent.width, extent.height};
        m_selection = m_session.world->pick(m_camera, input.clickX, input.clickY, frame);
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
        leavePath();
        m_camera.fly(axes, dt, clearance);
        moved = true;
      }
    }
    return moved;
  }

  /// Advances the tour (or a free fly-to) and places the camera.
  void advance(double dt) {
    if (m_flight) {
      m_flightElapsed_s += dt;
      m_camera.setPose(m_flight->sample(m_flightElapsed_s));
      if (m_flight->finished(m_flightElapsed_s)) m_flight.reset();
      return;
    }
    m_player.advance(dt);
    if (m_player.onPath()) m_camera.setPose(m_player.frame().cameraPose);
  }

  HudInfo hud(double fps, bool kioskMode) const {
    const world::TourFrame frame = m_player.frame();
    HudInfo hud = tourHud(frame);
    if (!m_player.onPath())
      hud.caption = m_language == "de" ? "Freier Flug: Pos1 führt zurück zur Tour"
                                       : "Free flight: Home returns to the tour";
    hud.status = simStatus(*m_session.engine, m_session.world->racks());
    if (!kioskMode) {
      char status[256];
      std::snprintf(status, sizeof(status),
                    "\n%s%s  nearest surface %s   %.0f fps   %llu triangles",
                    m_selection ? "selected: " : "", m_selection ? m_selection->part.c_str() : "",
                    world::formatLength(m_session.worldStats.nearestSurface_m).c_str(), fps,
                    static_cast<unsigned long long>(m_session.worldStats.triangles));
      hud.status += status;
      if (m_showHelp) hud.help = HELP_TEXT;
    }
    return hud;
  }

  /// The heat overlay: the visitor's choice (O) once made, else what the tour step asks for.
  world::OverlayMetric overlay() const {
    return m_overlayChosen ? m_overlay : tourOverlayMetric(m_player.frame());
  }
  const world::Camera& camera() const { return m_camera; }
  std::string selectedPath() const { return m_selection ? m_selection->path : std::string(); }
  bool quitRequested() const { return m_quit; }

 private:
  void leavePath() {
    if (m_player.onPath()) m_player.leavePath();
    m_flight.reset();
  }

  void flyTo(const world::OrbitPose& target) {
    leavePath();
    const double distance = std::max(1e-6, glm::length(target.target - m_camera.position()));
    m_flight.emplace(world::toOrbitPose(m_camera.pose(), distance), target);
    m_flightElapsed_s = 0;
  }

  void zoomScale(int direction) {
    const auto& stations = m_session.world->stations();
    std::optional<size_t> current = world::closestOnLadder(stations, scaleInView());
    std::optional<size_t> next =
        current ? world::neighbourOnLadder(stations, stations[*current].name, direction)
                : std::nullopt;
    if (next) flyTo(stations[*next].viewpoint);
  }

  // The size of what the camera looks at: twice the distance to the nearest surface is a fair
  // measure of the scale in view.
  double scaleInView() const { return 2.0 * std::max(1e-6, m_session.worldStats.nearestSurface_m); }

  void flyToSelection() {
    if (!m_selection) return;
    world::OrbitPose target = world::toOrbitPose(m_camera.pose(), 1.0);
    target.target = m_selection->worldBounds.center();
    target.distance_m = 2.0 * glm::length(m_selection->worldBounds.size());
    flyTo(target);
  }

  Session& m_session;
  Window& m_window;
  world::TourPlayer m_player;
  world::Camera m_camera;
  std::optional<world::PickHit> m_selection;
  std::optional<world::FlyTo> m_flight;
  double m_flightElapsed_s = 0;
  world::OverlayMetric m_overlay = world::OverlayMetric::None;
  bool m_overlayChosen = false;
  std::string m_language = "en";
  bool m_reducedMotion = false;
  bool m_showHelp = true;
  bool m_quit = false;
};

// Booth keys: the presenter remote's and the operator's quit chord; everything else is "any key".
world::KioskEvent kioskEvent(const InputSnapshot::KeyPress& press) {
  const int key = press.key;
  const int chord = GLFW_MOD_CONTROL | GLFW_MOD_ALT;
  if (key == GLFW_KEY_Q && (press.mods & chord) == chord) return {world::KioskInput::QuitChord};
  switch (key) {
    case GLFW_KEY_LEFT_CONTROL:
    case GLFW_KEY_RIGHT_CONTROL:
    case GLFW_KEY_LEFT_ALT:
    case GLFW_KEY_RIGHT_ALT:
    case GLFW_KEY_LEFT_SHIFT:
    case GLFW_KEY_RIGHT_SHIFT:
      return {world::KioskInput::None};  // part of a chord, not a touch
    case GLFW_KEY_PAGE_DOWN:
    case GLFW_KEY_SPACE:
    case GLFW_KEY_RIGHT:
      return {world::KioskInput::Next};
    case GLFW_KEY_PAGE_UP:
    case GLFW_KEY_LEFT:
      return {world::KioskInput::Prev};
    case GLFW_KEY_B:
    case GLFW_KEY_PERIOD:
      return {world::KioskInput::Blank};
    default:
      if (key >= GLFW_KEY_0 && key <= GLFW_KEY_9) {
        return {world::KioskInput::Chapter, key - GLFW_KEY_0};
      }
      return {world::KioskInput::AnyKey};
  }
}

world::TourPlayerDesc playerDesc(const WindowModeOptions& options, bool attract) {
  world::TourPlayerDesc desc;
  desc.language = options.language;
  desc.reducedMotion = options.reducedMotion;
  desc.autoAdvance = attract;
  desc.loop = attract;
  desc.highlightsOnly = attract;
  return desc;
}

}  // namespace

int runWindowMode(const RenderOptions& render, const WindowModeOptions& options) {
  Window window;
  std::string error;
  if (!window.open("dcwalk", render.width, render.height, options.fullscreen || options.kiosk,
                   error)) {
    std::fprintf(stderr, "dcwalk: %s\n", error.c_str());
    return EXIT_FAILURE_RUNTIME;
  }
  Session session;
  if (int status = openSession(render, &window, 18.0f * window.contentScale(), session)) {
    return status;
  }
  auto player = makeTourPlayer(session, options.tour, playerDesc(options, options.kiosk));
  if (!player) {
    std::fprintf(stderr, "dcwalk: %s\n", player.error().c_str());
    return EXIT_BAD_INPUT;
  }
  ImGui_ImplGlfw_InitForVulkan(window.handle(), true);
  WindowApp app(session, window, std::move(*player));
  app.startTour();
  world::KioskMachine kiosk(world::KioskDesc{options.kioskIdle_s, options.kioskWarning_s});
  world::KioskState kioskState = kiosk.state();
  if (options.kiosk) std::printf("dcwalk: kiosk %s\n", world::kioskStateName(kioskState));

  using Clock = std::chrono::steady_clock;
  auto last = Clock::now();
  double fps = 0;
  uint64_t frames = 0;
  bool blanked = false;
  std::string banner;
  double simTime_s = 0;
  while (!app.quitRequested()) {
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

    if (options.kiosk) {
      std::vector<world::KioskEvent> events;
      for (const auto& press : input.keysPressed) events.push_back(kioskEvent(press));
      if (input.leftClick || input.mouseDeltaX != 0 || input.mouseDeltaY != 0 ||
          input.scroll != 0) {
        events.push_back({world::KioskInput::AnyKey});
      }
      if (app.player().finished()) events.push_back({world::KioskInput::TourEnded});
      if (events.empty()) events.push_back({world::KioskInput::None});
      double step = wall_s;  // the booth's timeouts run on the wall clock
      for (const world::KioskEvent& event : events) {
        const world::KioskOutput out = kiosk.update(event, step);
        step = 0;
        if (out.quit) app.handleKey(GLFW_KEY_ESCAPE);
        if (out.startTour || out.startAttract) {
          auto fresh = makeTourPlayer(session, options.tour, playerDesc(options, out.startAttract));
          if (fresh) app.setPlayer(std::move(*fresh));
        }
        if (out.next) app.next();
        if (out.prev) app.prev();
        if (out.chapterDigit >= 0) app.chapter(out.chapterDigit);
        blanked = out.blanked;
        if (out.state != kioskState) {  // a log line per transition, for the booth operator
          std::printf("dcwalk: kiosk %s -> %s\n", world::kioskStateName(kioskState),
                      world::kioskStateName(out.state));
          std::fflush(stdout);
          kioskState = out.state;
        }
        banner.clear();
        if (out.state == world::KioskState::IdleWarning) {
          char text[128];
          std::snprintf(text, sizeof(text), "Still there? Press any key.  (%.0f s)",
                        out.warningLeft_s);
          banner = text;
        }
      }
    } else {
      for (const auto& press : input.keysPressed) app.handleKey(press.key);
      app.fly(input, dt, extent);
    }
    app.advance(dt);
    simTime_s += dt;  // the simulation runs in real time behind every scale
    session.engine->advanceTo(simTime_s);
    syncOverlay(session, app.overlay());

    world::FrameDesc frame{extent.width, extent.height};
    frame.selectedPath = app.selectedPath();
    session.worldStats = session.world->buildRenderList(app.camera(), frame, session.list);
    if (blanked) session.list.clear();  // presenter's blank: an empty scene, no UI
    ImGui_ImplGlfw_NewFrame();
    session.ui->beginFrame(0, 0, float(dt));
    if (!blanked) {
      session.ui->drawLabels(session.list, float(extent.width), float(extent.height));
      HudInfo hud = app.hud(fps, options.kiosk);
      hud.banner = banner;
      session.ui->drawHud(hud);
      drawLegend(session.world->overlay());
    }
    session.renderer->drawFrame(session.list, session.ui->endFrame(), extent);
    if (options.maxFrames && ++frames >= options.maxFrames) break;
  }
  session.renderer->waitIdle();
  ImGui_ImplGlfw_Shutdown();
  return reportValidation() ? EXIT_OK : EXIT_FAILURE_RUNTIME;
}

}  // namespace app
