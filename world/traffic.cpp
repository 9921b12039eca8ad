#include "world/traffic.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include <glm/geometric.hpp>

#include "sim/specs.h"

namespace world {
namespace {

constexpr const char* HERO_RACK = "hall0/row0/rack0";
constexpr const char* HERO_ROW = "hall0/row0";
constexpr const char* LEAF_RACK = "hall0/row0/leaf_rack";
constexpr const char* SPINE = "hall0/fabric/spine";
constexpr const char* NVLINK_BUNDLE = "NVLink copper cable bundle";
constexpr const char* NVLINK_CARTRIDGES = "NVLink spine cartridges";
constexpr const char* ROW_CABLE_TRAY = "overhead cable tray";

// The two ends of a long part: its box's centre line along its longest side.
std::pair<glm::dvec3, glm::dvec3> centreLine(const Aabb& box) {
  const glm::dvec3 size = box.size();
  int axis = 0;
  for (int k = 1; k < 3; ++k)
    if (size[k] > size[axis]) axis = k;
  glm::dvec3 a = box.center(), b = box.center();
  a[axis] = box.min[axis];
  b[axis] = box.max[axis];
  return {a, b};
}

TrafficPath makePath(TrafficKind kind, std::vector<glm::dvec3> points, bool reverse) {
  TrafficPath path;
  path.kind = kind;
  path.reverse = reverse;
  path.points = std::move(points);
  double s = 0;
  for (size_t i = 0; i < path.points.size(); ++i) {
    if (i > 0) s += glm::length(path.points[i] - path.points[i - 1]);
    path.along_m.push_back(s);
  }
  return path;
}

// World bounds of the parts called `name` of the prototype at `path`.
std::vector<Aabb> partBounds(const Scene& scene, const std::string& path, const std::string& name) {
  std::vector<Aabb> out;
  const auto resolved = scene.resolve(path);
  if (!resolved) return out;
  for (const Part& part : scene.prototype(resolved->second).parts) {
    if (part.name == name) out.push_back(transformAabb(resolved->first, part.bounds));
  }
  return out;
}

}  // namespace

glm::dvec3 TrafficPath::at(double s_m) const {
  if (points.empty()) return glm::dvec3(0.0);
  const double s = std::clamp(s_m, 0.0, length_m());
  const auto next = std::upper_bound(along_m.begin(), along_m.end(), s);
  if (next == along_m.end()) return points.back();
  const size_t i = size_t(next - along_m.begin());  // along_m[i - 1] <= s < along_m[i]
  const double span = along_m[i] - along_m[i - 1];
  const double t = span > 0 ? (s - along_m[i - 1]) / span : 0.0;
  return points[i - 1] + t * (points[i] - points[i - 1]);
}

double TrafficFlow::load() const {
  return capacity_Bps > 0 ? std::clamp(rate_Bps / capacity_Bps, 0.0, 1.0) : 0.0;
}

uint32_t particleCount(double length_m, double load, const TrafficStyle& style) {
  const double perMetre = std::min(std::clamp(load, 0.0, 1.0) * style.particlesPerMetreAtFull,
                                   style.maxParticlesPerMetre);
  return uint32_t(std::lround(perMetre * std::max(0.0, length_m)));
}

double particleSpeed_mps(double load, const TrafficStyle& style) {
  return std::min(std::clamp(load, 0.0, 1.0) * style.speedAtFull_mps, style.maxSpeed_mps);
}

Traffic Traffic::build(const Scene& scene, TrafficDesc desc) {
  Traffic t;
  t.m_desc = desc;
  // NVLink: the copper bundles of the hero rack, traffic up and down alternately, drawn just
  // outside the spine cartridges that cover them from the back (the rack's -Z side).
  const std::vector<Aabb> bundles = partBounds(scene, HERO_RACK, NVLINK_BUNDLE);
  const std::vector<Aabb> cartridges = partBounds(scene, HERO_RACK, NVLINK_CARTRIDGES);
  const auto heroRack = scene.resolve(HERO_RACK);
  glm::dvec3 back(0.0);
  if (heroRack) back = glm::normalize(glm::dvec3(heroRack->first * glm::dvec4(0, 0, -1, 0)));
  for (size_t i = 0; i < bundles.size(); ++i) {
    auto [bottom, top] = centreLine(bundles[i]);
    double out_m = 0;
    for (const Aabb& c : cartridges) {
      for (int corner = 0; corner < 8; ++corner) {
        const glm::dvec3 p(corner & 1 ? c.max.x : c.min.x, corner & 2 ? c.max.y : c.min.y,
                           corner & 4 ? c.max.z : c.min.z);
        out_m = std::max(out_m, glm::dot(p - bottom, back));
      }
    }
    const glm::dvec3 shift = back * (out_m + desc.nvlink.size_m);
    t.m_paths.push_back(makePath(TrafficKind::NvLink, {bottom + shift, top + shift}, i % 2 == 1));
  }
  // Fabric: up from the rack's top to the row's cable tray, along it to the leaf rack, down into
  // it; then from the leaf up over the hall and down into each spine rack.
  const auto rack = scene.worldBounds(HERO_RACK);
  const auto leaf = scene.worldBounds(LEAF_RACK);
  const auto spine = scene.worldBounds(SPINE);
  const std::vector<Aabb> trays = partBounds(scene, HERO_ROW, ROW_CABLE_TRAY);
  if (rack && leaf && spine && !trays.empty()) {
    const Aabb& tray = trays.front();
    const auto [trayStart, trayEnd] = centreLine(tray);
    const glm::dvec3 along = glm::normalize(trayEnd - trayStart);
    const double above = tray.max.y + 2.0 * desc.fabric.size_m;
    glm::dvec3 start = rack->center();
    start.y = rack->max.y;
    glm::dvec3 up = start;
    up.y = above;
    glm::dvec3 overTray = trayStart + along * glm::dot(up - trayStart, along);
    overTray.y = above;
    glm::dvec3 overLeaf = trayStart + along * glm::dot(leaf->center() - trayStart, along);
    overLeaf.y = above;
    glm::dvec3 leafTop = overLeaf;
    leafTop.y = leaf->max.y;
    t.m_paths.push_back(
        makePath(TrafficKind::Fabric, {start, up, overTray, overLeaf, leafTop}, false));
    // From the leaf to every spine rack: the uplinks ECMP spreads the traffic over.
    const double trunk = std::max(above, spine->max.y) + 0.6;
    glm::dvec3 leafUp = leafTop;
    leafUp.y = trunk;
    for (int i = 0;; ++i) {
      const auto spineRack =
          scene.worldBounds(std::string(SPINE) + "/spine_rack" + std::to_string(i));
      if (!spineRack) break;
      glm::dvec3 overSpine = spineRack->center();
      overSpine.y = trunk;
      glm::dvec3 spineTop = spineRack->center();
      spineTop.y = spineRack->max.y;
      t.m_paths.push_back(
          makePath(TrafficKind::Fabric, {leafTop, leafUp, overSpine, spineTop}, false));
    }
  }
  // Staggered starts, so that neighbouring paths do not line their particles up in rows.
  for (size_t i = 0; i < t.m_paths.size(); ++i) t.m_phase_m.push_back(0.37 * double(i));
  return t;
}

void Traffic::update(const sim::engine::Engine& engine) {
  const double now_s = engine.time_s();
  const double bytes = engine.nvlinkBytes();
  const sim::engine::Cluster& c = engine.cluster();
  const bool restarted = now_s < m_lastTime_s || bytes < m_lastNvlinkBytes;
  const double dt_s = (m_lastTime_s < 0 || restarted) ? 0.0 : now_s - m_lastTime_s;

  TrafficFlow& nvlink = m_flows[size_t(TrafficKind::NvLink)];
  TrafficFlow& fabric = m_flows[size_t(TrafficKind::Fabric)];
  nvlink.capacity_Bps = double(c.gpusPerRack) * sim::scaleUpPerDirection_Bps(c.specs.gpu);
  if (dt_s > 0 && c.racks > 0) {
    nvlink.rate_Bps = (bytes - m_lastNvlinkBytes) / dt_s / double(c.racks);
  } else if ((m_lastTime_s < 0 || restarted) && now_s > 0 && c.racks > 0) {
    // A first look (a shot, a key frame): the mean since the engine started.
    nvlink.rate_Bps = bytes / now_s / double(c.racks);
  } else if (restarted) {
    nvlink.rate_Bps = 0;
  }
  // The hero rack is RackId 0: its GPUs, their NIC cables and the leaves they land on.
  const sim::engine::Snapshot s = engine.snapshot();
  fabric = {};
  const uint32_t end = std::min(c.gpusPerRack, c.gpuCount());
  for (uint32_t g = 0; g < end; ++g) {
    const uint32_t link = c.gpuLink[g];
    const double capacity = c.links[link].capacity_Bps;
    fabric.capacity_Bps += capacity;
    fabric.rate_Bps += double(s.linkUtilisation[link]) * capacity;
    fabric.paused = fabric.paused || s.switchPaused[c.gpuLeaf[g]] != 0;
  }

  const double move_s = std::min(dt_s, 0.1);
  for (size_t i = 0; i < m_paths.size(); ++i) {
    const TrafficFlow& f = flow(m_paths[i].kind);
    if (f.paused) continue;  // PFC: the sender holds its frames
    m_phase_m[i] += particleSpeed_mps(f.load(), m_desc.style(m_paths[i].kind)) * move_s;
    if (m_paths[i].length_m() > 0) m_phase_m[i] = std::fmod(m_phase_m[i], m_paths[i].length_m());
  }
  m_lastTime_s = now_s;
  m_lastNvlinkBytes = bytes;
}

namespace {

// Paused links keep their frames queued: drawn at full density, red, standing still.
double shownLoad(const TrafficFlow& flow) {
  return flow.paused ? 1.0 : flow.load();
}

}  // namespace

uint32_t Traffic::particles() const {
  uint32_t n = 0;
  for (const TrafficPath& p : m_paths) {
    n += particleCount(p.length_m(), shownLoad(flow(p.kind)), m_desc.style(p.kind));
  }
  return n;
}

void Traffic::emit(const glm::dvec3& eye, std::vector<gpu::Instance>& out) const {
  for (size_t i = 0; i < m_paths.size(); ++i) {
    const TrafficPath& path = m_paths[i];
    const TrafficFlow& f = flow(path.kind);
    const TrafficStyle& style = m_desc.style(path.kind);
    const uint32_t n = particleCount(path.length_m(), shownLoad(f), style);
    if (n == 0) continue;
    const bool nv = path.kind == TrafficKind::NvLink;
    Look look;
    if (f.paused) {
      look = {1.0f, 0.12f, 0.08f, 1.0f, 0.0f};  // PFC pause: red, standing still
    } else if (nv) {
      look = {0.35f, 0.95f, 1.0f, 1.0f, 0.0f};  // NVLink: cyan over the copper
    } else {
      look = {1.0f, 0.78f, 0.25f, 1.0f, 0.0f};  // fabric: amber
    }
    const double size = style.size_m;
    const double spacing = path.length_m() / n;
    for (uint32_t k = 0; k < n; ++k) {
      double s = std::fmod(m_phase_m[i] + k * spacing, path.length_m());
      if (path.reverse) s = path.length_m() - s;
      out.push_back(makeInstance(boxTransform(path.at(s), glm::dvec3(size)), eye, look));
    }
  }
}

}  // namespace world
