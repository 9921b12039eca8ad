#include "world/live/events/value_bars.h"

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace world {

using namespace event_geometry;

namespace {

// The value bars not chosen: a dim cool white beside the chosen one's green.
constexpr Look BAR_OTHER{0.45f, 0.47f, 0.52f, 0.6f, 0.0f};

}  // namespace

std::vector<Aabb> ValueBars::layout(const Aabb& hero, const glm::dvec3& right,
                                    const glm::dvec3& forward, const std::vector<ValueBar>& bars) {
  std::vector<Aabb> out;
  if (bars.empty() || hero.empty()) return out;
  // Horizontal axes of the view, snapped to the world's (the boxes are axis-aligned).
  const BehindHero behind = behindHero(hero, right, forward);
  const glm::dvec3 &across = behind.across, &away = behind.away;
  const double width = behind.width;
  double top = 0;
  for (const ValueBar& b : bars) top = std::max(top, std::isfinite(b.value) ? b.value : 0.0);
  const double bar = WIDTH_SHARE * width, gap = GAP_SHARE * width;
  const double row = bars.size() * bar + (bars.size() - 1) * gap;
  // On the hero's far edge, the row's middle behind its centre.
  const glm::dvec3 base = behind.base + away * (0.5 * bar);
  for (size_t i = 0; i < bars.size(); ++i) {
    const double v = std::isfinite(bars[i].value) ? std::max(0.0, bars[i].value) : 0.0;
    const double h = top > 0 ? HEIGHT_SHARE * width * v / top : 0.0;
    const glm::dvec3 mid = base + across * (-0.5 * row + (i + 0.5) * bar + i * gap);
    Aabb box;
    box.extend(glm::dvec3(mid.x, hero.min.y, mid.z) - 0.5 * bar * (across + away));
    box.extend(glm::dvec3(mid.x, hero.max.y + h, mid.z) + 0.5 * bar * (across + away));
    out.push_back(box);
  }
  return out;
}

void ValueBars::emit(const std::vector<Aabb>& boxes, const std::vector<ValueBar>& bars,
                     const glm::dvec3& eye, std::vector<gpu::Instance>& out) {
  for (size_t i = 0; i < boxes.size() && i < bars.size(); ++i)
    pushBox(boxes[i], bars[i].chosen ? event_looks::COMPUTE : BAR_OTHER, eye, out);
}

std::unique_ptr<LiveLayer> ValueBarsLayer::make(const LayerSources& /*sources*/) {
  return std::make_unique<ValueBarsLayer>();
}

void ValueBarsLayer::emit(const LayerFrame& frame, std::vector<gpu::Instance>& out) {
  m_placed.clear();
  const std::vector<ValueBar>& bars = frame.inputs.valueBars;
  if (bars.empty() || !frame.studio) return;
  const std::vector<Aabb> boxes =
      ValueBars::layout(frame.studio->studioBounds, frame.view.right, frame.view.forward, bars);
  ValueBars::emit(boxes, bars, frame.view.eye, out);
  for (size_t i = 0; i < boxes.size(); ++i)
    m_placed.emplace_back(labelPoint(boxes[i]), bars[i].label);
}

}  // namespace world
