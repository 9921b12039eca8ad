#include "world/live/events/nvlink.h"

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace world {

using namespace event_geometry;

namespace {

// A tray's own NVLink lines: 18 of them fan into the trunk across a tray's width, and at the
// ring's 12 mm they would merge into one cyan wedge (a flood, not lines); 5 mm keeps a gap as wide
// as each line or wider, still a pixel at the rack's framing.
constexpr double FAN_LINE_M = 0.005;

}  // namespace

NvlinkDomain NvlinkDomain::build(const Scene& scene, const std::string& rackPath) {
  NvlinkDomain d;
  const std::vector<Aabb> switches = childBounds(scene, rackPath, "switch_tray");
  if (switches.empty()) return d;
  for (const Aabb& s : switches) d.m_switches.extend(s);
  d.m_trays = childBounds(scene, rackPath, "compute_tray");
  std::sort(d.m_trays.begin(), d.m_trays.end(),
            [](const Aabb& a, const Aabb& b) { return a.center().y > b.center().y; });
  d.m_front = rackFront(scene, rackPath);
  d.m_side = glm::normalize(glm::cross(glm::dvec3(0, 1, 0), d.m_front));
  // The switch trays never pull out: their front is every tray's but the hero's.
  d.m_frontPlane = -1e300;
  for (const glm::dvec3& corner : {d.m_switches.min, d.m_switches.max}) {
    d.m_frontPlane = std::max(d.m_frontPlane, glm::dot(corner, d.m_front));
  }
  return d;
}

uint32_t NvlinkDomain::litGpus(double time_s, uint32_t domainGpus, uint32_t gpusPerTray) {
  if (domainGpus == 0 || gpusPerTray == 0) return 0;
  const double share = std::clamp(std::isfinite(time_s) ? time_s / GROW_S : 0.0, 0.0, 1.0);
  const double start = std::min<double>(START_GPUS, domainGpus);
  const double gpus = start + share * (double(domainGpus) - start);
  const uint32_t trays = std::max<uint32_t>(1, uint32_t(std::ceil(gpus / gpusPerTray - 1e-9)));
  return std::min(domainGpus, trays * gpusPerTray);
}

void NvlinkDomain::emit(uint32_t litTrays, const glm::dvec3& eye,
                        std::vector<gpu::Instance>& out) const {
  litTrays = std::min<uint32_t>(litTrays, uint32_t(m_trays.size()));
  if (litTrays == 0) return;
  const double front = m_frontPlane + FRONT_CLEARANCE_M;
  // Coordinates along the side axis and height of the switch block.
  const double s0 = std::min(glm::dot(m_switches.min, m_side), glm::dot(m_switches.max, m_side));
  const double s1 = std::max(glm::dot(m_switches.min, m_side), glm::dot(m_switches.max, m_side));
  const double width = s1 - s0;
  const double switchY = m_switches.center().y;
  auto at = [&](double side, double y) {
    return m_front * front + m_side * side + glm::dvec3(0, y, 0);
  };
  // The switch trays: one bar across their front, the trunk every line runs into.
  pushBox(spanBox(at(s0 + 0.05 * width, switchY), at(s1 - 0.05 * width, switchY), 2 * LINE_M),
          event_looks::DATA, eye, out);
  // Each tray's line stands at its own place across the rack, so the lines fan into the trunk.
  const size_t n = m_trays.size();
  for (size_t i = 0; i < litTrays; ++i) {
    const double y = m_trays[i].center().y;
    const double side = s0 + width * (0.1 + 0.8 * (double(i) + 0.5) / double(n));
    pushBox(spanBox(at(s0 + 0.05 * width, y), at(s1 - 0.05 * width, y), FAN_LINE_M),
            event_looks::DATA, eye, out);
    pushBox(spanBox(at(side, y), at(side, switchY), FAN_LINE_M), event_looks::DATA, eye, out);
  }
}

std::unique_ptr<LiveLayer> NvlinkLayer::make(const LayerSources& sources) {
  auto layer = std::make_unique<NvlinkLayer>();
  if (sources.racks.rackCount() > 0) {
    layer->m_domain = NvlinkDomain::build(sources.scene, sources.racks.pathOfRack(0));
  }
  return layer;
}

void NvlinkLayer::sync(const LayerSync& sync) {
  const auto& cluster = sync.snapshot.cluster;
  m_domainGpus = cluster ? cluster->gpusPerRack : 0;
  m_gpusPerTray = cluster ? cluster->gpusPerTray : 0;
}

void NvlinkLayer::emit(const LayerFrame& frame, std::vector<gpu::Instance>& out) {
  if (m_gpusPerTray == 0) return;
  const uint32_t lit = NvlinkDomain::litGpus(frame.inputs.eventTime_s, m_domainGpus, m_gpusPerTray);
  m_domain.emit(lit / m_gpusPerTray, frame.view.eye, out);
}

}  // namespace world
