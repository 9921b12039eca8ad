#include "app/window_mode.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <imgui.h>

#include "app/commands.h"
#include "app/session.h"
#include "app/window.h"

namespace app {
namespace {

constexpr const char* HELP_TEXT =
    "WASD fly  Q/E down/up  Shift fast  right-drag look  wheel closer/farther\n"
    "click select  left-drag orbit  F fly to selection\n"
    "PageDown/Space next  PageUp back  1-9 0 stations  +/- scale in/out  H help  Esc quit";

// Camera state machine of the window: free flight, or a fly-to in progress.
struct Flight {
  std::optional<world::FlyTo> move;
  double elapsed_s = 0;
};

class WindowApp {
 public:
  WindowApp(Session& session, Window& window) : m_session(session), m_window(window) {
    for (const auto& s : session.world->stations()) m_order.push_back(&s);
  }

  void start(const std::string& stationName) {
    const world::Station* station = m_session.world->station(stationName);
    if (!station && !m_order.empty()) station = m_order.front();
    if (station) {
      frameStation(*station, m_camera);
      m_current = station;
    }
  }

  void update(const InputSnapshot& input, double dt, VkExtent2D extent) {
    const ImGuiIO& io = ImGui::GetIO();
    for (int key : input.keysPressed) handleKey(key);
    const double clearance = std::max(1e-6, m_session.world->nearestSurface(m_camera.position()));
    if (m_flight.move) {
      m_flight.elapsed_s += dt;
      m_camera.setPose(m_flight.move->sample(m_flight.elapsed_s));
      if (m_flight.move->finished(m_flight.elapsed_s)) m_flight.move.reset();
      return;
    }
    if (!io.WantCaptureMouse) {
      if (input.mouseDeltaX != 0 || input.mouseDeltaY != 0) {
        const double radiansPerPixel = 0.004;
        if (glfwGetMouseButton(m_window.handle(), GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS &&
            m_selection) {
          m_camera.orbit(m_selection->worldBounds.center(), -input.mouseDeltaX * radiansPerPixel,
                         -input.mouseDeltaY * radiansPerPixel);
        } else {
          m_camera.look(-input.mouseDeltaX * radiansPerPixel, -input.mouseDeltaY * radiansPerPixel);
        }
      }
      if (input.scroll != 0) m_camera.dolly(input.scroll, clearance);
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
      if (axes != glm::dvec3(0.0)) m_camera.fly(axes, dt, clearance);
    }
  }

  HudInfo hud(double fps) const {
    HudInfo hud;
    if (m_current) hud = stationHud(*m_current);
    char status[256];
    std::snprintf(status, sizeof(status), "%s%s   nearest surface %s   %.0f fps   %llu triangles",
                  m_selection ? "selected: " : "",
                  m_selection ? (m_selection->part + "  ").c_str() : "",
                  world::formatLength(m_session.worldStats.nearestSurface_m).c_str(), fps,
                  static_cast<unsigned long long>(m_session.worldStats.triangles));
    hud.status = status;
    if (m_showHelp) hud.help = HELP_TEXT;
    return hud;
  }

  const world::Camera& camera() const { return m_camera; }
  bool quitRequested() const { return m_quit; }

 private:
  void flyTo(const world::Station& station) {
    const double distance =
        std::max(1e-6, glm::length(station.viewpoint.target - m_camera.position()));
    m_flight.move.emplace(world::toOrbitPose(m_camera.pose(), distance), station.viewpoint);
    m_flight.elapsed_s = 0;
    m_current = &station;
  }

  void stepStation(int direction) {
    if (m_order.empty()) return;
    auto it = std::find(m_order.begin(), m_order.end(), m_current);
    long index = it == m_order.end() ? 0 : long(it - m_order.begin()) + direction;
    index = std::clamp(index, 0L, long(m_order.size()) - 1);
    flyTo(*m_order[size_t(index)]);
  }

  void zoomScale(int direction) {
    const auto& stations = m_session.world->stations();
    std::optional<size_t> next =
        m_current ? world::neighbourOnLadder(stations, m_current->name, direction) : std::nullopt;
    if (next) flyTo(stations[*next]);
  }

  void handleKey(int key) {
    switch (key) {
      case GLFW_KEY_ESCAPE:
        m_quit = true;
        break;
      case GLFW_KEY_PAGE_DOWN:
      case GLFW_KEY_SPACE:
      case GLFW_KEY_RIGHT:
        stepStation(+1);
        break;
      case GLFW_KEY_PAGE_UP:
      case GLFW_KEY_LEFT:
        stepStation(-1);
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
      case GLFW_KEY_F:
        if (m_selection) {
          world::OrbitPose target = world::toOrbitPose(m_camera.pose(), 1.0);
          target.target = m_selection->worldBounds.center();
          target.distance_m = 2.0 * glm::length(m_selection->worldBounds.size());
          m_flight.move.emplace(world::toOrbitPose(m_camera.pose(), target.distance_m), target);
          m_flight.elapsed_s = 0;
        }
        break;
      default:
        if (key >= GLFW_KEY_0 && key <= GLFW_KEY_9) {
          const size_t index = key == GLFW_KEY_0 ? 9 : size_t(key - GLFW_KEY_1);
          if (index < m_order.size()) flyTo(*m_order[index]);
        }
    }
  }

  Session& m_session;
  Window& m_window;
  world::Camera m_camera;
  std::vector<const world::Station*> m_order;
  const world::Station* m_current = nullptr;
  std::optional<world::PickHit> m_selection;
  Flight m_flight;
  bool m_showHelp = true;
  bool m_quit = false;
};

}  // namespace

int runWindowMode(const RenderOptions& render, const WindowModeOptions& options) {
  Window window;
  std::string error;
  if (!window.open("dcwalk", render.width, render.height, options.fullscreen, error)) {
    std::fprintf(stderr, "dcwalk: %s\n", error.c_str());
    return EXIT_FAILURE_RUNTIME;
  }
  Session session;
  if (int status = openSession(render, &window, 18.0f * window.contentScale(), session)) {
    return status;
  }
  ImGui_ImplGlfw_InitForVulkan(window.handle(), true);
  WindowApp app(session, window);
  app.start(options.startStation);

  using Clock = std::chrono::steady_clock;
  auto last = Clock::now();
  double fps = 0;
  uint64_t frames = 0;
  while (!window.shouldClose() && !app.quitRequested()) {
    InputSnapshot input = window.poll();
    VkExtent2D extent = window.framebufferExtent();
    if (extent.width == 0 || extent.height == 0) {  // minimised: wait, render nothing
      window.waitEvents();
      last = Clock::now();
      continue;
    }
    const auto now = Clock::now();
    const double dt = std::clamp(std::chrono::duration<double>(now - last).count(), 1e-4, 0.1);
    last = now;
    fps = fps == 0 ? 1.0 / dt : 0.95 * fps + 0.05 / dt;
    app.update(input, dt, extent);

    world::FrameDesc frame{extent.width, extent.height};
    session.worldStats = session.world->buildRenderList(app.camera(), frame, session.list);
    ImGui_ImplGlfw_NewFrame();
    session.ui->beginFrame(0, 0, float(dt));
    session.ui->drawLabels(session.list, float(extent.width), float(extent.height));
    session.ui->drawHud(app.hud(fps));
    session.renderer->drawFrame(session.list, session.ui->endFrame(), extent);
    if (options.maxFrames && ++frames >= options.maxFrames) break;
  }
  session.renderer->waitIdle();
  ImGui_ImplGlfw_Shutdown();
  return reportValidation() ? EXIT_OK : EXIT_FAILURE_RUNTIME;
}

}  // namespace app
