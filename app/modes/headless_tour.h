// The tour without a window: every step's key frame to PNGs plus a contact sheet, or the tour in
// time as a clip (numbered PNG frames, and an MP4 where ffmpeg is installed). Both are loops
// around runFrame with the tour's frame source.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "app/session/render_options.h"
#include "app/session/trace_replay.h"
#include "app/ui/ui_layout.h"

namespace app {

struct HeadlessTourOptions {
  RenderOptions render;
  std::string tour = "default";
  std::string language = "en";
  std::string out = "out";
  int chapter = 0;             // only this chapter (1..10, 11: the finale); 0 = all
  bool reducedMotion = false;  // the clip: cut between views
  double uiScale = 1.0;
  TraceRequest trace;                  // --trace: the traced job replayed instead of the model
  TextMode text = TextMode::Engineer;  // --text
};

/// Frames a clip may have (`tour --headless --fps`), counted before rendering from the tour's
/// holds and longest flights: the built-in tour is 379 s at most, 91,000 frames at the 240 fps
/// maximum; 100,000 frames is 28 minutes at 60 fps.
inline constexpr uint64_t MAX_CLIP_FRAMES = 100'000;

/// A key frame's file name: "03-<chapter id>-2.png" for the 2nd step of the 3rd chapter (0-based
/// arguments). The id is one the tour loader accepted (world::checkFileNameId): a safe name.
std::string keyFrameName(size_t chapter, const std::string& chapterId, size_t step);

/// Key frames: each step's view with the simulation as a visitor sees it at the end of the step
/// (or, when the step injects a fault, in the middle of the fault). Returns the exit status.
int runHeadlessTour(const HeadlessTourOptions& options);
/// The tour as a visitor sees it, flights and all, at `fps` into OUT/frames (or
/// OUT/frames-chapter-K), then an MP4 beside them when ffmpeg is installed.
int runHeadlessClip(const HeadlessTourOptions& options, double fps);

}  // namespace app
