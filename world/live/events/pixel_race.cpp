#include "world/live/events/pixel_race.h"

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace world {

using namespace event_geometry;

namespace {

// The pixel race's screens before they are lit: near black glass.
constexpr Look SCREEN_DARK{0.015f, 0.016f, 0.02f, 0.0f, 0.3f};

}  // namespace

PixelRace::Shares PixelRace::shares(const PixelRaceDesc& race, double time_s) {
  const double fastest_s = std::min(race.left.frame_s, race.right.frame_s);
  if (!(fastest_s > 0) || !std::isfinite(fastest_s)) return {};
  const double t = std::fmod(std::isfinite(time_s) ? std::max(0.0, time_s) : 0.0, CYCLE_S + HOLD_S);
  const double simulated_s = std::min(t, CYCLE_S) / CYCLE_S * fastest_s;  // the race's own time
  auto lit = [&](const RaceLane& lane) {
    if (!(lane.frame_s > 0)) return 0.0;
    const double share = std::clamp(simulated_s / lane.frame_s, 0.0, 1.0);
    return lane.stamps > 0 ? std::floor(share * lane.stamps + 1e-9) / lane.stamps : share;
  };
  return {lit(race.left), lit(race.right)};
}

std::pair<uint32_t, uint32_t> PixelRace::bands(const PixelRaceDesc& race) {
  const double most = std::max(race.left.lanes, race.right.lanes);
  auto of = [&](double lanes) {
    if (!(most > 0) || !(lanes > 0)) return 1u;
    if (lanes <= FEW_LANES) return uint32_t(std::lround(lanes));
    return std::clamp(uint32_t(std::lround(MAX_BANDS * lanes / most)), 1u, MAX_BANDS);
  };
  return {of(race.left.lanes), of(race.right.lanes)};
}

PixelRace::Screens PixelRace::layout(const Aabb& hero, const glm::dvec3& right,
                                     const glm::dvec3& forward) {
  Screens out;
  const BehindHero behind = behindHero(hero, right, forward);
  const glm::dvec3 &across = behind.across, &away = behind.away, &base = behind.base;
  out.across = across;
  const double width = behind.width;
  const double w = SCREEN_SHARE * width, h = w * 9.0 / 16.0, gap = GAP_SHARE * width;
  const double depth = 0.01 * w;
  auto screen = [&](double centreAcross) {
    Aabb box;
    const glm::dvec3 mid = base + across * centreAcross;
    box.extend(glm::dvec3(mid.x, hero.max.y, mid.z) - 0.5 * w * across - 0.5 * depth * away);
    box.extend(glm::dvec3(mid.x, hero.max.y + h, mid.z) + 0.5 * w * across + 0.5 * depth * away);
    return box;
  };
  out.left = screen(-0.5 * (w + gap));
  out.right = screen(0.5 * (w + gap));
  return out;
}

void PixelRace::emit(const Screens& screens, const PixelRaceDesc& race, double time_s,
                     const glm::dvec3& eye, std::vector<gpu::Instance>& out) {
  const Shares lit = shares(race, time_s);
  const auto [leftBands, rightBands] = bands(race);
  Look litLook = event_looks::COMPUTE;
  litLook.detail = 0;  // a lit band has no seams drawn over its light
  auto paint = [&](const Aabb& face, double share, uint32_t n) {
    pushBox(face, SCREEN_DARK, eye, out);
    if (share <= 0) return;
    const glm::dvec3 size = face.size();
    const double w = std::abs(glm::dot(size, screens.across)), h = size.y;
    // The side of the face towards the viewer: the bands stand just in front of it.
    const glm::dvec3 away = glm::dvec3(std::abs(screens.across.z), 0, std::abs(screens.across.x));
    const double front = glm::dot(eye - face.center(), away) >= 0 ? 1.0 : -1.0;
    const glm::dvec3 normal = away * front;
    const glm::dvec3 lo = face.center() - 0.5 * w * screens.across - glm::dvec3(0, 0.5 * h, 0) +
                          normal * (0.5 * glm::dot(size, away) + 0.002 * w);
    const double band = h / n, inset = n <= 16 ? 0.2 * band : 0.0;
    for (uint32_t i = 0; i < n; ++i) {
      Aabb box;
      const double y0 = (n - 1 - i) * band + 0.5 * inset;
      box.extend(lo + glm::dvec3(0, y0, 0));
      box.extend(lo + share * w * screens.across + glm::dvec3(0, y0 + band - inset, 0) +
                 normal * 0.002 * w);
      pushBox(box, litLook, eye, out);
    }
  };
  paint(screens.left, lit.left, leftBands);
  paint(screens.right, lit.right, rightBands);
}

std::unique_ptr<LiveLayer> PixelRaceLayer::make(const LayerSources& /*sources*/) {
  return std::make_unique<PixelRaceLayer>();
}

void PixelRaceLayer::emit(const LayerFrame& frame, std::vector<gpu::Instance>& out) {
  m_placed.clear();
  if (!frame.inputs.pixelRace || !frame.studio) return;
  const PixelRaceDesc& race = *frame.inputs.pixelRace;
  const PixelRace::Screens screens =
      PixelRace::layout(frame.studio->studioBounds, frame.view.right, frame.view.forward);
  PixelRace::emit(screens, race, frame.inputs.eventTime_s, frame.view.eye, out);
  m_placed.emplace_back(labelPoint(screens.left), race.left.label);
  m_placed.emplace_back(labelPoint(screens.right), race.right.label);
}

}  // namespace world
