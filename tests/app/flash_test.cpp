// No flashing (issue 22, WCAG 2.3.1 "three flashes or below threshold"): frames recorded at 30 fps
// with each heat overlay on and the traffic drawn, the simulation running 32x (a presenter
// fast-forwarding: a training step of 5.9 s every 0.2 s), never show more than three general
// flashes in any one second. A general flash is a pair of opposing changes of relative luminance of
// 0.1 or more where the darker state is below 0.8, over an area of at least 25 % of a 10-degree
// visual field: 341 x 256 px at 1024 x 768, a third of each side, so the mean luminance of every
// window a third of the frame's width and height (at steps of a sixth) is followed frame by frame.
// (Before the fix, the utilisation overlay on the rack flashed 4+ times a second with the live
// world jumping to the engine's values every frame. Since the studio look, where overlays light
// indicator parts and edges rather than whole parts, even jumping values stay at 0 flashes a
// second on every station and overlay, so that reference is gone; the detector itself is held by
// the synthetic series below.)
#include <cmath>

#include <gtest/gtest.h>

#include "app/session/frame.h"
#include "app/session/session.h"
#include "app/session/tour_view.h"
#include "renderer/vk/validation.h"

namespace {

constexpr uint32_t W = 384, H = 216;
constexpr int FPS = 30;
constexpr int FRAMES = 75;  // 2.5 s

double channel(uint8_t c) {
  const double v = c / 255.0;
  return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
}

// Mean relative luminance (WCAG 2.1) of each flash-sized window, 5 x 5 of them.
std::vector<double> windowLuminance(const renderer::Pixels& p) {
  std::vector<double> out;
  const uint32_t ww = p.width / 3, wh = p.height / 3;
  for (int wy = 0; wy < 5; ++wy) {
    for (int wx = 0; wx < 5; ++wx) {
      double sum = 0;
      const uint32_t x0 = wx * p.width / 6, y0 = wy * p.height / 6;
      for (uint32_t y = y0; y < y0 + wh; ++y) {
        for (uint32_t x = x0; x < x0 + ww; ++x) {
          const uint8_t* px = &p.rgba[(size_t(y) * p.width + x) * 4];
          sum += 0.2126 * channel(px[0]) + 0.7152 * channel(px[1]) + 0.0722 * channel(px[2]);
        }
      }
      out.push_back(sum / double(ww * wh));
    }
  }
  return out;
}

// The most general flashes in any one second of `series` (one value per frame): a change counts
// once the luminance has moved 0.1 from the last extreme against the previous change's
// direction, with the darker side below 0.8; two changes make a flash.
int mostFlashesPerSecond(const std::vector<double>& series) {
  std::vector<int> changeFrames;
  double extreme = series.front();
  int direction = 0;
  for (size_t i = 1; i < series.size(); ++i) {
    const double v = series[i];
    const double delta = v - extreme;
    const int d = delta > 0 ? 1 : -1;
    if (std::abs(delta) >= 0.1 && std::min(v, extreme) < 0.8 && d != direction) {
      changeFrames.push_back(int(i));
      direction = d;
      extreme = v;
    } else if ((direction > 0 && v > extreme) || (direction < 0 && v < extreme) || direction == 0) {
      if (direction != 0 || std::abs(delta) < 0.1) extreme = direction == 0 ? extreme : v;
    }
  }
  int most = 0;
  for (size_t a = 0; a < changeFrames.size(); ++a) {
    size_t b = a;
    while (b < changeFrames.size() && changeFrames[b] - changeFrames[a] < FPS) ++b;
    most = std::max(most, int(b - a) / 2);
  }
  return most;
}

// Records FRAMES frames of `station` with `metric`, returning the worst window's flashes/s.
int flashesOf(app::Session& session, const char* station, world::OverlayMetric metric,
              bool reducedMotion = false) {
  class View : public app::StationView {
   public:
    bool reduced = false;
    bool reducedMotion() const override { return reduced; }
  } view;
  const world::Station* s = session.world->station(station);
  EXPECT_NE(s, nullptr) << station;
  if (!s) return 99;
  view.camera().setPose(world::toPose(s->viewpoint));
  view.setOverlay(metric);
  view.setTraffic(true);
  view.setTextMode(app::TextMode::Off);  // the picture: the HUD does not flash
  view.reduced = reducedMotion;
  std::vector<std::vector<double>> series(25);
  for (int f = 0; f < FRAMES; ++f) {
    app::FrameSpec spec;
    spec.dt_s = 1.0 / FPS;
    spec.extent = {W, H};
    spec.output = app::FrameOutput::Pixels;
    const app::FrameResult frame = app::runFrame(session, view, spec);
    const std::vector<double> l = windowLuminance(frame.pixels);
    for (size_t i = 0; i < l.size(); ++i) series[i].push_back(l[i]);
  }
  int worst = 0;
  for (const auto& s : series) worst = std::max(worst, mostFlashesPerSecond(s));
  return worst;
}

}  // namespace

TEST(Flash, TheCounterCountsASquareWaveAndIgnoresSmallFlicker) {
  std::vector<double> square, small, slow;
  for (int i = 0; i < 60; ++i) {
    square.push_back((i / 3) % 2 ? 0.6 : 0.05);  // 5 flashes a second
    small.push_back((i / 3) % 2 ? 0.13 : 0.05);  // below 0.1
    slow.push_back((i / 15) % 2 ? 0.6 : 0.05);   // 1 a second
  }
  EXPECT_EQ(mostFlashesPerSecond(square), 5);
  EXPECT_EQ(mostFlashesPerSecond(small), 0);
  EXPECT_EQ(mostFlashesPerSecond(slow), 1);
}

TEST(Flash, NoOverlayFlashesMoreThanThreeTimesASecond) {
  app::RenderOptions options;
  options.width = W;
  options.height = H;
  options.validation = true;
  app::Session session;
  ASSERT_EQ(app::openSession(options, nullptr, app::fontPixelsFor(H), session), 0);
  const uint32_t errorsBefore = vkutil::validationErrorCount();
  session.sim->queue(app::SimCommand::scaleSpeed(32.0));  // fast-forward
  session.sim->runTo(10.0);
  const world::OverlayMetric metrics[] = {
      world::OverlayMetric::Power, world::OverlayMetric::Temperature,
      world::OverlayMetric::Utilisation, world::OverlayMetric::LinkLoad,
      world::OverlayMetric::Stage};
  for (const char* station : {"die", "rack", "hall"}) {
    for (world::OverlayMetric metric : metrics) {
      const int flashes = flashesOf(session, station, metric);
      std::printf("%s %s: %d flashes/s\n", station,
                  std::string(world::overlayMetricName(metric)).c_str(), flashes);
      EXPECT_LE(flashes, 3) << station << " " << world::overlayMetricName(metric);
    }
  }
  // Reduced motion is calmer still.
  EXPECT_LE(flashesOf(session, "die", world::OverlayMetric::Utilisation, true), 1);
  EXPECT_EQ(vkutil::validationErrorCount(), errorsBefore);
}
