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

namespace {

// The most a column standing at `foot` (world) may rise before its top leaves the view's
// `limit` (the tangent of the angle above the view's axis it may reach): unbounded when rising
// never leaves it.
double riseInView(const CullView& view, const glm::dvec3& foot, double limit) {
  const glm::dvec3 rel = foot - view.eye;
  const double along = glm::dot(rel, view.forward), above = glm::dot(rel, view.up);
  // above + h up.y <= limit (along + h forward.y)
  const double gain = view.up.y - limit * view.forward.y;
  const double room = limit * along - above;
  if (gain <= 0) return room >= 0 ? 1e300 : 0.0;
  return std::max(0.0, room / gain);
}

}  // namespace

std::vector<Aabb> ValueBars::layout(const Aabb& hero, const CullView& view,
                                    const std::vector<ValueBar>& bars) {
  std::vector<Aabb> out;
  if (bars.empty() || hero.empty()) return out;
  // Horizontal axes of the view, snapped to the world's (the boxes are axis-aligned).
  const BehindHero behind = behindHero(hero, view.right, view.forward);
  const glm::dvec3 &across = behind.across, &away = behind.away;
  const double width = behind.width;
  double top = 0;
  for (const ValueBar& b : bars) top = std::max(top, std::isfinite(b.value) ? b.value : 0.0);
  const double bar = WIDTH_SHARE * width, gap = GAP_SHARE * width;
  const double row = bars.size() * bar + (bars.size() - 1) * gap;
  // On the hero's far edge, the row's middle behind its centre.
  const glm::dvec3 base = behind.base + away * (0.5 * bar);
  auto middle = [&](size_t i) { return base + across * (-0.5 * row + (i + 0.5) * bar + i * gap); };
  // The tallest as tall as every bar's top corners stay in the view.
  const double limit = (1 - TOP_MARGIN_SHARE) * std::tan(0.5 * view.verticalFov_rad);
  double tallest = HEIGHT_SHARE * width;
  for (size_t i = 0; i < bars.size(); ++i) {
    const double v = std::isfinite(bars[i].value) ? std::max(0.0, bars[i].value) : 0.0;
    if (!(v > 0 && top > 0)) continue;
    const glm::dvec3 m = middle(i);
    for (double a : {-0.5, 0.5})
      for (double b : {-0.5, 0.5}) {
        const glm::dvec3 foot = glm::dvec3(m.x, hero.max.y, m.z) + bar * (a * across + b * away);
        tallest = std::min(tallest, riseInView(view, foot, limit) * top / v);
      }
  }
  for (size_t i = 0; i < bars.size(); ++i) {
    const double v = std::isfinite(bars[i].value) ? std::max(0.0, bars[i].value) : 0.0;
    const double h = top > 0 ? tallest * v / top : 0.0;
    const glm::dvec3 mid = middle(i);
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
  const std::vector<Aabb> boxes = ValueBars::layout(frame.studio->studioBounds, frame.view, bars);
  ValueBars::emit(boxes, bars, frame.view.eye, out);
  for (size_t i = 0; i < boxes.size(); ++i)
    m_placed.emplace_back(labelPoint(boxes[i]), bars[i].label);
}

}  // namespace world
