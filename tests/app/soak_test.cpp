// The booth soak end to end: a short headless kiosk run with a fast idle timeout walks through
// attract, tour and the idle warning, reports memory over time and writes OUT/soak.json.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/common/cli.h"
#include "tests/common/paths.h"

namespace {

TEST(Soak, ShortBoothLoopVisitsEveryStateAndReports) {
  const auto out = testpaths::freshDir("soak-test");
  std::filesystem::remove_all(out);
  // 0.3 min with a 2 s idle timeout and a 1 s warning: several attract -> tour -> warning rounds.
  // On the frame clock (540 frames at 30 fps), so the states walked do not depend on how fast
  // this machine renders; the timeout only bounds a hang.
  const testcli::CliRun run = testcli::dcwalk(
      "tour --kiosk --headless --soak 0.3 --soak-frame-clock --soak-report-every 3 "
      "--kiosk-idle 2 --kiosk-warning 1 --size 320x180 --validation --out " +
          out.string(),
      true, "timeout 500");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("soak done"), std::string::npos) << run.out;

  std::ifstream in(out / "soak.json");
  ASSERT_TRUE(in) << run.out;
  const nlohmann::json report = nlohmann::json::parse(in);
  const auto& states = report.at("frames_by_kiosk_state");
  for (const char* state : {"attract", "tour", "idle_warning"}) {
    EXPECT_GT(states.value(state, 0), 0) << state;
  }
  // attract -> tour -> idle_warning -> attract is three changes a round; at least two rounds.
  EXPECT_GE(report.at("kiosk_transitions").get<int>(), 6);
  EXPECT_EQ(report.at("validation_errors").get<int>(), 0);
  // One row per 3 s of the booth's clock over 18 s: at 3, 6, 9, 12 and 15 s (18 s is the end).
  const auto& rows = report.at("reports");
  EXPECT_EQ(rows.size(), 5u);
  EXPECT_EQ(report.at("frames").get<int>(), 540);  // 0.3 min at 30 frames a second
  double previousFrames = 0;
  for (const auto& row : rows) {
    EXPECT_GT(row.at("resident_bytes").get<double>(), 10e6);  // a real process, read from /proc
    EXPECT_GT(row.at("frames").get<double>(), previousFrames);
    previousFrames = row.at("frames").get<double>();
  }
  // The growth the report states is the one its rows show: median of the last fifth of the rows
  // against the median of the first fifth, recomputed here.
  const size_t window = std::max<size_t>(1, rows.size() / 5);
  auto medianOf = [&](size_t begin) {
    std::vector<double> v;
    for (size_t i = begin; i < begin + window; ++i) v.push_back(rows[i].at("resident_bytes"));
    std::sort(v.begin(), v.end());
    return v[(v.size() - 1) / 2 + ((v.size() - 1) % 2 ? 1 : 0)];
  };
  const double before = medianOf(0), after = medianOf(rows.size() - window);
  EXPECT_NEAR(report.at("resident_growth").get<double>(), (after - before) / before, 1e-9);
  double max = 0;
  for (const auto& row : rows) max = std::max(max, row.at("resident_bytes").get<double>());
  EXPECT_EQ(report.at("max_resident_bytes").get<double>(), max);
  EXPECT_LE(report.at("resident_growth").get<double>(), 0.05);
  std::filesystem::remove_all(out);
}

TEST(Soak, NeedsKioskMode) {
  const testcli::CliRun run = testcli::dcwalk("tour --headless --soak 1");
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_NE(run.out.find("--kiosk"), std::string::npos) << run.out;
}

}  // namespace
