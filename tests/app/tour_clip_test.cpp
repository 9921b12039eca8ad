// `dcwalk tour --headless --fps N --chapter K`: the chapter as a visitor sees it, in time, as
// numbered PNG frames and (where ffmpeg is installed) an MP4 with the same frame count.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/common/cli.h"
#include "tests/common/paths.h"

namespace fs = std::filesystem;

namespace {

bool haveTool(const char* name) {
  return std::system((std::string("command -v ") + name + " >/dev/null 2>&1").c_str()) == 0;
}

TEST(TourClip, ChapterOneRendersItsHoldTimesAtTheFrameRate) {
  // The chapter's length from the shipped tour file: its steps' hold times, plus at most one
  // flight (capped at 1.6 s, world/scene/flight.h) into each step after the first.
  std::ifstream in(testpaths::sourceDir() / "assets" / "tours" / "default.json");
  const nlohmann::json tour = nlohmann::json::parse(in);
  const auto& steps = tour.at("chapters").at(0).at("steps");
  double hold_s = 0;
  for (const auto& step : steps) hold_s += step.value("hold_s", 8.0);
  const double maxFlights_s = 1.6 * double(steps.size() - 1);

  const fs::path out = testpaths::freshDir("tour-clip-test");
  fs::remove_all(out);
  constexpr double FPS = 4;
  const testcli::CliRun run =
      testcli::dcwalk("tour --headless --chapter 1 --fps 4 --size 160x90 --out " + out.string(),
                      true, "timeout 300");
  ASSERT_EQ(run.status, 0) << run.out;
  const fs::path frames = out / "frames-chapter-1";
  size_t count = 0;
  for (const auto& entry : fs::directory_iterator(frames)) {
    EXPECT_EQ(entry.path().extension(), ".png");
    ++count;
  }
  EXPECT_GE(double(count), hold_s * FPS) << run.out;
  EXPECT_LE(double(count), (hold_s + maxFlights_s) * FPS + 1) << run.out;
  EXPECT_TRUE(fs::exists(frames / "frame-000001.png"));
  char last[32];
  std::snprintf(last, sizeof(last), "frame-%06zu.png", count);
  EXPECT_TRUE(fs::exists(frames / last)) << "frames are numbered 1..N without gaps";

  const fs::path mp4 = out / "chapter-1.mp4";
  if (haveTool("ffmpeg")) {
    ASSERT_TRUE(fs::exists(mp4)) << run.out;
    if (haveTool("ffprobe")) {
      const std::string probe =
          "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
          "stream=nb_read_frames -of csv=p=0 '" +
          mp4.string() + "'";
      FILE* pipe = popen(probe.c_str(), "r");
      ASSERT_NE(pipe, nullptr);
      char buffer[64] = {};
      ASSERT_NE(fgets(buffer, sizeof buffer, pipe), nullptr);
      pclose(pipe);
      EXPECT_EQ(std::stoul(buffer), count);
    }
  } else {
    EXPECT_FALSE(fs::exists(mp4));
    EXPECT_NE(run.out.find("ffmpeg is not installed"), std::string::npos) << run.out;
  }
  fs::remove_all(out);
}

}  // namespace
