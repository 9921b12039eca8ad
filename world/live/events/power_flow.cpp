#include "world/live/events/power_flow.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace world {

using namespace event_geometry;

namespace {

// The power flows' bands, dimmer than their pulses: warm white power, red heat.
constexpr Look FLOW_POWER{1.0f, 0.85f, 0.5f, 0.35f, 0.0f};
constexpr Look FLOW_HEAT{1.0f, 0.15f, 0.05f, 0.35f, 0.0f};

}  // namespace

PowerFlow PowerFlow::build(const Scene& scene, const RackMap& racks) {
  PowerFlow flow;
  const auto substation = scene.worldBounds("substation");
  if (!substation) return flow;
  flow.m_substation = *substation;
  const auto& halls = racks.rowStarts();
  for (size_t h = 0; h < halls.size(); ++h) {
    const auto hall = scene.worldBounds("hall" + std::to_string(h));
    if (!hall || halls[h].empty()) continue;
    flow.m_halls.push_back(*hall);
    const auto cooler = scene.worldBounds("cooling" + std::to_string(h));
    flow.m_coolers.push_back(cooler ? *cooler : Aabb{});
    flow.m_racks.push_back({halls[h].front(), halls[h].back()});
  }
  return flow;
}

double PowerFlow::width_m(double power_W) {
  const double w = WIDTH_M_PER_MW * std::max(0.0, power_W) * 1e-6;
  return std::clamp(std::isfinite(w) ? w : 0.0, MIN_WIDTH_M, MAX_WIDTH_M);
}

std::vector<double> PowerFlow::hallPower_W(const sim::engine::Snapshot& snapshot) const {
  std::vector<double> out;
  for (const auto& [first, end] : m_racks)
    out.push_back(
        sim::engine::rackRangePower_W(snapshot, first, end, sim::engine::PowerWindow::StepMean));
  return out;
}

std::vector<PowerFlow::Flow> PowerFlow::layout(const std::vector<double>& hallPower_W) const {
  std::vector<Flow> out;
  const size_t n = std::min(m_halls.size(), hallPower_W.size());
  if (n == 0) return out;
  // The trunk follows the feeders' route: along x on the side of the halls that faces the
  // substation, midway between their walls and the substation's near edge (the site road), so it
  // never runs behind the halls through their generator yards. A substation level with the halls
  // (beside the row) feeds a trunk just off the halls' walls on its side.
  const double subX = m_substation.center().x, subZ = m_substation.center().z;
  double hallsMinZ = 1e300, hallsMaxZ = -1e300;
  for (size_t h = 0; h < n; ++h) {
    hallsMinZ = std::min(hallsMinZ, m_halls[h].min.z);
    hallsMaxZ = std::max(hallsMaxZ, m_halls[h].max.z);
  }
  const double side = subZ >= 0.5 * (hallsMinZ + hallsMaxZ) ? 1.0 : -1.0;
  const double wall = side > 0 ? hallsMaxZ : hallsMinZ;
  const double subEdge = side > 0 ? m_substation.min.z : m_substation.max.z;
  const double gap_m = side * (subEdge - wall);
  const bool between = gap_m > 0;
  const double trunkZ = between ? 0.5 * (wall + subEdge) : wall + side * (0.5 * MAX_WIDTH_M + 2.0);
  // As wide as its power, but no wider than half the gap it runs in: each hall's feed shows
  // between the trunk and the hall's wall, and the trunk stays off the yards across the road.
  const double trunkMax_m = between ? std::max(MIN_WIDTH_M, 0.5 * gap_m) : MAX_WIDTH_M;
  auto trunkWidth = [&](double power_W) { return std::min(width_m(power_W), trunkMax_m); };
  const double y = m_halls.front().min.y + 0.3;
  std::vector<size_t> order(n);
  for (size_t h = 0; h < n; ++h) order[h] = h;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::abs(m_halls[a].center().x - subX) < std::abs(m_halls[b].center().x - subX);
  });
  auto band = [&](glm::dvec3 a, glm::dvec3 b, double width) {
    Aabb box;
    const bool alongX = std::abs(b.x - a.x) >= std::abs(b.z - a.z);
    const glm::dvec3 half =
        alongX ? glm::dvec3(0, 0.15, 0.5 * width) : glm::dvec3(0.5 * width, 0.15, 0);
    box.extend(glm::min(a, b) - half);
    box.extend(glm::max(a, b) + half);
    return box;
  };
  // The substation's feed to the trunk, then the trunk hall to hall, carrying what lies beyond.
  double beyond_W = 0;
  for (size_t h = 0; h < n; ++h) beyond_W += std::max(0.0, hallPower_W[h]);
  // Each hall's feed leaves the trunk a quarter of the hall's width off its centre, so that it
  // does not lie under the heat leaving from the middle of the hall: on the half away from the
  // substation, where the building's lobby (on the substation's half) does not cover it.
  auto feedX = [&](size_t h) {
    const double away = subX < m_halls[h].center().x ? 1.0 : -1.0;
    return m_halls[h].center().x + away * 0.25 * m_halls[h].size().x;
  };
  glm::dvec3 at(subX, y, trunkZ);
  out.push_back(
      {band(glm::dvec3(subX, y, subEdge), at, trunkWidth(beyond_W)), beyond_W, false, -1});
  for (size_t k = 0; k < n; ++k) {
    const size_t h = order[k];
    const glm::dvec3 next(feedX(h), y, trunkZ);
    out.push_back({band(at, next, trunkWidth(beyond_W)), beyond_W, false, -1});
    at = next;
    beyond_W -= std::max(0.0, hallPower_W[h]);
  }
  for (size_t h = 0; h < n; ++h) {
    const double p = std::max(0.0, hallPower_W[h]);
    const double x = feedX(h);
    out.push_back(
        {band(glm::dvec3(x, y, trunkZ), glm::dvec3(x, y, wall), width_m(p)), p, false, int32_t(h)});
    const Aabb& cooler = m_coolers[h];
    if (cooler.empty()) continue;
    // Heat leaves from the middle of the hall's wall that faces its yard into the middle of the
    // yard, a little above the power bands so that where it crosses the trunk the two do not
    // share a plane.
    const double cx = m_halls[h].center().x, hy = y + HEAT_LIFT_M;
    const bool beyond = cooler.center().z > m_halls[h].center().z;
    const double from = beyond ? m_halls[h].max.z : m_halls[h].min.z;
    const double to = cooler.center().z;
    out.push_back(
        {band(glm::dvec3(cx, hy, from), glm::dvec3(cx, hy, to), width_m(p)), p, true, int32_t(h)});
  }
  return out;
}

