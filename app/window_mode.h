// The interactive window: free flight, station jumps, zoom one scale in/out, picking.
#pragma once

#include <cstdint>
#include <string>

#include "app/options.h"

namespace app {

struct WindowModeOptions {
  std::string startStation = "rack";
  bool fullscreen = false;
  uint64_t maxFrames = 0;  // 0: until the window is closed
};

/// Opens the window and runs until Esc or close. Returns the exit status.
int runWindowMode(const RenderOptions& render, const WindowModeOptions& options);

}  // namespace app
