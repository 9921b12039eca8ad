// Capture without ffmpeg (issue 22: F9 wrote nothing, though the README says frames are written)
// and the HUD's frame rate as a median over the last second (the first frames read "5333").
#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "app/platform/capture.h"
#include "app/platform/frame_rate.h"

TEST(Capture, WithoutFfmpegAClipIsNumberedPngFrames) {
  const char* path = std::getenv("PATH");
  const std::string saved = path ? path : "";
  ::setenv("PATH", "/nonexistent", 1);  // no ffmpeg anywhere
  ASSERT_FALSE(app::haveFfmpeg());
  const std::filesystem::path dir = std::filesystem::path(DCWALK_BINARY_DIR) / "capture-test";
  std::filesystem::remove_all(dir);
  auto clip = app::ClipRecorder::start(dir / "clip.mp4", 8, 4, 30.0);
  ::setenv("PATH", saved.c_str(), 1);
  ASSERT_TRUE(clip) << clip.error();
  EXPECT_EQ((*clip)->framesFolder(), dir / "clip");
  renderer::Pixels pixels;
  pixels.width = 8;
  pixels.height = 4;
  pixels.rgba.assign(8 * 4 * 4, 200);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE((*clip)->addFrame(pixels));
  renderer::Pixels other = pixels;
  other.width = 4;  // a resized window ends the clip
  EXPECT_FALSE((*clip)->addFrame(other));
  auto done = (*clip)->finish();
  ASSERT_TRUE(done) << done.error();
  EXPECT_EQ(*done, dir / "clip");
  for (const char* name : {"frame-000001.png", "frame-000002.png", "frame-000003.png"})
    EXPECT_GT(std::filesystem::file_size(dir / "clip" / name), 0u) << name;
  EXPECT_FALSE(std::filesystem::exists(dir / "clip" / "frame-000004.png"));
}

TEST(FrameRate, IsTheMedianOfTheLastSecond) {
  app::FrameRate rate;
  EXPECT_EQ(rate.fps(), 0.0);
  // A start-up burst of very short frames, then a steady 30 fps: the median forgets the burst
  // once a second of frames has passed (a mean of 1/dt would read thousands).
  for (int i = 0; i < 5; ++i) rate.add(1.0 / 5333);
  for (int i = 0; i < 40; ++i) rate.add(1.0 / 30);
  EXPECT_NEAR(rate.fps(), 30.0, 1e-9);
  // One long frame (a hitch) does not move it.
  rate.add(0.5);
  EXPECT_NEAR(rate.fps(), 30.0, 1e-9);
  // Nonsense is ignored.
  rate.add(0.0);
  rate.add(-1.0);
  EXPECT_NEAR(rate.fps(), 30.0, 1e-9);
  // A slower machine: after a second at 10 fps it reads 10.
  for (int i = 0; i < 12; ++i) rate.add(0.1);
  EXPECT_NEAR(rate.fps(), 10.0, 1e-9);
}
