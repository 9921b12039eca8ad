// A lost device (driver reset, GPU removed or hung) ends dcwalk with a clear message and exit
// status 1: no abort, no core dump, no hang. DCWALK_INJECT_DEVICE_LOST=N makes the Nth queue
// submission report VK_ERROR_DEVICE_LOST on the healthy software device.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "tests/common/cli.h"
#include "tests/common/paths.h"

namespace {

// A folder name of this process that does not exist yet (the run makes it).
std::string tempDir(const char* name) {
  const auto dir = testpaths::freshDir(name);
  std::filesystem::remove_all(dir);
  return dir.string();
}

// `timeout` turns a hang into status 124, which fails the status check.
void expectCleanDeviceLost(const std::string& args, int submission) {
  const testcli::CliRun run = testcli::dcwalk(
      args, true, "DCWALK_INJECT_DEVICE_LOST=" + std::to_string(submission) + " timeout 120");
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_NE(run.out.find("graphics device was lost"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("VK_ERROR_DEVICE_LOST"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("Aborted"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("Vulkan call failed"), std::string::npos) << run.out;
}

TEST(DeviceLost, HeadlessTourStopsWithAMessage) {
  const std::string out = tempDir("device-lost-tour");
  // The first submissions upload meshes and fonts; a later one is a frame.
  for (int submission : {1, 6}) {
    SCOPED_TRACE(submission);
    expectCleanDeviceLost("tour --headless --size 320x180 --out " + out, submission);
  }
  std::filesystem::remove_all(out);
}

TEST(DeviceLost, BoothSoakStopsWithAMessage) {
  const std::string out = tempDir("device-lost-soak");
  expectCleanDeviceLost(
      "tour --kiosk --headless --soak 1 --size 320x180 --soak-report-every 5 --out " + out, 40);
  std::filesystem::remove_all(out);
}

TEST(DeviceLost, HealthyRunIsUnaffected) {
  const std::string out = tempDir("device-lost-none");
  std::filesystem::create_directories(out);
  const testcli::CliRun run =
      testcli::dcwalk("shot --station rack --size 320x180 --out " + out + "/rack.png", true,
                      "DCWALK_INJECT_DEVICE_LOST=0 timeout 120");
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_TRUE(std::filesystem::exists(out + "/rack.png"));
  std::filesystem::remove_all(out);
}

}  // namespace
