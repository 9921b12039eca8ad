// `dcwalk shot` with the simulation: --scenario, --time, --overlay and --fault end to end; bad
// values exit 2 with a message naming them.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "tests/common/cli.h"

using testcli::dcwalk;

namespace {

std::filesystem::path scratch(const std::string& name) {
  auto dir = std::filesystem::path(DCWALK_BINARY_DIR) / "shot-overlay-test";
  std::filesystem::create_directories(dir);
  std::filesystem::remove_all(dir / name);
  return dir / name;
}

int countOf(const std::string& text, const std::string& needle) {
  int n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

TEST(ShotOverlay, PowerOverlayAtATimeDrawsLiveRackLabelsAndTheSimStatus) {
  const auto file = scratch("hall-power.png");
  // Racks get live labels once they are 16 px on screen: 640x360 at the hall station.
  auto run = dcwalk(
      "shot --validation --station hall --overlay power --time 2 --size 640x360 "
      "--out '" +
      file.string() + "'");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_TRUE(std::filesystem::exists(file));
  EXPECT_NE(run.out.find("t = 2.00 s"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("overlay power"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("PUE"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("MW"), std::string::npos) << run.out;
  const int live = countOf(run.out, "kW (derived)");
  EXPECT_GE(live, 1) << run.out;
  EXPECT_LE(live, 6) << run.out;
  EXPECT_EQ(run.out.find("validation error"), std::string::npos) << run.out;
}

TEST(ShotOverlay, NoOverlayMeansNoLiveLabels) {
  const auto file = scratch("hall-none.png");
  auto run =
      dcwalk("shot --station hall --overlay none --size 320x180 --out '" + file.string() + "'");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(run.out.find("(derived)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("t = 0.00 s"), std::string::npos) << run.out;
}

TEST(ShotOverlay, FaultsAndScenariosAreAccepted) {
  const auto file = scratch("rack-temperature.png");
  auto run = dcwalk(
      "shot --station rack --scenario training_405b --overlay temperature --time 1 "
      "--fault pump_trip@0.5 --fault straggler:3@0.2-0.8 --size 320x180 --out '" +
      file.string() + "'");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_TRUE(std::filesystem::exists(file));
  EXPECT_NE(run.out.find("overlay temperature"), std::string::npos) << run.out;
}

TEST(ShotOverlay, BadValuesExitTwoNamingThem) {
  const std::string tail = " --size 64x64 --out " + testcli::scratchPng();
  struct Case {
    const char* args;
    const char* named;
  };
  for (const Case& c :
       {Case{"shot --overlay heat", "heat"}, Case{"shot --fault pump_trip@soon", "pump_trip@soon"},
        Case{"shot --fault melt@1", "melt@1"}, Case{"shot --time -1", "--time"},
        Case{"shot --time nan", "--time"}, Case{"shot --scenario nowhere", "nowhere"}}) {
    auto run = dcwalk(c.args + tail);
    EXPECT_EQ(run.status, 2) << c.args << ": " << run.out;
    EXPECT_NE(run.out.find(c.named), std::string::npos) << c.args << ": " << run.out;
    EXPECT_EQ(run.out.find("terminate"), std::string::npos) << c.args;
  }
}
