#include "app/platform/window.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>

namespace app {
namespace {

Window* self(GLFWwindow* window) {
  return static_cast<Window*>(glfwGetWindowUserPointer(window));
}

// The one window of the process (GLFW's monitor callback is global).
GLFWwindow* g_window = nullptr;

// Full screen on `monitor` at its current video mode.
void fillMonitor(GLFWwindow* window, GLFWmonitor* monitor) {
  const GLFWvidmode* mode = glfwGetVideoMode(monitor);
  if (!mode) return;
  glfwSetWindowMonitor(window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
}

// A booth's screen unplugged: carry on full screen on the primary monitor, if there still is one.
void onMonitor(GLFWmonitor* monitor, int event) {
  if (event != GLFW_DISCONNECTED || !g_window || glfwGetWindowMonitor(g_window) != monitor) return;
  GLFWmonitor* primary = glfwGetPrimaryMonitor();
  if (primary && primary != monitor) {
    std::fprintf(stderr, "dcwalk: the monitor was disconnected; full screen on the primary one\n");
    fillMonitor(g_window, primary);
  }
}

}  // namespace

bool Window::open(const std::string& title, uint32_t width, uint32_t height, bool fullscreen,
                  int monitorIndex, std::string& error) {
  if (!glfwInit()) {
    error = "cannot open a window: no display (set DISPLAY, or use --headless)";
    return false;
  }
  if (!glfwVulkanSupported()) {
    error = "cannot open a window: GLFW found no Vulkan loader";
    glfwTerminate();
    return false;
  }
  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
  GLFWmonitor* monitor = nullptr;
  if (fullscreen) {
    int count = 0;
    GLFWmonitor** monitors = glfwGetMonitors(&count);
    monitor = glfwGetPrimaryMonitor();
    if (monitorIndex >= count) {
      std::fprintf(stderr, "dcwalk: there is no monitor %d (%d connected); using the primary one\n",
                   monitorIndex, count);
    } else if (monitorIndex >= 0) {
      monitor = monitors[monitorIndex];
    }
    if (const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr) {
      width = uint32_t(mode->width);
      height = uint32_t(mode->height);
    }
  }
  m_window = glfwCreateWindow(int(width), int(height), title.c_str(), monitor, nullptr);
  if (!m_window) {
    error = "cannot create a window";
    glfwTerminate();
    return false;
  }
  glfwSetWindowUserPointer(m_window, this);
  // Our callbacks go in before ImGui's GLFW backend, which chains to them.
  glfwSetScrollCallback(m_window, onScroll);
  glfwSetKeyCallback(m_window, onKey);
  glfwSetMouseButtonCallback(m_window, onMouseButton);
  glfwSetCursorPosCallback(m_window, onCursor);
  // Focus loss needs nothing here: GLFW releases held keys and buttons when focus goes.
  g_window = m_window;
  glfwSetMonitorCallback(onMonitor);
  return true;
}

Window::~Window() {
  if (m_window) {
    g_window = nullptr;
    glfwDestroyWindow(m_window);
    glfwTerminate();
  }
}

std::vector<std::string> Window::requiredExtensions() const {
  uint32_t count = 0;
  const char** names = glfwGetRequiredInstanceExtensions(&count);
  return std::vector<std::string>(names, names + count);
}

VkSurfaceKHR Window::createSurface(VkInstance instance) const {
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  if (glfwCreateWindowSurface(instance, m_window, nullptr, &surface) != VK_SUCCESS) {
    return VK_NULL_HANDLE;
  }
  return surface;
}

VkExtent2D Window::framebufferExtent() const {
  int w = 0, h = 0;
  glfwGetFramebufferSize(m_window, &w, &h);
  // Minimised, or unmapped (hidden by the window manager, another workspace): nothing to show,
  // so the loop waits for events instead of rendering (issue 22: ~85 % CPU while unmapped).
  if (glfwGetWindowAttrib(m_window, GLFW_ICONIFIED) || !glfwGetWindowAttrib(m_window, GLFW_VISIBLE))
    return {0, 0};
  return {uint32_t(w > 0 ? w : 0), uint32_t(h > 0 ? h : 0)};
}

float Window::contentScale() const {
  float x = 1, y = 1;
  glfwGetWindowContentScale(m_window, &x, &y);
  return std::max(1.0f, std::max(x, y));
}

bool Window::shouldClose() const {
  return glfwWindowShouldClose(m_window);
}
void Window::cancelClose() {
  glfwSetWindowShouldClose(m_window, GLFW_FALSE);
}
void Window::waitEvents() const {
  glfwWaitEventsTimeout(0.1);
}

InputSnapshot Window::poll() {
  glfwPollEvents();
  InputSnapshot out = m_pending;
  out.leftHeld = glfwGetMouseButton(m_window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
  for (int key = 0; key < 512; ++key) {
    out.keyHeld[key] = key >= GLFW_KEY_SPACE && glfwGetKey(m_window, key) == GLFW_PRESS;
  }
  m_pending = InputSnapshot{};
  return out;
}

void Window::onScroll(GLFWwindow* window, double, double y) {
  self(window)->m_pending.scroll += y;
}

void Window::onKey(GLFWwindow* window, int key, int, int action, int mods) {
  if (action == GLFW_PRESS && key >= 0) self(window)->m_pending.keysPressed.push_back({key, mods});
}

void Window::onMouseButton(GLFWwindow* window, int button, int action, int) {
  Window* w = self(window);
  double x = 0, y = 0;
  glfwGetCursorPos(window, &x, &y);
  if (button == GLFW_MOUSE_BUTTON_RIGHT) w->m_rightDown = action == GLFW_PRESS;
  if (button == GLFW_MOUSE_BUTTON_LEFT) {
    if (action == GLFW_PRESS) {
      w->m_leftDown = true;
      w->m_leftDownX = x;
      w->m_leftDownY = y;
    } else if (w->m_leftDown) {
      w->m_leftDown = false;
      if (std::abs(x - w->m_leftDownX) < 4 && std::abs(y - w->m_leftDownY) < 4) {
        w->m_pending.leftClick = true;
        w->m_pending.clickX = x;
        w->m_pending.clickY = y;
      }
    }
  }
}

void Window::onCursor(GLFWwindow* window, double x, double y) {
  Window* w = self(window);
  if (w->m_haveCursor && (w->m_rightDown || w->m_leftDown)) {
    w->m_pending.mouseDeltaX += x - w->m_lastX;
    w->m_pending.mouseDeltaY += y - w->m_lastY;
  }
  w->m_lastX = x;
  w->m_lastY = y;
  w->m_haveCursor = true;
}

}  // namespace app
