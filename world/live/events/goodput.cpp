#include "world/live/events/goodput.h"

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace world {

using namespace event_geometry;

namespace {

// The goodput columns: width and depth of each, the gap between them and from the rack, and
// their full height as a share of the rack's.
constexpr double COLUMN_M = 0.28;
constexpr double COLUMN_GAP_M = 0.12;
constexpr double COLUMN_HEIGHT_SHARE = 0.9;

}  // namespace

GoodputColumns GoodputColumns::build(const Scene& scene, const std::string& rackPath) {
  GoodputColumns c;
  if (auto bounds = scene.worldBounds(rackPath)) c.m_rack = *bounds;
  return c;
}

std::vector<GoodputColumns::Segment> GoodputColumns::layout(const sim::engine::StepSplit& split,
                                                            const glm::dvec3& right) const {
  std::vector<Segment> out;
  if (m_rack.empty() || !(split.total_s > 0)) return out;
  // Beside the rack on the view's right: the axis of `right` the rack is narrowest on.
  const glm::dvec3 size = m_rack.size();
  const bool alongX = std::abs(right.x) >= std::abs(right.z);
  const double sign = (alongX ? right.x : right.z) >= 0 ? 1.0 : -1.0;
  const double edge =
      alongX ? (sign > 0 ? m_rack.max.x : m_rack.min.x) : (sign > 0 ? m_rack.max.z : m_rack.min.z);
  const double height = COLUMN_HEIGHT_SHARE * size.y;
  auto column = [&](int k, double y0, double y1) {
    const double c = edge + sign * (COLUMN_GAP_M + (k + 0.5) * COLUMN_M + k * COLUMN_GAP_M);
    const double other = alongX ? m_rack.center().z : m_rack.center().x;
    Aabb box;
    const glm::dvec3 mid = alongX ? glm::dvec3(c, 0, other) : glm::dvec3(other, 0, c);
    box.extend(mid + glm::dvec3(-0.5 * COLUMN_M, m_rack.min.y + y0, -0.5 * COLUMN_M));
    box.extend(mid + glm::dvec3(0.5 * COLUMN_M, m_rack.min.y + y1, 0.5 * COLUMN_M));
    return box;
  };
  const double perSecond = height / split.total_s;
  out.push_back({column(0, 0.0, std::min(height, split.peak_s * perSecond)), event_looks::GHOST,
                 split.peak_s});
  double y = 0;
  const std::pair<double, Look> parts[] = {{split.compute_s, event_looks::COMPUTE},
                                           {split.communication_s, event_looks::DATA},
                                           {split.bubble_s, event_looks::WAITING},
                                           {split.optimizer_s, event_looks::HOUSEKEEPING},
                                           {split.lost_s, event_looks::LOST}};
  for (const auto& [seconds, look] : parts) {
    if (!(seconds > 0)) continue;
    const double top = y + seconds * perSecond;
    out.push_back({column(1, y, top), look, seconds});
    y = top;
  }
  return out;
}

void GoodputColumns::emit(const sim::engine::StepSplit& split, const glm::dvec3& right,
                          const glm::dvec3& eye, std::vector<gpu::Instance>& out) const {
  for (const Segment& s : layout(split, right)) pushBox(s.box, s.look, eye, out);
}

std::unique_ptr<LiveLayer> GoodputLayer::make(const LayerSources& sources) {
  auto layer = std::make_unique<GoodputLayer>();
  if (sources.racks.rackCount() > 0) {
    layer->m_columns = GoodputColumns::build(sources.scene, sources.racks.pathOfRack(0));
  }
  return layer;
}

}  // namespace world