void PowerFlow::emit(const std::vector<double>& hallPower_W, double time_s, const glm::dvec3& eye,
                     std::vector<gpu::Instance>& out) const {
  const double t = std::isfinite(time_s) ? std::max(0.0, time_s) : 0.0;
  for (const Flow& f : layout(hallPower_W)) {
    pushBox(f.box, f.heat ? FLOW_HEAT : FLOW_POWER, eye, out);
    // Pulses: bright blocks moving along the band, away from the substation (power) or the hall
    // (heat), at one speed.
    const glm::dvec3 size = f.box.size();
    const bool alongX = size.x >= size.z;
    const double length = alongX ? size.x : size.z;
    const int pulses = int(length / PULSE_SPACING_M);
    const double shift = std::fmod(t * PULSE_SPEED_MPS, PULSE_SPACING_M);
    for (int i = 0; i < pulses; ++i) {
      double s = i * PULSE_SPACING_M + shift;
      if (s >= length) continue;
      const double sign =
          alongX ? (m_substation.center().x > f.box.center().x ? -1.0 : 1.0)
                 : (f.heat == (f.box.center().z > m_halls.front().center().z) ? 1.0 : -1.0);
      if (sign < 0) s = length - s;
      Aabb pulse;
      const glm::dvec3 c = alongX ? glm::dvec3(f.box.min.x + s, f.box.center().y, f.box.center().z)
                                  : glm::dvec3(f.box.center().x, f.box.center().y, f.box.min.z + s);
      const glm::dvec3 half =
          alongX ? glm::dvec3(2.0, 0.3, 0.5 * size.z) : glm::dvec3(0.5 * size.x, 0.3, 2.0);
      pulse.extend(c - half);
      pulse.extend(c + half);
      pushBox(pulse, f.heat ? event_looks::LOST : event_looks::POWER, eye, out);
    }
  }
}

std::unique_ptr<LiveLayer> PowerFlowLayer::make(const LayerSources& sources) {
  auto layer = std::make_unique<PowerFlowLayer>();
  if (sources.racks.rackCount() > 0) layer->m_flow = PowerFlow::build(sources.scene, sources.racks);
  return layer;
}

std::string powerFlowLabel(const PowerFlow::Flow& flow) {
  char text[64];
  if (flow.hall < 0) {
    std::snprintf(text, sizeof text, "substation  %.1f MW IT, step mean", flow.power_W * 1e-6);
  } else {
    std::snprintf(text, sizeof text, "hall %d  %.1f MW%s", flow.hall, flow.power_W * 1e-6,
                  flow.heat ? " of heat" : "");
  }
  return text;
}

void PowerFlowLayer::labels(const LayerFrame& frame, std::vector<Label>& out) const {
  if (!frame.liveLabels) return;
  const std::vector<PowerFlow::Flow> flows = m_flow.layout(m_hallPower_W);
  // The substation's feed (the first flow) and each hall's feed: what the campus draws and where.
  for (size_t i = 0; i < flows.size(); ++i) {
    const PowerFlow::Flow& f = flows[i];
    if (f.heat || (f.hall < 0 && i != 0)) continue;
    const glm::dvec3 anchor = labelPoint(f.box) - frame.view.eye;
    if (glm::dot(anchor, frame.view.forward) <= 0) continue;
    out.push_back(makeLabel(anchor, powerFlowLabel(f), LabelRank::POWER));
  }
}

}  // namespace world
