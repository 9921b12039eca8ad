// The interactive window: the guided tour (or booth mode), free flight off the path, zoom one
// scale in/out, picking.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "app/platform/capture.h"
#include "app/session/render_options.h"
#include "app/session/trace_replay.h"
#include "app/ui/ui_layout.h"

namespace app {

struct WindowModeOptions {
  std::string tour = "default";
  std::string language = "en";
  bool reducedMotion = false;
  TraceRequest trace;         // --trace: the traced job replayed instead of the model
  bool kiosk = false;         // booth mode: attract loop, idle reset, only the operator chord quits
  double kioskIdle_s = 90.0;  // quiet time in the tour before "are you still there?"
  double kioskWarning_s = 15.0;  // the countdown before the attract loop returns
  double uiScale = 1.0;          // text size on top of the monitor's HiDPI scale
  // Where L (language) and R (reduced motion) are remembered; empty: not saved (booth mode).
  std::filesystem::path settingsFile;
  std::filesystem::path captureDir = defaultCaptureDir();  // F12 screenshots and F9 clips
  bool fullscreen = false;
  int monitor = -1;              // full screen on this monitor (0, 1, ...); -1: the primary one
  uint64_t maxFrames = 0;        // 0: until the window is closed
  std::optional<TextMode> text;  // --text; default booth in --kiosk, engineer otherwise
};

/// Opens the window and runs until Esc or close. Returns the exit status.
int runWindowMode(const RenderOptions& render, const WindowModeOptions& options);

}  // namespace app
