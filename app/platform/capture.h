// Capture: screenshots (F12 in the window) and clips. Clips are encoded by ffmpeg from Debian
// when it is installed: raw RGBA frames piped into `ffmpeg` (H.264, yuv420p, MP4), or a folder of
// numbered PNG frames turned into an MP4 afterwards. Without ffmpeg the frames are all there is,
// and the messages say so.
#pragma once

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "renderer/renderer.h"
#include "sim/result.h"

namespace app {

/// True when an `ffmpeg` executable is on PATH.
bool haveFfmpeg();

/// "dcwalk-20261129-193012-123" (UTC, milliseconds): a name that sorts by time.
std::string captureStem();

/// The user's pictures folder (xdg-user-dirs): XDG_PICTURES_DIR from
/// $XDG_CONFIG_HOME/user-dirs.dirs, else from the environment, else ~/Pictures; empty without
/// a home folder.
std::filesystem::path picturesDir();

/// Where F12 screenshots and F9 clips go unless --captures says: PICTURES/dcwalk for an installed
/// program (never next to the binary, nor wherever the desktop happened to start it), captures/
/// in the current folder for one run from the build tree.
std::filesystem::path defaultCaptureDir();

/// Writes `pixels` as the PNG file `path`, whole or not at all (writeFileAtomic); errors name the
/// file, the step and the reason.
sim::Result<bool> writePng(const std::filesystem::path& path, const renderer::Pixels& pixels);

/// "" when `path`, the value of `flag`, can take a PNG: a name ending in .png (any case) that
/// checkWritableFile accepts; otherwise why not, naming the flag. Checked before rendering.
std::string checkPngOut(const std::string& flag, const std::filesystem::path& path);

/// Writes `pixels` as FOLDER/dcwalk-<time>.png (creating the folder); the path, or why not.
sim::Result<std::filesystem::path> saveScreenshot(const renderer::Pixels& pixels,
                                                  const std::filesystem::path& folder);

/// Encodes FOLDER/frame-%06d.png (numbered from 1) into `mp4` at `fps` with ffmpeg (into FOLDER,
/// a folder the caller made, then renamed to `mp4`); errors name the log with ffmpeg's words.
sim::Result<bool> encodeFrames(const std::filesystem::path& folder, double fps,
                               const std::filesystem::path& mp4);

/// A clip being recorded from the window: each frame goes straight into ffmpeg's stdin, or,
/// without ffmpeg, into numbered PNG frames in a folder beside where the MP4 would have gone
/// (`mp4` without its extension), which `encodeFrames` or any editor turns into a video later.
class ClipRecorder {
 public:
  /// Starts ffmpeg writing `mp4` for frames of width x height at `fps`; without ffmpeg, the
  /// frames' folder.
  static sim::Result<std::unique_ptr<ClipRecorder>> start(const std::filesystem::path& mp4,
                                                          uint32_t width, uint32_t height,
                                                          double fps);
  ~ClipRecorder();
  ClipRecorder(const ClipRecorder&) = delete;
  ClipRecorder& operator=(const ClipRecorder&) = delete;

  /// Adds one frame; false (and the clip is over) when its size differs or ffmpeg has gone.
  bool addFrame(const renderer::Pixels& pixels);
  /// Closes the pipe and waits for ffmpeg; the clip's path (the frames' folder without
  /// ffmpeg), or why it failed.
  sim::Result<std::filesystem::path> finish();
  uint64_t frames() const { return m_frames; }
  /// Where the frames go, when there is no ffmpeg ("" when piping into ffmpeg).
  const std::filesystem::path& framesFolder() const { return m_folder; }

 private:
  ClipRecorder() = default;
  FILE* m_pipe = nullptr;
  std::filesystem::path m_folder;
  std::filesystem::path m_path;
  uint32_t m_width = 0, m_height = 0;
  uint64_t m_frames = 0;
};

}  // namespace app
