// The command line as a user meets it: help on every subcommand, one-line errors with usage and
// exit 2 for bad flags and values, headless shots that write a real PNG, the engine's series.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "tests/common/cli.h"

using testcli::dcwalk;

namespace {

std::filesystem::path scratch(const std::string& name) {
  auto dir = std::filesystem::path(DCWALK_BINARY_DIR) / "cli-test";
  std::filesystem::create_directories(dir);
  std::filesystem::remove_all(dir / name);
  return dir / name;
}

// PNG signature and IHDR size, read from the file itself.
bool pngSize(const std::filesystem::path& file, uint32_t& width, uint32_t& height) {
  std::ifstream in(file, std::ios::binary);
  unsigned char header[24] = {};
  if (!in.read(reinterpret_cast<char*>(header), sizeof header)) return false;
  const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (std::memcmp(header, signature, 8) != 0) return false;
  width = (uint32_t(header[16]) << 24) | (header[17] << 16) | (header[18] << 8) | header[19];
  height = (uint32_t(header[20]) << 24) | (header[21] << 16) | (header[22] << 8) | header[23];
  return true;
}

}  // namespace

TEST(Cli, EverySubcommandHasHelp) {
  for (const char* sub : {"tour", "shot", "sim", "bench", "stations", "asset"}) {
    auto run = dcwalk(std::string(sub) + " --help");
    EXPECT_EQ(run.status, 0) << sub << ": " << run.out;
    EXPECT_NE(run.out.find("Usage"), std::string::npos) << sub;
  }
}

TEST(Cli, BadFlagsAndValuesExitTwoWithOneLineAndUsage) {
  const std::string out = " --out " + testcli::scratchPng();
  for (const std::string& args :
       {std::string("--no-such-flag"), std::string("shot --size 12"),
        std::string("shot --size 640x"), std::string("bench --frames 0"),
        std::string("bench --path moon"), "shot --station nowhere --size 64x64" + out,
        std::string("sim --engine training_405b --until 1 --fault melt@1"),
        "shot --device no-such-gpu --size 64x64" + out}) {
    auto run = dcwalk(args);
    EXPECT_EQ(run.status, 2) << args << ": " << run.out;
    EXPECT_NE(run.out.find("dcwalk"), std::string::npos) << args;
    EXPECT_EQ(run.out.find("terminate"), std::string::npos) << args;  // no uncaught exception
  }
  auto run = dcwalk("shot --size 12");
  EXPECT_NE(run.out.find("usage: dcwalk shot"), std::string::npos) << run.out;
}

TEST(Cli, ShotWritesAPngOfTheAskedSize) {
  const auto file = scratch("rack.png");
  auto run =
      dcwalk("shot --validation --station rack --size 320x180 --out '" + file.string() + "'");
  ASSERT_EQ(run.status, 0) << run.out;
  uint32_t w = 0, h = 0;
  ASSERT_TRUE(pngSize(file, w, h));
  EXPECT_EQ(w, 320u);
  EXPECT_EQ(h, 180u);
  EXPECT_EQ(run.out.find("validation error"), std::string::npos) << run.out;
}

TEST(Cli, HeadlessTourLeavesFramesAndAContactSheet) {
  const auto dir = scratch("tour");
  auto run = dcwalk("tour --headless --validation --size 320x180 --out '" + dir.string() + "'");
  ASSERT_EQ(run.status, 0) << run.out;
  int frames = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    frames += entry.path().extension() == ".png" && entry.path().stem() != "contact-sheet";
  }
  EXPECT_GE(frames, 11);  // at least the scale ladder, SM to campus
  uint32_t w = 0, h = 0;
  EXPECT_TRUE(pngSize(dir / "contact-sheet.png", w, h));
}

TEST(Cli, EngineSeriesHasOneRowPerRecordedStep) {
  auto run = dcwalk("sim --engine training_405b --until 1 --series csv", /*withStderr=*/false);
  ASSERT_EQ(run.status, 0) << run.out;
  std::istringstream lines(run.out);
  std::string header, line;
  std::getline(lines, header);
  EXPECT_EQ(header.rfind("time_s,", 0), 0u) << header;
  int rows = 0;
  while (std::getline(lines, line)) rows += !line.empty();
  // dt 0.01 s, one row every 10 steps (sim/engine/engine_desc.h): 1 s -> 10 rows.
  EXPECT_EQ(rows, 10);
}
