#include "world/live/tour_events.h"

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "sim/calc/parallelism.h"

namespace world {
namespace {

// Drawing-only sizes (metres): a line reads as a line at the rack station's framing
// (a 2.2 m rack over ~500 px: ~4.5 mm a pixel), and stands clear of the fronts it runs over.
constexpr double LINE_M = 0.012;
constexpr double FRONT_CLEARANCE_M = 0.03;
// A tray's own NVLink lines: 18 of them fan into the trunk across a tray's width, and at the
// ring's 12 mm they would merge into one cyan wedge (a flood, not lines); 5 mm keeps a gap as wide
// as each line or wider, still a pixel at the rack's framing.
constexpr double FAN_LINE_M = 0.005;
// The goodput columns: width and depth of each, the gap between them and from the rack, and
// their full height as a share of the rack's.
constexpr double COLUMN_M = 0.28;
constexpr double COLUMN_GAP_M = 0.12;
constexpr double COLUMN_HEIGHT_SHARE = 0.9;

// The children of the prototype at `path` whose names start with `prefix`, world bounds in
// the order the prototype lists them.
std::vector<Aabb> childBounds(const Scene& scene, const std::string& path,
                              const std::string& prefix) {
  std::vector<Aabb> out;
  const auto resolved = scene.resolve(path);
  if (!resolved) return out;
  for (const ChildInstance& child : scene.prototype(resolved->second).children) {
    if (child.name.rfind(prefix, 0) != 0) continue;
    if (auto bounds = scene.worldBounds(path + "/" + child.name)) out.push_back(*bounds);
  }
  return out;
}

// The horizontal axis the rack at `path` faces (its local +z, where the trays pull out).
glm::dvec3 rackFront(const Scene& scene, const std::string& path) {
  const auto resolved = scene.resolve(path);
  if (!resolved) return {0, 0, 1};
  glm::dvec3 f(resolved->first * glm::dvec4(0, 0, 1, 0));
  f.y = 0;
  return glm::length(f) > 0 ? glm::normalize(f) : glm::dvec3(0, 0, 1);
}

// A box spanning `a` to `b` along one axis (the others `thickness`), as world bounds.
Aabb spanBox(const glm::dvec3& a, const glm::dvec3& b, double thickness) {
  Aabb box;
  box.extend(glm::min(a, b) - glm::dvec3(0.5 * thickness));
  box.extend(glm::max(a, b) + glm::dvec3(0.5 * thickness));
  return box;
}

void pushBox(const Aabb& box, const Look& look, const glm::dvec3& eye,
             std::vector<gpu::Instance>& out) {
  out.push_back(makeInstance(boxTransform(box.center(), box.size()), eye, look));
}

// The ring: how high the loop runs over the rack tops, the return lane above it, and the caps.
constexpr double RING_RISE_M = 0.15;
constexpr double RETURN_RISE_M = 0.3;
constexpr double PULSE_M = 0.22;
constexpr double CAP_M = 0.06;
constexpr Look RING_LINE{0.35f, 0.95f, 1.0f, 0.4f, 0.0f};  // the loop: dim cyan
// The power flows' bands, dimmer than their pulses: warm white power, red heat.
constexpr Look FLOW_POWER{1.0f, 0.85f, 0.5f, 0.35f, 0.0f};
constexpr Look FLOW_HEAT{1.0f, 0.15f, 0.05f, 0.35f, 0.0f};
// The value bars not chosen: a dim cool white beside the chosen one's green.
constexpr Look BAR_OTHER{0.45f, 0.47f, 0.52f, 0.6f, 0.0f};
// The pixel race's screens before they are lit: near black glass.
constexpr Look SCREEN_DARK{0.015f, 0.016f, 0.02f, 0.0f, 0.3f};

// Where a row of things stands behind a hero, seen by a view: the view's horizontal axes snapped
// to the world's (the boxes are axis-aligned), the hero's width across the view, and the middle
// of its far edge (along `away`) at the hero's centre height.
struct BehindHero {
  glm::dvec3 across{1, 0, 0}, away{0, 0, 1};
  double width = 0;
  glm::dvec3 base{0.0};
};
BehindHero behindHero(const Aabb& hero, const glm::dvec3& right, const glm::dvec3& forward) {
  auto snap = [](glm::dvec3 v) {
    return std::abs(v.x) >= std::abs(v.z) ? glm::dvec3(v.x >= 0 ? 1 : -1, 0, 0)
                                          : glm::dvec3(0, 0, v.z >= 0 ? 1 : -1);
  };
  BehindHero b;
  b.across = snap(right), b.away = snap(forward);
  b.width = std::abs(glm::dot(hero.size(), b.across));
  const double far = std::max(glm::dot(hero.min, b.away), glm::dot(hero.max, b.away));
  const glm::dvec3 c = hero.center();
  b.base = c + b.away * (far - glm::dot(c, b.away));
  return b;
}

}  // namespace

AllReduceRing AllReduceRing::build(const RackMap& racks, uint32_t hall, uint32_t row) {
  AllReduceRing ring;
  const auto first = racks.firstRackOfRow(hall, row);
  if (!first) return ring;
  ring.m_firstRack = *first;
  const auto& halls = racks.rowStarts();
  const uint32_t end = halls[hall][row + 1];
  for (uint32_t r = *first; r < end; ++r) ring.m_racks.push_back(racks.rackBounds(r));
  return ring;
}

AllReduceRing::State AllReduceRing::state(const sim::engine::Snapshot& snapshot) const {
  State st;
  const double ring_s =
      std::isfinite(snapshot.dataParallelTime_s) ? snapshot.dataParallelTime_s : MAX_LOOP_S;
  st.loop_s = std::clamp(ring_s * DISPLAY_SLOWDOWN, MIN_LOOP_S, MAX_LOOP_S);
  if (!snapshot.desc || !snapshot.cluster || snapshot.cluster->gpusPerRack == 0) return st;
  for (const sim::engine::FaultDesc& f : snapshot.desc->faults) {
    if (f.kind != sim::engine::FaultKind::Straggler) continue;
    if (snapshot.time_s < f.start_s || snapshot.time_s >= f.end_s) continue;
    const uint32_t rack = f.target / snapshot.cluster->gpusPerRack;
    if (rack >= m_firstRack && rack < m_firstRack + m_racks.size()) {
      st.slow = int32_t(rack - m_firstRack);
      break;
    }
  }
  if (st.slow < 0) return st;
  const sim::engine::StepSplit split = sim::engine::stepSplit(snapshot);
  const double useful_s = split.total_s - split.lost_s;
  if (useful_s > 0) st.wait_s = std::min(2.0 * st.loop_s, st.loop_s * split.lost_s / useful_s);
  return st;
}

bool AllReduceRing::waiting(const State& state, double time_s) {
  if (state.slow < 0 || state.wait_s <= 0) return false;
  const double period = state.loop_s + state.wait_s;
  return std::fmod(std::max(0.0, time_s), period) < state.wait_s;
}

void AllReduceRing::emit(const State& state, double time_s, const glm::dvec3& eye,
                         std::vector<gpu::Instance>& out) const {
  const size_t n = m_racks.size();
  if (n < 2 || !(state.loop_s > 0)) return;
  // The loop runs along the rack tops' edge nearer the eye, clear of the trays over the aisle.
  glm::dvec3 along = m_racks.back().center() - m_racks.front().center();
  along.y = 0;
  along = glm::length(along) > 0 ? glm::normalize(along) : glm::dvec3(1, 0, 0);
  glm::dvec3 across(-along.z, 0, along.x);
  if (glm::dot(across, eye - m_racks.front().center()) < 0) across = -across;
  const double depth = std::abs(glm::dot(m_racks.front().size(), across));
  auto node = [&](size_t i) {
    const Aabb& r = m_racks[i % n];
    return glm::dvec3(r.center().x, r.max.y + RING_RISE_M, r.center().z) + across * (0.4 * depth);
  };
  for (size_t i = 0; i + 1 < n; ++i)
    pushBox(spanBox(node(i), node(i + 1), LINE_M), RING_LINE, eye, out);
  // The ring closes over the row: up at its end, back along a lane above, down at its start.
  const glm::dvec3 lift(0, RETURN_RISE_M, 0);
  pushBox(spanBox(node(n - 1), node(n - 1) + lift, LINE_M), RING_LINE, eye, out);
  pushBox(spanBox(node(n - 1) + lift, node(0) + lift, LINE_M), RING_LINE, eye, out);
  pushBox(spanBox(node(0) + lift, node(0), LINE_M), RING_LINE, eye, out);

  const bool wait = waiting(state, time_s);
  for (size_t i = 0; i < n; ++i) {
    const Aabb& r = m_racks[i];
    const Look& look = int32_t(i) == state.slow ? event_looks::LOST
                       : wait                   ? event_looks::WAITING
                                                : event_looks::COMPUTE;
    Aabb cap;
    cap.extend(glm::dvec3(r.min.x, r.max.y, r.min.z));
    cap.extend(glm::dvec3(r.max.x, r.max.y + CAP_M, r.max.z));
    pushBox(cap, look, eye, out);
  }
  // The pulse leaves the straggler's rack (or the first) once it is done, and goes round the
  // ring hop by hop: n hops, the last one back over the return lane.
  const size_t start = state.slow >= 0 ? size_t(state.slow) : 0;
  const double period = state.loop_s + (state.slow >= 0 ? state.wait_s : 0.0);
  const double t = std::fmod(std::max(0.0, time_s), period) - (period - state.loop_s);
  glm::dvec3 at = node(start);
  if (t > 0) {
    const double hops = t / state.loop_s * double(n);
    const size_t k = size_t(hops);
    const double f = hops - double(k);
    at = glm::mix(node(start + k), node(start + k + 1), f);
    if ((start + k) % n == n - 1) at += lift * std::sin(f * 3.14159265358979);  // over the lane
  }
  Aabb pulse;
  pulse.extend(at - glm::dvec3(0.5 * PULSE_M));
  pulse.extend(at + glm::dvec3(0.5 * PULSE_M));
  pushBox(pulse, event_looks::DATA, eye, out);
}

HbmStream HbmStream::build(const Scene& scene, const std::string& packagePath) {
  HbmStream s;
  const std::vector<Aabb> dies = childBounds(scene, packagePath, "die");
  if (dies.empty()) return s;
  for (const Aabb& d : dies) s.m_die.extend(d);
  s.m_stacks = childBounds(scene, packagePath, "hbm");
  return s;
}

uint32_t HbmStream::lanes(double share) {
  if (!(share > 0)) return 0;
  return std::max<uint32_t>(1, uint32_t(std::lround(std::min(share, 1.0) * MAX_LANES)));
}

void HbmStream::emit(double share, double time_s, const glm::dvec3& eye,
                     std::vector<gpu::Instance>& out) const {
  const uint32_t n = lanes(share);
  if (n == 0 || m_die.empty()) return;
  const double t = std::isfinite(time_s) ? std::max(0.0, time_s) : 0.0;
  for (const Aabb& stack : m_stacks) {
    // From the stack's centre to the die's edge facing it, over the package's top.
    const glm::dvec3 from(stack.center().x, stack.max.y, stack.center().z);
    const glm::dvec3 edge(std::clamp(from.x, m_die.min.x, m_die.max.x), m_die.max.y,
                          std::clamp(from.z, m_die.min.z, m_die.max.z));
    const glm::dvec3 run = edge - from;
    const double length = glm::length(glm::dvec3(run.x, 0, run.z));
    if (length <= 0) continue;
    const glm::dvec3 across = glm::normalize(glm::dvec3(-run.z, 0, run.x));
    const glm::dvec3 size = stack.size();
    const double span = 0.8 * std::min(size.x, size.z);  // the lanes fill the stack's face
    const double particle = std::max(0.08 * span, 0.035 * length);
    for (uint32_t lane = 0; lane < n; ++lane) {
      const double offset = (double(lane) + 0.5) / n - 0.5;
      for (uint32_t k = 0; k < PARTICLES_PER_LANE; ++k) {
        // Lanes start out of step so the stream reads as a flow, not rows of soldiers.
        const double phase = std::fmod(t / PASS_S + (k + 0.37 * lane) / PARTICLES_PER_LANE, 1.0);
        const glm::dvec3 c =
            from + run * phase + across * (offset * span) + glm::dvec3(0, 0.5 * particle, 0);
        Aabb box;
        box.extend(c - glm::dvec3(0.5 * particle));
        box.extend(c + glm::dvec3(0.5 * particle));
        pushBox(box, event_looks::DATA, eye, out);
      }
    }
  }
}

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

StageBands StageBands::build(const Scene& scene, const RackMap& racks, uint32_t hall) {
  StageBands bands;
  const auto& halls = racks.rowStarts();
  if (hall >= halls.size() || halls[hall].empty()) return bands;
  const std::string prefix = "compute_tray";
  for (uint32_t r = halls[hall].front(); r < halls[hall].back(); ++r) {
    const std::string& path = racks.pathOfRack(r);
    const auto resolved = scene.resolve(path);
    if (!resolved) continue;
    Rack rack;
    rack.id = r;
    for (const ChildInstance& child : scene.prototype(resolved->second).children) {
      if (child.name.rfind(prefix, 0) != 0) continue;
      const std::string digits = child.name.substr(prefix.size());
      if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) continue;
      const size_t number = std::stoul(digits);
      const auto bounds = scene.worldBounds(path + "/" + child.name);
      if (!bounds || number >= 256) continue;
      if (rack.trays.size() <= number) rack.trays.resize(number + 1);
      rack.trays[number] = *bounds;
    }
    if (rack.trays.empty()) continue;
    rack.front = rackFront(scene, path);
    // The trays' fronts are flush but for a tray pulled out (the hero rack's): the nearest.
    rack.frontPlane = 1e300;
    for (const Aabb& tray : rack.trays) {
      if (tray.empty()) continue;
      rack.frontPlane = std::min(rack.frontPlane, std::max(glm::dot(tray.min, rack.front),
                                                           glm::dot(tray.max, rack.front)));
    }
    bands.m_racks.push_back(std::move(rack));
  }
  const auto& rows = halls[hall];
  for (uint32_t r = rows.front(); rows.size() > 1 && r < rows[1]; ++r)
    bands.m_firstRow.extend(racks.rackBounds(r));
  if (!bands.m_firstRow.empty()) {
    const glm::dvec3 first = racks.rackBounds(rows.front()).center(), c = bands.m_firstRow.center();
    const glm::dvec3 size = bands.m_firstRow.size();
    bands.m_rowReversed = size.x >= size.z ? first.x > c.x : first.z > c.z;
    if (!bands.m_racks.empty() && bands.m_racks.front().id == rows.front()) {
      bands.m_rowFront = bands.m_racks.front().front;
      bands.m_rowFrontPlane = bands.m_racks.front().frontPlane;
    }
  }
  return bands;
}

