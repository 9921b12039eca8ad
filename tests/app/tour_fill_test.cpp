// The tour's frames within the station budgets (issue 33): every key frame of the default tour
// as `dcwalk bench --path tour --key-frames` flies it (each step held, with its live visuals,
// panel and scenario, and the middle of each flight into a step), at the kiosk's sizes, held to
// the fragment-shader invocations per pixel, triangles and parts held back that the station
// path's stills are (tests/renderer/station_fill_test.cpp). Counts, not times: they do not move
// with the machine's load.
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/modes/bench.h"
#include "app/modes/bench_paths.h"
#include "app/session/session.h"
#include "renderer/vk/validation.h"

namespace {

// docs/performance.md, "Budgets": a frame may cost at most 2 fragment-shader invocations per
// pixel (llvmpipe counts them per 4x4 block before the early depth test) and 150,000 triangles.
constexpr double MAX_FRAGMENTS_PER_PIXEL = 2.0;
constexpr double MAX_TRIANGLES = 150'000;

struct Size {
  uint32_t width, height;
};

// Key frames not yet within the fragment budget (issue 33), each held to the larger of its two
// sizes' figures measured at 39c44d0 + this change (llvmpipe's counts, rounded up by 0.05), so
// that none gets worse unseen; keyed by the station a frame is held at ("held") or flown to
// ("flight"), and the parts held back where any are.
// - Every flight: a tour step's camera in flight draws without a studio
//   (app/session/tour_view.cpp, TourView::studio), so the middle of a flight draws the world round
//   the way as free flight would, not as the station it flies to (the worst, into the tray: 21.8
//   per pixel, 149,938 triangles at 1920x1080 with 204 parts held back). Not yet measured part
//   by part.
// - Held at the hbm station (chapter out_of_memory): 3.27 where the station path's still of the
//   same stack is 1.89 (the count is the scene pass's alone): the memory overlay's geometry
//   (world/live/hbm_fill), a live tour visual, not yet measured apart.
// - Held at the campus: the power and utilisation overlays over what the still pays (2.22).
struct KnownLimit {
  double fragmentsPerPixel;
  double heldBack = 0;
};
const std::map<std::string, KnownLimit> KNOWN_LIMITS = {
    {"flight campus", {2.16}},   {"flight cooling", {2.21}}, {"flight die", {2.13}},
    {"flight fabric", {3.53}},   {"flight gh100", {16.13}},  {"flight hall", {5.01}},
    {"flight hbm", {3.32}},      {"flight rack", {21.18}},   {"flight rack_back", {8.20}},
    {"flight row", {8.22}},      {"flight tpu", {17.69}},    {"flight tray", {21.85, 204}},
    {"flight xeon_amx", {2.81}}, {"held campus", {2.26}},    {"held hbm", {3.32}}};

// The tour path's key frames flown at `size` (app::flyPath, no warm-up: counts need none).
std::vector<app::BenchFrame> tourKeyFrames(Size size) {
  app::BenchOptions options;
  options.render.width = size.width;
  options.render.height = size.height;
  options.render.sizeText = std::to_string(size.width);
  options.render.sizeText += 'x';
  options.render.sizeText += std::to_string(size.height);
  options.keyFrames = true;
  options.warmup = 0;
  app::Session session;
  const app::SessionDesc desc{.engineScenario = options.scenario};
  EXPECT_EQ(
      app::openSession(options.render, nullptr, app::fontPixelsFor(size.height), session, desc), 0);
  if (!session.world) return {};
  app::BenchPath path;
  std::string error;
  EXPECT_TRUE(app::makeBenchPath(*session.world, "tour", path, error)) << error;
  std::vector<app::BenchFrame> frames;
  EXPECT_TRUE(app::flyPath(session, path, options, frames, error)) << error;
  EXPECT_EQ(frames.size(), path.keyTimes_s.size());  // one measured frame per key moment
  return frames;
}

}  // namespace

TEST(TourFill, EveryKeyFrameOfTheTourStaysWithinTheBudgets) {
  const uint32_t before = vkutil::validationErrorCount();
  for (const Size size : {Size{1280, 720}, Size{1920, 1080}}) {
    SCOPED_TRACE(testing::Message() << size.width << 'x' << size.height);
    const std::vector<app::BenchFrame> frames = tourKeyFrames(size);
    ASSERT_FALSE(frames.empty());
    std::printf("%ux%u\n%7s %-28s %8s %9s %5s\n", size.width, size.height, "t (s)", "station",
                "frag/px", "triangles", "held");
    // The tour path's key moments (app/modes/bench_paths.cpp, tourPath): the first step held,
    // then for each later step the middle of the flight into it and the step held.
    ASSERT_EQ(frames.size() % 2, 1u);
    for (size_t i = 0; i < frames.size(); ++i) {
      const app::BenchFrame& f = frames[i];
      std::string key = i % 2 == 1 ? "flight " : "held ";
      key += f.station;
      SCOPED_TRACE(key + " at " + std::to_string(f.time_s) + " s");
      if (f.fragmentsPerPixel < 0) GTEST_SKIP() << "the device has no pipeline statistics";
      std::printf("%7.1f %-28s %8.2f %9.0f %5.0f\n", f.time_s, key.c_str(), f.fragmentsPerPixel,
                  f.triangles, f.heldBack);
      const auto known = KNOWN_LIMITS.find(key);
      const KnownLimit limit =
          known == KNOWN_LIMITS.end() ? KnownLimit{MAX_FRAGMENTS_PER_PIXEL} : known->second;
      EXPECT_LE(f.fragmentsPerPixel, limit.fragmentsPerPixel);
      EXPECT_GT(f.fragmentsPerPixel, 0.1);  // the frame is drawn at all
      EXPECT_LE(f.triangles, MAX_TRIANGLES);
      EXPECT_LE(f.heldBack, limit.heldBack);
    }
  }
  EXPECT_EQ(vkutil::validationErrorCount(), before);
}
