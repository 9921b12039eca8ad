#include "app/modes/shot_compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "app/platform/capture.h"
#include "app/session/exit_status.h"
#include "app/session/frame.h"
#include "app/session/scenario_request.h"
#include "app/ui/key_numbers.h"

namespace app {
namespace {

// The scenario as a slide names it: a file by its stem, a name as it is.
std::string displayName(const std::string& scenario) {
  const std::filesystem::path path(scenario);
  return path.has_extension() ? path.stem().string() : scenario;
}

// One half: the station's view, its HUD titled by the scenario and subtitled by its numbers.
// The status line keeps the station's name and scale only: the engine's own step time (its
// routed collective) would sit beside the evaluation's and read as a contradiction on a slide.
class CompareHalfView : public StationView {
 public:
  CompareHalfView(const world::Station& station, std::string title, std::string numbers)
      : m_station(station), m_title(std::move(title)), m_numbers(std::move(numbers)) {}
  HudInfo hud(FrameContext& context) override {
    HudInfo hud = StationView::hud(context);
    if (hud.mode == TextMode::Off) return hud;
    const HudInfo own = stationHud(m_station);
    hud.status = own.title + "   |   " + own.status;
    hud.title = m_title;
    hud.subtitle = m_numbers;
    return hud;
  }

 private:
  const world::Station& m_station;
  std::string m_title, m_numbers;
};

// Copies `half` into `image` from column `x0`.
void blit(const renderer::Pixels& half, uint32_t x0, renderer::Pixels& image) {
  for (uint32_t y = 0; y < half.height && y < image.height; ++y) {
    for (uint32_t x = 0; x < half.width && x0 + x < image.width; ++x) {
      for (int c = 0; c < 4; ++c) {
        image.rgba[(size_t(y) * image.width + x0 + x) * 4 + c] =
            half.rgba[(size_t(y) * half.width + x) * 4 + c];
      }
    }
  }
}

// A dark seam `width` px wide centred on column `x`, so the halves read as two pictures.
void drawSeam(uint32_t x, uint32_t width, renderer::Pixels& image) {
  for (uint32_t y = 0; y < image.height; ++y) {
    for (uint32_t dx = 0; dx < width; ++dx) {
      const uint32_t column = x + dx - width / 2;
      if (column >= image.width) continue;
      uint8_t* p = &image.rgba[(size_t(y) * image.width + column) * 4];
      p[0] = p[1] = p[2] = 12;
      p[3] = 255;
    }
  }
}

}  // namespace

int runCompareShot(const ShotOptions& options) {
  if (options.compare.size() != 2) {
    std::fprintf(stderr, "dcwalk: shot: --compare takes two scenarios\n");
    return EXIT_BAD_INPUT;
  }
  // Both scenarios are checked before the first (slow) world is built.
  for (const std::string& name : options.compare) {
    auto request = engineRequestFor(name);
    if (!request) {
      std::fprintf(stderr, "dcwalk: shot: --compare: %s\n", request.error().c_str());
      return EXIT_BAD_INPUT;
    }
  }
  const uint32_t width = options.render.width, height = options.render.height;
  const uint32_t halfWidth[2] = {width / 2, width - width / 2};
  renderer::Pixels image{width, height, std::vector<uint8_t>(size_t(width) * height * 4, 0)};
  for (int side = 0; side < 2; ++side) {
    ShotOptions half = options;
    half.scenario = options.compare[side];
    half.render.width = halfWidth[side];
    Session session;  // one world at a time: this one is gone before the next is built
    const world::Station* station = nullptr;
    if (int status = openShotSession(half, session, station)) {
      // The message above is the session's; say which of the two it was about.
      std::fprintf(stderr,
                   "dcwalk: shot: --compare: the %s scenario, %s, failed; nothing written\n",
                   side == 0 ? "left" : "right", half.scenario.c_str());
      return status;
    }
    const KeyNumbers numbers =
        keyNumbersFor(half.scenario, *session.catalog, session.sim->snapshot());
    const std::string line = keyNumbersLine(numbers);
    CompareHalfView view(*station, displayName(half.scenario), line);
    setUpShotView(half, *station, view);
    const FrameResult frame =
        renderStill(session, view, {halfWidth[side], height}, shotStill(options));
    blit(frame.pixels, side == 0 ? 0 : halfWidth[0], image);
    std::printf("%s: %s: %s (%s)\n", side == 0 ? "left" : "right", half.scenario.c_str(),
                line.c_str(), numbers.source.c_str());
    std::printf("%s engine: %s\n", side == 0 ? "left" : "right",
                simStatus(session.sim->snapshot(), session.world->racks()).c_str());
    if (!reportValidation()) return EXIT_FAILURE_RUNTIME;
  }
  drawSeam(halfWidth[0], std::max(2u, width / 320), image);
  if (auto written = writePng(options.out, image); !written) {
    std::fprintf(stderr, "dcwalk: %s\n", written.error().c_str());
    return EXIT_FAILURE_RUNTIME;
  }
  std::printf("wrote %s (%ux%u, station %s, %s | %s)\n", options.out.c_str(), width, height,
              options.station.c_str(), options.compare[0].c_str(), options.compare[1].c_str());
  return EXIT_OK;
}

}  // namespace app
