// `dcwalk shot --compare A B`: one PNG holding the station for two scenarios side by side, each
// half's numbers those of its scenario's evaluation; a bad scenario exits 2 naming it.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "renderer/image_io.h"
#include "sim/catalog.h"
#include "sim/evaluate.h"
#include "sim/scenario.h"
#include "tests/common/cli.h"
#include "tests/common/shipped_catalog.h"

using testcli::dcwalk;

namespace {

const char* const H100 = "llama405b-training-16k-h100";
const char* const GB200 = "llama405b-training-16k-gb200";

std::filesystem::path scratch(const std::string& name) {
  auto dir = std::filesystem::path(DCWALK_BINARY_DIR) / "shot-compare-test";
  std::filesystem::create_directories(dir);
  std::filesystem::remove_all(dir / name);
  return dir / name;
}

// The number printed before `unit` on the line that starts with `side` ("left: ").
double printed(const std::string& out, const std::string& side, const std::string& unit) {
  const size_t line = out.find(side);
  if (line == std::string::npos) return NAN;
  const size_t end = out.find('\n', line);
  const std::string text = out.substr(line, end - line);
  const size_t at = text.find(unit);
  if (at == std::string::npos) return NAN;
  size_t start = at;
  while (start > 0 && (std::isdigit(text[start - 1]) || text[start - 1] == '.')) --start;
  return std::stod(text.substr(start, at - start));
}

// Mean absolute difference (0..255) between the left and the right half of `image`.
double halvesDiffer(const renderer::Pixels& image) {
  const uint32_t half = image.width / 2;
  double sum = 0;
  for (uint32_t y = 0; y < image.height; ++y) {
    for (uint32_t x = 0; x < half; ++x) {
      for (int c = 0; c < 3; ++c) {
        sum += std::abs(int(image.rgba[(size_t(y) * image.width + x) * 4 + c]) -
                        int(image.rgba[(size_t(y) * image.width + half + x) * 4 + c]));
      }
    }
  }
  return sum / (double(half) * image.height * 3);
}

}  // namespace

TEST(ShotCompare, TwoScenariosSideBySideWithTheirEvaluationsNumbers) {
  const auto file = scratch("rack.png");
  auto run = dcwalk(std::string("shot --validation --compare ") + H100 + " " + GB200 +
                    " --station rack --size 640x360 --out '" + file.string() + "'");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(run.out.find("validation error"), std::string::npos) << run.out;

  renderer::Pixels image;
  std::string error;
  ASSERT_TRUE(renderer::readPng(file, image, error)) << error;
  EXPECT_EQ(image.width, 640u);
  EXPECT_EQ(image.height, 360u);
  // A DGX H100 rack and a GB200 NVL72 rack are different pictures (and each half its own).
  EXPECT_GT(halvesDiffer(image), 4.0);

  const sim::Catalog* catalog = &testcatalog::shipped();
  for (const auto& [side, name] : {std::pair{"left: ", H100}, std::pair{"right: ", GB200}}) {
    auto scenario = sim::loadScenario(name);
    ASSERT_TRUE(scenario) << scenario.error();
    auto evaluation = sim::evaluateScenario(*scenario, *catalog);
    ASSERT_TRUE(evaluation) << evaluation.error();
    const double step_s = evaluation->number("compute.step_time_s");
    const double tokens = evaluation->number("compute.tokens_per_s_per_gpu");
    const double facility_W = evaluation->number("power.facility_power_W");
    const double gpuHour_usd = evaluation->number("cost.per_gpu_hour_usd");
    // A million tokens take 1e6 / tokens GPU-seconds, each GPU-hour costing gpuHour_usd.
    const double perMillion_usd = gpuHour_usd * (1e6 / tokens) / 3600;
    EXPECT_NEAR(printed(run.out, side, " s "), step_s, 0.005 + 1e-9) << side << run.out;
    EXPECT_NEAR(printed(run.out, side, " tok/s/GPU"), tokens, 0.5 + 1e-9) << run.out;
    EXPECT_NEAR(printed(run.out, side, " MW"), facility_W / 1e6, 0.05 + 1e-9) << run.out;
    EXPECT_NEAR(printed(run.out, side, "/Mtok"), perMillion_usd, perMillion_usd * 0.005) << run.out;
  }
  // The two scenarios are not the same numbers either.
  EXPECT_NE(printed(run.out, "left: ", " s "), printed(run.out, "right: ", " s "));
}

TEST(ShotCompare, ABadScenarioExitsTwoNamingIt) {
  const std::string tail = " --station rack --size 64x64 --out " + testcli::scratchPng();
  for (const std::string& args : {std::string("shot --compare nowhere ") + GB200,
                                  std::string("shot --compare ") + H100 + " elsewhere.json"}) {
    auto run = dcwalk(args + tail);
    EXPECT_EQ(run.status, 2) << args << ": " << run.out;
    const std::string named = args.find("nowhere") != std::string::npos ? "nowhere" : "elsewhere";
    EXPECT_NE(run.out.find(named), std::string::npos) << args << ": " << run.out;
  }
  // One scenario is not a comparison.
  auto one = dcwalk(std::string("shot --compare ") + H100 + tail);
  EXPECT_EQ(one.status, 2) << one.out;
  EXPECT_NE(one.out.find("--compare"), std::string::npos) << one.out;
}

// Issue 40 (old HEAD: the session's message alone, "cluster.switch: ...", not saying which of the
// two scenarios it was): a scenario that loads but whose simulation cannot start is named as the
// left or right one, and nothing is written.
TEST(ShotCompare, AScenarioThatCannotStartIsNamedAsLeftOrRight) {
  const auto dir = scratch("cannot-start");
  std::filesystem::create_directories(dir);
  const auto file = dir / "nvlink-fabric.json";
  {
    std::FILE* out = std::fopen(file.c_str(), "w");
    ASSERT_NE(out, nullptr);
    // The H100 run with an NVLink switch in the scale-out fabric's slot: the engine refuses it.
    std::fprintf(out,
                 "{\"cluster\": {\"system\": \"dgx_h100\", \"gpus\": 16384, \"switch\": "
                 "\"nvswitch_gen3\"}, \"workload\": {\"kind\": \"training\", \"model\": "
                 "\"llama3_1_405b\", \"tp\": 8, \"pp\": 16, \"dp\": 128, \"micro_batches\": 16, "
                 "\"seq_len\": 8192}}\n");
    std::fclose(out);
  }
  const std::string png = (dir / "out.png").string();
  auto run = dcwalk(std::string("shot --compare ") + H100 + " " + file.string() +
                    " --station rack --size 64x64 --out " + png);
  EXPECT_NE(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("the right scenario, " + file.string() + ", failed"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("nvswitch_gen3"), std::string::npos) << run.out;
  EXPECT_FALSE(std::filesystem::exists(png));
}
