#include "world/live/traffic.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include <glm/geometric.hpp>
#include <glm/gtc/constants.hpp>

#include "sim/specs.h"

namespace world {
namespace {

constexpr const char* HERO_RACK = "hall0/row0/rack0";
constexpr const char* HERO_ROW = "hall0/row0";
constexpr const char* LEAF_RACK = "hall0/row0/leaf_rack";
constexpr const char* SPINE = "hall0/fabric/spine";
constexpr const char* NVLINK_CARTRIDGE = "spine_cartridge";  // + index, the rack's children
constexpr const char* ROW_CABLE_TRAY = "overhead cable tray";
constexpr const char* HERO_TRAY = "hall0/row0/rack0/compute_tray9";

constexpr Look NVLINK_LOOK = traffic_looks::NVLINK;
constexpr Look FABRIC_LOOK = traffic_looks::FABRIC;
constexpr Look REDUCED_LOOK{1.0f, 0.95f, 0.7f, 1.0f, 0.0f};  // the reduced stream, paler
constexpr Look PAUSED_LOOK = traffic_looks::PAUSED;
constexpr Look REDUCE_MARK{0.85f, 1.0f, 1.0f, 1.0f, 0.0f};  // SHARP: bright, pulsing

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

// How a paused switch rack lights: a line over each switch's ports along the top of its front
// face, and one along the roof's front edge (seen from over the hall). Light, not paint: the
// lines cover a small share of the rack's front (tests/world/traffic_test.cpp), and their edges
// glow at constant screen width, so they read when thinner than a pixel.
constexpr double PORT_LINE_M = 0.010;  // a 1U switch's face is 42 mm: the LED strip over its cages
constexpr double ROOF_EDGE_M = 0.020;  // the roof line's height and depth
constexpr double LINE_WIDTH = 0.9;     // share of a switch's width the port line spans

// A switch rack's geometry for its leg: the point just in front of its switch stack where
// particles converge, and the lines a pause lights (one per switch, whatever its name: the
// rack's children are its switches).
void placeSwitches(const Scene& scene, FabricLeg& leg, double clearance_m) {
  const auto rack = scene.resolve(leg.rackPath);
  const auto bounds = scene.worldBounds(leg.rackPath);
  if (!rack || !bounds) return;
  leg.rackBounds = *bounds;
  const glm::dvec3 front = glm::normalize(glm::dvec3(rack->first * glm::dvec4(0, 0, 1, 0)));
  const glm::dvec3 side = glm::normalize(glm::dvec3(rack->first * glm::dvec4(1, 0, 0, 0)));
  // Along the front edge of the cabinet's top panel, the rack's width.
  const std::vector<Aabb> top = partBounds(scene, leg.rackPath, "top");
  const Aabb roof = top.empty() ? *bounds : top.front();
  const double roofFront =
      glm::dot(roof.center(), front) + 0.5 * std::abs(glm::dot(roof.size(), front));
  const glm::dvec3 roofCentre =
      roof.center() + front * (roofFront - glm::dot(roof.center(), front) - 0.5 * ROOF_EDGE_M) +
      glm::dvec3(0, 0.5 * roof.size().y + 0.5 * ROOF_EDGE_M, 0);
  const glm::dvec3 roofSize = glm::abs(side) * std::abs(glm::dot(roof.size(), side)) +
                              (glm::abs(front) + glm::dvec3(0, 1, 0)) * ROOF_EDGE_M;
  leg.roofEdge = {roofCentre - 0.5 * roofSize, roofCentre + 0.5 * roofSize};
  Aabb stack;
  leg.portLines.clear();
  for (const ChildInstance& child : scene.prototype(rack->second).children) {
    const Aabb sw =
        transformAabb(rack->first * child.local, scene.prototype(child.prototype).bounds);
    stack.extend(sw);
    const double width = std::abs(glm::dot(sw.size(), side)) * LINE_WIDTH;
    const double face = glm::dot(sw.center(), front) + 0.5 * std::abs(glm::dot(sw.size(), front));
    const glm::dvec3 c = sw.center() + front * (face - glm::dot(sw.center(), front) + 0.002) +
                         glm::dvec3(0, 0.5 * sw.size().y - 0.5 * PORT_LINE_M, 0);
    const glm::dvec3 size =
        glm::abs(side) * width + glm::abs(front) * 0.002 + glm::dvec3(0, PORT_LINE_M, 0);
    leg.portLines.push_back({c - 0.5 * size, c + 0.5 * size});
  }
  if (stack.empty()) stack = *bounds;
  const glm::dvec3 c = stack.center();
  const double toFace =
      glm::dot(bounds->center() - c, front) + 0.5 * std::abs(glm::dot(bounds->size(), front));
  leg.switchCentre = c + front * (toFace + clearance_m);
}

// A leg's load as the engine routes its current training phase: the busier direction's bytes of
// one phase over the phase's duration, per cable (what the engine's snapshot shows while no
// switch is paused). The engine idles every link while any switch is paused; a leg whose
// switches the pause has not reached yet keeps this load, the frames in flight.
double routedLoad(const sim::engine::Snapshot& snapshot, const FabricLeg& leg) {
  using sim::engine::TrainingPhase;
  const sim::engine::TrainingPlan* plan = snapshot.training;
  if (!plan || leg.flow.capacity_Bps <= 0) return 0.0;
  const bool dp = snapshot.phase == TrainingPhase::DataParallel;
  const double phase_s = dp ? snapshot.dataParallelTime_s : snapshot.pipelineTime_s;
  if (snapshot.phase == TrainingPhase::Optimizer || !std::isfinite(phase_s) || phase_s <= 0)
    return 0.0;
  const double allToAlls = plan->desc.microBatches * plan->allToAllsPerMicroBatch;
  std::span<const double> dpBytes = snapshot.dpLinkBytes;
  std::span<const double> ppBytes = snapshot.ppLinkBytes;
  std::span<const double> a2aBytes = snapshot.allToAllLinkBytes;
  double rate = 0;
  for (uint32_t link : leg.links) {
    const size_t upward = 2 * size_t{link}, downward = upward + 1;
    const double bytes = dp ? std::max(dpBytes[upward], dpBytes[downward])
                            : std::max(ppBytes[upward] + allToAlls * a2aBytes[upward],
                                       ppBytes[downward] + allToAlls * a2aBytes[downward]);
    rate += bytes / phase_s;
  }
  return std::clamp(rate / leg.flow.capacity_Bps, 0.0, 1.0);
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
  // NVLink: two lanes over each of the hero rack's spine cartridges, traffic up one and down the
  // other, drawn just behind the cartridge (the rack's -Z side), where its looms run.
  const auto heroRack = scene.resolve(HERO_RACK);
  if (heroRack) {
    const glm::dvec3 back = glm::normalize(glm::dvec3(heroRack->first * glm::dvec4(0, 0, -1, 0)));
    const glm::dvec3 across = glm::normalize(glm::dvec3(heroRack->first * glm::dvec4(1, 0, 0, 0)));
    for (int i = 0;; ++i) {
      const auto c =
          scene.worldBounds(std::string(HERO_RACK) + "/" + NVLINK_CARTRIDGE + std::to_string(i));
      if (!c) break;
      auto [bottom, top] = centreLine(*c);
      const double halfDepth_m = 0.5 * std::abs(glm::dot(c->size(), back));
      const double quarterWidth_m = 0.25 * std::abs(glm::dot(c->size(), across));
      for (int lane = 0; lane < 2; ++lane) {
        const glm::dvec3 shift =
            back * (halfDepth_m + desc.nvlink.size_m) + across * ((lane ? 1 : -1) * quarterWidth_m);
        t.m_paths.push_back(
            makePath(TrafficKind::NvLink, {bottom + shift, top + shift}, lane == 1));
      }
    }
  }
  // Fabric leg 0: up from the rack's top to the row's cable tray, along it to the leaf rack, down
  // into it. Then per spine rack: from the leaf up over the hall, down in front of the spine
  // rack's switch stack, and back the same way beside it.
  const auto rack = scene.worldBounds(HERO_RACK);
  const auto leaf = scene.worldBounds(LEAF_RACK);
  const auto spine = scene.worldBounds(SPINE);
  const std::vector<Aabb> trays = partBounds(scene, HERO_ROW, ROW_CABLE_TRAY);
  const double clearance = 2.0 * desc.fabric.size_m;
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
    FabricLeg leafLeg;
    leafLeg.rackPath = LEAF_RACK;
    placeSwitches(scene, leafLeg, clearance);
    leafLeg.toSwitch = t.m_paths.size();
    t.m_paths.push_back(
        makePath(TrafficKind::Fabric, {start, up, overTray, overLeaf, leafTop}, false));
    t.m_legs.push_back(leafLeg);
    // From the leaf to every spine rack: the uplinks ECMP spreads the traffic over.
    const double trunk = std::max(above, spine->max.y) + 0.6;
    glm::dvec3 leafUp = leafTop;
    leafUp.y = trunk;
    for (int i = 0;; ++i) {
      FabricLeg leg;
      leg.rackPath = std::string(SPINE) + "/spine_rack" + std::to_string(i);
      if (!scene.worldBounds(leg.rackPath)) break;
      placeSwitches(scene, leg, clearance);
      glm::dvec3 overFront = leg.switchCentre;
      overFront.y = trunk;
      const std::vector<glm::dvec3> in = {leafTop, leafUp, overFront, leg.switchCentre};
      // The way back runs beside the way in, along the spine racks' row, the same length.
      const auto spineRack = scene.resolve(leg.rackPath);
      const glm::dvec3 side =
          glm::normalize(glm::dvec3(spineRack->first * glm::dvec4(1, 0, 0, 0))) * clearance * 1.5;
      std::vector<glm::dvec3> out(in.rbegin(), in.rend());
      for (glm::dvec3& p : out) p += side;
      leg.toSwitch = t.m_paths.size();
      t.m_paths.push_back(makePath(TrafficKind::Fabric, in, false));
      leg.fromSwitch = t.m_paths.size();
      t.m_paths.push_back(makePath(TrafficKind::Fabric, out, false));
      t.m_legs.push_back(std::move(leg));
    }
  }
  // Staggered starts, so that neighbouring paths do not line their particles up in rows.
  for (size_t i = 0; i < t.m_paths.size(); ++i) t.m_phase_m.push_back(0.37 * double(i));
  t.m_pathLoad.assign(t.m_paths.size(), 0.0);
  t.m_pathPaused.assign(t.m_paths.size(), 0);
  t.m_journeys = buildTrayJourneys(scene, HERO_TRAY);
  return t;
}

void Traffic::mapLegs(const sim::engine::Cluster& c) {
  for (FabricLeg& leg : m_legs) {
    leg.switches.clear();
    leg.links.clear();
  }
  if (m_legs.empty()) return;
  // Leg 0: the hero rack's (RackId 0) NIC cables and the rail leaves they land on.
  FabricLeg& leafLeg = m_legs.front();
  const uint32_t end = std::min(c.gpusPerRack, c.gpuCount());
  for (uint32_t g = 0; g < end; ++g) {
    leafLeg.links.push_back(c.gpuLink[g]);
    leafLeg.switches.push_back(c.gpuLeaf[g]);
  }
  std::sort(leafLeg.switches.begin(), leafLeg.switches.end());
  leafLeg.switches.erase(std::unique(leafLeg.switches.begin(), leafLeg.switches.end()),
                         leafLeg.switches.end());
  // The spine legs: those leaves' uplinks, by the spine they land on; the spines they reach, in
  // index order, shared over the spine racks in equal consecutive blocks.
  const size_t spineRacks = m_legs.size() - 1;
  if (spineRacks == 0 || c.leaves == 0) return;
  const size_t up = c.leafUplinks.size() / c.leaves;
  std::vector<uint32_t>& reached = m_spines;
  reached.clear();
  for (uint32_t l : leafLeg.switches)
    for (size_t j = 0; j < up; ++j) reached.push_back(c.links[c.leafUplinks[l * up + j]].upper);
  std::sort(reached.begin(), reached.end());
  reached.erase(std::unique(reached.begin(), reached.end()), reached.end());
  auto rackOf = [&](uint32_t sw) {
    const size_t k = size_t(std::lower_bound(reached.begin(), reached.end(), sw) - reached.begin());
    return 1 + k * spineRacks / reached.size();
  };
  for (size_t k = 0; k < reached.size(); ++k)
    m_legs[1 + k * spineRacks / reached.size()].switches.push_back(reached[k]);
  for (uint32_t l : leafLeg.switches)
    for (size_t j = 0; j < up; ++j) {
      const uint32_t link = c.leafUplinks[l * up + j];
      m_legs[rackOf(c.links[link].upper)].links.push_back(link);
    }
}

void Traffic::update(const sim::engine::Snapshot& snapshot) {
  const double now_s = snapshot.time_s;
  const double bytes = snapshot.nvlinkBytes;
  const sim::engine::Cluster& c = (*snapshot.cluster);
  const bool restarted = now_s < m_lastTime_s || bytes < m_lastNvlinkBytes;
  const bool firstLook = m_lastTime_s < 0 || restarted;
  const double dt_s = firstLook ? 0.0 : now_s - m_lastTime_s;

  TrafficFlow& nvlink = m_flows[size_t(TrafficKind::NvLink)];
  TrafficFlow& fabric = m_flows[size_t(TrafficKind::Fabric)];
  nvlink.capacity_Bps = double(c.gpusPerRack) * sim::scaleUpPerDirection_Bps(c.specs.gpu);
  if (dt_s > 0 && c.racks > 0) {
    nvlink.rate_Bps = (bytes - m_lastNvlinkBytes) / dt_s / double(c.racks);
  } else if (firstLook && now_s > 0 && c.racks > 0) {
    // A first look (a shot, a key frame): the mean since the engine started.
    nvlink.rate_Bps = bytes / now_s / double(c.racks);
  } else if (restarted) {
    nvlink.rate_Bps = 0;
  }

  const sim::engine::Snapshot& s = snapshot;
  mapLegs(c);
  const bool stormSomewhere = s.aggregates.pausedSwitches > 0;
  const bool sharp = c.specs.fabricSwitch.inNetworkReduction && snapshot.training &&
                     snapshot.phase == sim::engine::TrainingPhase::DataParallel;
  fabric = {};
  for (size_t i = 0; i < m_legs.size(); ++i) {
    FabricLeg& leg = m_legs[i];
    leg.flow = {};
    bool anyUp = false;
    for (uint32_t link : leg.links) {
      const double capacity = c.links[link].capacity_Bps;
      leg.flow.capacity_Bps += capacity;
      leg.flow.rate_Bps += double(s.linkUtilisation[link]) * capacity;
      anyUp = anyUp || s.linkUp[link] != 0;
    }
    for (uint32_t sw : leg.switches) leg.flow.paused = leg.flow.paused || s.switchPaused[sw] != 0;
    leg.down = !leg.links.empty() && !anyUp;
    leg.shownLoad = leg.down          ? 0.0
                    : leg.flow.paused ? 1.0  // queued frames: full density, standing still
                    : stormSomewhere  ? routedLoad(snapshot, leg)
                                      : leg.flow.load();
    leg.reducing = sharp && i > 0 && !leg.flow.paused && leg.shownLoad > 0;
    fabric.paused = fabric.paused || leg.flow.paused;
  }
  if (!m_legs.empty()) {
    fabric.rate_Bps = m_legs.front().flow.rate_Bps;
    fabric.capacity_Bps = m_legs.front().flow.capacity_Bps;
  }

  // What each path shows: NVLink its flow; a fabric leg's way in its load, its way back half of
  // it while the spine reduces (one reduced stream leaves for the two that enter).
  for (size_t p = 0; p < m_paths.size(); ++p) {
    m_pathLoad[p] = m_paths[p].kind == TrafficKind::NvLink ? nvlink.load() : 0.0;
    m_pathPaused[p] = 0;
  }
  for (const FabricLeg& leg : m_legs) {
    for (size_t p : {leg.toSwitch, leg.fromSwitch}) {
      if (p == NO_PATH) continue;
      const bool reduced = p == leg.fromSwitch && leg.reducing;
      m_pathLoad[p] = reduced ? 0.5 * leg.shownLoad : leg.shownLoad;
      m_pathPaused[p] = leg.flow.paused && !leg.down ? 1 : 0;
    }
  }

  const double move_s = std::min(dt_s, 0.1) * m_speedScale;
  for (size_t i = 0; i < m_paths.size(); ++i) {
    if (m_pathPaused[i]) continue;  // PFC: the sender holds its frames
    m_phase_m[i] += particleSpeed_mps(m_pathLoad[i], m_desc.style(m_paths[i].kind)) * move_s;
    if (m_paths[i].length_m() > 0) m_phase_m[i] = std::fmod(m_phase_m[i], m_paths[i].length_m());
  }
  m_time_s = now_s;
  m_lastTime_s = now_s;
  m_lastNvlinkBytes = bytes;
}

uint32_t Traffic::pathParticles(size_t index) const {
  const TrafficPath& p = m_paths[index];
  return particleCount(p.length_m(), m_pathLoad[index], m_desc.style(p.kind));
}

uint32_t Traffic::particles() const {
  uint32_t n = 0;
  for (size_t i = 0; i < m_paths.size(); ++i) n += pathParticles(i);
  for (const FabricLeg& leg : m_legs)
    n += (leg.flow.paused ? 1 + uint32_t(leg.portLines.size()) : 0) + (leg.reducing ? 1 : 0);
  if (m_journeys) n += journeyInstances(*m_journeys, m_desc.journey);
  return n;
}

void Traffic::emit(const glm::dvec3& eye, std::vector<gpu::Instance>& out) const {
  for (size_t i = 0; i < m_paths.size(); ++i) {
    const TrafficPath& path = m_paths[i];
    const TrafficStyle& style = m_desc.style(path.kind);
    const uint32_t n = pathParticles(i);
    if (n == 0) continue;
    Look look = path.kind == TrafficKind::NvLink ? NVLINK_LOOK : FABRIC_LOOK;
    if (m_pathPaused[i]) {
      look = PAUSED_LOOK;
    } else {
      for (const FabricLeg& leg : m_legs)
        if (leg.fromSwitch == i && leg.reducing) look = REDUCED_LOOK;
    }
    const double size = style.size_m;
    const double spacing = path.length_m() / n;
    for (uint32_t k = 0; k < n; ++k) {
      double s = std::fmod(m_phase_m[i] + k * spacing, path.length_m());
      if (path.reverse) s = path.length_m() - s;
      out.push_back(makeInstance(boxTransform(path.at(s), glm::dvec3(size)), eye, look));
    }
  }
  for (const FabricLeg& leg : m_legs) {
    if (leg.flow.paused) {
      // The paused rack's lit lines: its roof edge (seen from over the hall), then its ports.
      out.push_back(makeInstance(boxTransform(leg.roofEdge.center(), leg.roofEdge.size()), eye,
                                 PAUSED_LOOK, &PAUSED_LOOK));
      for (const Aabb& line : leg.portLines)
        out.push_back(
            makeInstance(boxTransform(line.center(), line.size()), eye, PAUSED_LOOK, &PAUSED_LOOK));
    }
    if (leg.reducing) {
      const double pulse =
          1.0 + 0.35 * std::sin(2.0 * glm::pi<double>() * m_time_s / m_desc.reducePulse_s);
      out.push_back(makeInstance(
          boxTransform(leg.switchCentre, glm::dvec3(2.0 * m_desc.fabric.size_m * pulse)), eye,
          REDUCE_MARK));
    }
  }
  if (m_journeys) emitJourneys(*m_journeys, m_desc.journey, m_time_s, eye, out);
}

std::unique_ptr<LiveLayer> TrafficLayer::make(const LayerSources& sources) {
  auto layer = std::make_unique<TrafficLayer>();
  layer->m_traffic = Traffic::build(sources.scene);
  return layer;
}

void TrafficLayer::sync(const LayerSync& sync) {
  m_traffic.setSpeedScale(sync.calm.reducedMotion ? Calm::REDUCED_TRAFFIC_SPEED : 1.0);
  m_traffic.update(sync.snapshot);
}

void TrafficLayer::emit(const LayerFrame& frame, std::vector<gpu::Instance>& out) {
  if (!frame.chipStudio) m_traffic.emit(frame.view.eye, out);
}

std::string fabricLegLabel(const FabricLeg& leg, size_t index) {
  const std::string name = index == 0 ? "to leaf" : "to spine " + std::to_string(index - 1);
  if (leg.down) return name + "  links down";
  if (leg.flow.paused) return name + "  PFC-paused";
  // All of the leg's cables together: Tb/s once it reaches a thousand Gb/s.
  const double rate_bps = leg.flow.rate_Bps * 8.0;
  char text[96];
  if (rate_bps >= 1e12) {
    std::snprintf(text, sizeof text, "  %.3g Tb/s  %.0f %% (derived)", rate_bps * 1e-12,
                  100.0 * leg.flow.load());
  } else {
    std::snprintf(text, sizeof text, "  %.0f Gb/s  %.0f %% (derived)", rate_bps * 1e-9,
                  100.0 * leg.flow.load());
  }
  return name + text;
}

void TrafficLayer::labels(const LayerFrame& frame, std::vector<Label>& out) const {
  const std::vector<FabricLeg>& legs = m_traffic.legs();
  for (size_t i = 0; i < legs.size(); ++i) {
    if (legs[i].rackBounds.empty()) continue;
    const glm::dvec3 anchor = labelPoint(legs[i].rackBounds) - frame.view.eye;
    if (glm::dot(anchor, frame.view.forward) <= 0) continue;
    Label label = makeLabel(anchor, fabricLegLabel(legs[i], i), LabelRank::FABRIC);
    // Light red: still 4.5:1 against the label plate (tests/app/label_legibility_test.cpp).
    if (legs[i].flow.paused || legs[i].down) label.rgba = 0xffaaaaffu;  // IM_COL32(255, 170, 170)
    out.push_back(std::move(label));
  }
}

}  // namespace world