std::vector<StageBands::Bar> StageBands::ribbon(const sim::engine::Snapshot& snapshot) const {
  std::vector<Bar> out;
  const sim::engine::TrainingPlan* plan = snapshot.training;
  if (!plan || m_firstRow.empty()) return out;
  const int stages = std::max(1, plan->desc.pp), layers = std::max(1, plan->model.layers);
  const glm::dvec3 size = m_firstRow.size();
  const bool alongX = size.x >= size.z;
  const double length = alongX ? size.x : size.z;
  const double y = m_firstRow.max.y + RIBBON_RISE_M;
  // Across the row: just in front of its trays' fronts (or over its middle without trays).
  const glm::dvec3 centre = m_firstRow.center();
  const double depthAt = m_rowFrontPlane != 0
                             ? m_rowFrontPlane + FRONT_CLEARANCE_M + RIBBON_HEIGHT_M
                             : glm::dot(centre, m_rowFront);
  const glm::dvec3 across = centre + m_rowFront * (depthAt - glm::dot(centre, m_rowFront));
  double at = 0;  // layers laid so far
  for (int s = 0; s < stages; ++s) {
    const int n = sim::calc::stageLayers(layers, stages, s);
    const double a = at / layers * length, b = (at + n) / layers * length;
    const double gap = 0.5 * CUT_SHARE * (b - a);
    at += n;
    if (n <= 0) continue;
    // Stage 0 over the row's first rack.
    const double start = alongX ? m_firstRow.min.x : m_firstRow.min.z;
    const double lo = m_rowReversed ? start + length - b + gap : start + a + gap;
    const double hi = m_rowReversed ? start + length - a - gap : start + b - gap;
    Aabb box;
    const double half = 0.5 * RIBBON_HEIGHT_M;
    box.extend(alongX ? glm::dvec3(lo, y, across.z - half) : glm::dvec3(across.x - half, y, lo));
    box.extend(alongX ? glm::dvec3(hi, y + RIBBON_HEIGHT_M, across.z + half)
                      : glm::dvec3(across.x + half, y + RIBBON_HEIGHT_M, hi));
    out.push_back({box, uint32_t(s)});
  }
  return out;
}

