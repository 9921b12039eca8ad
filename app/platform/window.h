// The platform window (GLFW lives only in app/): creation, the Vulkan surface, and a per-frame
// input snapshot that the modes map to camera moves.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

struct GLFWwindow;

namespace app {

/// What happened since the last poll.
struct InputSnapshot {
  double mouseDeltaX = 0, mouseDeltaY = 0;  // pixels, while the right button is held
  double scroll = 0;                        // wheel notches (+ = away from the user)
  bool leftClick = false;                   // pressed and released without dragging
  bool leftHeld = false;                    // the left button is down (a drag orbits)
  double clickX = 0, clickY = 0;
  struct KeyPress {
    int key;   // GLFW key code
    int mods;  // GLFW_MOD_* held when it was pressed
  };
  std::vector<KeyPress> keysPressed;  // keys pressed this frame, in order
  bool keyHeld[512] = {};             // GLFW key codes currently down
};

class Window {
 public:
  /// Opens a window; full screen on monitor `monitorIndex` (GLFW's order; -1 or one that is
  /// not connected: the primary). False with a message when there is no display or GLFW fails.
  /// A full-screen monitor that is disconnected later hands over to the primary one.
  bool open(const std::string& title, uint32_t width, uint32_t height, bool fullscreen,
            int monitorIndex, std::string& error);
  ~Window();

  /// Instance extensions the surface needs.
  std::vector<std::string> requiredExtensions() const;
  VkSurfaceKHR createSurface(VkInstance instance) const;
  /// Current framebuffer size (0x0 while minimised).
  VkExtent2D framebufferExtent() const;
  /// UI scale of the monitor (1 on ordinary displays, 2 on HiDPI).
  float contentScale() const;
  bool shouldClose() const;
  /// Ignores a close request (booth mode: only the operator may quit).
  void cancelClose();
  /// Processes events and returns the input since the last call.
  InputSnapshot poll();
  /// Blocks until an event arrives (used while minimised, so no CPU is burnt).
  void waitEvents() const;
  GLFWwindow* handle() const { return m_window; }

 private:
  static void onScroll(GLFWwindow* window, double x, double y);
  static void onKey(GLFWwindow* window, int key, int scancode, int action, int mods);
  static void onMouseButton(GLFWwindow* window, int button, int action, int mods);
  static void onCursor(GLFWwindow* window, double x, double y);

  GLFWwindow* m_window = nullptr;
  InputSnapshot m_pending;
  double m_lastX = 0, m_lastY = 0;
  bool m_haveCursor = false;
  bool m_rightDown = false;
  bool m_leftDown = false;
  double m_leftDownX = 0, m_leftDownY = 0;
};

}  // namespace app