std::vector<StageBands::Bar> StageBands::layout(const sim::engine::Snapshot& snapshot) const {
  std::vector<Bar> out;
  const sim::engine::TrainingPlan* plan = snapshot.training;
  if (!plan || !snapshot.cluster) return out;
  const sim::engine::Cluster& c = *snapshot.cluster;
  const uint32_t perTray = std::max(1u, c.gpusPerTray);
  const uint32_t unit = uint32_t(std::max(1, plan->desc.tp * plan->desc.cp));
  // The TP group of every job GPU (ranks count groups of `unit` GPUs: gpuOfRank).
  std::vector<uint32_t> groupOf(c.gpuCount(), UINT32_MAX);
  for (size_t rank = 0; rank < plan->gpuOfRank.size(); ++rank) {
    const uint32_t g = plan->gpuOfRank[rank];
    if (g < groupOf.size()) groupOf[g] = uint32_t(rank / unit);
  }
  for (const Rack& rack : m_racks) {
    if (rack.id >= c.racks) continue;  // a rack the engine does not model
    const uint32_t first = c.firstGpuOfRack({rack.id}).index;
    // Each tray by its first job GPU; consecutive trays of one group make one bar.
    uint32_t group = UINT32_MAX, stage = 0;
    Aabb span;
    auto flush = [&] {
      if (group == UINT32_MAX) return;
      // A slab just in front of the rack's face, a little shorter than its trays (the gap
      // between bars is the cut between TP groups) and most of the rack's width.
      const double depth0 = rack.frontPlane + FRONT_CLEARANCE_M;
      const glm::dvec3 side = glm::normalize(glm::cross(glm::dvec3(0, 1, 0), rack.front));
      const double s0 = std::min(glm::dot(span.min, side), glm::dot(span.max, side));
      const double s1 = std::max(glm::dot(span.min, side), glm::dot(span.max, side));
      const double inset = 0.1 * (s1 - s0), gap = 0.15 * (span.max.y - span.min.y);
      Aabb bar;
      for (double a : {s0 + inset, s1 - inset})
        for (double y : {span.min.y + 0.5 * gap, span.max.y - 0.5 * gap})
          bar.extend(rack.front * depth0 + side * a + glm::dvec3(0, y, 0));
      bar.extend(rack.front * (depth0 + LINE_M) + side * (s0 + inset) +
                 glm::dvec3(0, span.min.y + 0.5 * gap, 0));
      out.push_back({bar, stage});
      group = UINT32_MAX;
    };
    for (size_t t = 0; t < rack.trays.size(); ++t) {
      uint32_t g = UINT32_MAX, s = 0;
      for (uint32_t k = 0; k < perTray; ++k) {
        const uint32_t gpu = first + uint32_t(t) * perTray + k;
        if (gpu >= c.gpuCount() || plan->stageOfGpu[gpu] == sim::engine::NOT_IN_JOB) continue;
        g = groupOf[gpu], s = plan->stageOfGpu[gpu];
        break;
      }
      if (g != group || rack.trays[t].size().y <= 0) flush();
      if (g == UINT32_MAX || rack.trays[t].size().y <= 0) continue;
      if (group == UINT32_MAX) span = Aabb{};
      group = g, stage = s;
      span.extend(rack.trays[t]);
    }
    flush();
  }
  return out;
}

void StageBands::emit(const std::vector<Bar>& bars, uint32_t stages, const glm::dvec3& eye,
                      std::vector<gpu::Instance>& out) {
  const double last = std::max(1u, stages) - 1;
  for (const Bar& bar : bars) {
    // The overlay's palette at full brightness: its dark purple end would vanish on a black
    // rack, so each hue is lifted until its brightest channel is 1 (the order of hues stays).
    Look look = OverlayTint::lookOf(last > 0 ? bar.stage / last : 0.0);
    const float peak = std::max({look.r, look.g, look.b, 1e-3f});
    look.r /= peak, look.g /= peak, look.b /= peak;
    look.emissive = 1.0f;
    pushBox(bar.box, look, eye, out);
  }
}

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

}  // namespace world
