#include "world/live/events/ring.h"

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace world {

using namespace event_geometry;

namespace {

// The ring: how high the loop runs over the rack tops, the return lane above it, and the caps.
constexpr double RING_RISE_M = 0.15;
constexpr double RETURN_RISE_M = 0.3;
constexpr double PULSE_M = 0.22;
constexpr double CAP_M = 0.06;
constexpr Look RING_LINE{0.35f, 0.95f, 1.0f, 0.4f, 0.0f};  // the loop: dim cyan
constexpr Look BARRIER{1.0f, 1.0f, 1.0f, 1.0f, 0.0f};      // the line every GPU waits at
constexpr double BARRIER_M = 2 * LINE_M;                   // its width
// The straggler's bar is at least this tall (a tray is 44 mm, a few pixels at the row's
// framing): one GPU's tray must stand out among a rack of waiting ones.
constexpr double STRAGGLER_BAR_M = 0.3;

}  // namespace

AllReduceRing AllReduceRing::build(const Scene& scene, const RackMap& racks, uint32_t hall,
                                   uint32_t row) {
  AllReduceRing ring;
  const auto first = racks.firstRackOfRow(hall, row);
  if (!first) return ring;
  ring.m_firstRack = *first;
  const auto& halls = racks.rowStarts();
  const uint32_t end = halls[hall][row + 1];
  for (uint32_t r = *first; r < end; ++r) {
    ring.m_racks.push_back(racks.rackBounds(r));
    ring.m_faces.push_back(rackFace(scene, racks.pathOfRack(r)));
  }
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
      const uint32_t perTray = std::max(1u, snapshot.cluster->gpusPerTray);
      st.slowTray = int32_t(f.target % snapshot.cluster->gpusPerRack / perTray);
      break;
    }
  }
  if (st.slow < 0) return st;
  const sim::engine::StepSplit split = sim::engine::stepSplit(snapshot);
  const double useful_s = split.total_s - split.lost_s;
  if (useful_s > 0) st.wait_s = std::min(2.0 * st.loop_s, st.loop_s * split.lost_s / useful_s);
  if (split.total_s > 0) st.usefulShare = std::clamp(useful_s / split.total_s, 0.0, 1.0);
  return st;
}

bool AllReduceRing::waiting(const State& state, double time_s) {
  if (state.slow < 0 || state.wait_s <= 0) return false;
  const double period = state.loop_s + state.wait_s;
  return std::fmod(std::max(0.0, time_s), period) < state.wait_s;
}

double AllReduceRing::stragglerDone(const State& state, double time_s) {
  if (!waiting(state, time_s)) return 1.0;
  const double phase = std::fmod(std::max(0.0, time_s), state.loop_s + state.wait_s);
  return state.usefulShare + (1 - state.usefulShare) * phase / state.wait_s;
}

Aabb AllReduceRing::trayBar(size_t node, size_t tray) const {
  const RackFace& face = m_faces[node];
  if (tray >= face.trays.size() || face.trays[tray].empty()) return {};
  return frontSlab(face, face.trays[tray]);
}

Aabb AllReduceRing::stragglerBar(const State& state) const {
  if (state.slow < 0 || state.slowTray < 0) return {};
  Aabb bar = trayBar(size_t(state.slow), size_t(state.slowTray));
  if (bar.empty()) return bar;
  const double grow = std::max(0.0, 0.5 * (STRAGGLER_BAR_M - bar.size().y));
  bar.min.y -= grow, bar.max.y += grow;
  // Just in front of its neighbours' bars.
  const glm::dvec3 ahead = m_faces[size_t(state.slow)].front * LINE_M;
  bar.min += ahead, bar.max += ahead;
  return bar;
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
  // The fronts: the straggler's tray red, filled as far as its work is done (the rest of its
  // bar dark); while the ring waits, every other tray amber and whole, up to the barrier.
  const double done = stragglerDone(state, time_s);
  for (size_t i = 0; i < n; ++i) {
    const RackFace& face = m_faces[i];
    Aabb slow;  // the straggler's bar, whole
    if (int32_t(i) == state.slow) slow = stragglerBar(state);
    if (!slow.empty()) {
      Aabb lit = slow;
      const double length = std::abs(glm::dot(slow.size(), face.side()));
      const glm::dvec3 cut = face.side() * ((1 - done) * length);
      (glm::dot(face.side(), glm::dvec3(1)) > 0 ? lit.max : lit.min) -= cut;
      pushBox(lit, event_looks::LOST, eye, out);
    }
    if (!wait) continue;
    Aabb bars;
    for (size_t t = 0; t < face.trays.size(); ++t) {
      const Aabb bar = trayBar(i, t);
      if (bar.empty() || (!slow.empty() && bar.max.y > slow.min.y && bar.min.y < slow.max.y))
        continue;
      pushBox(bar, event_looks::WAITING, eye, out);
      bars.extend(bar);
    }
    if (bars.empty()) continue;
    // The barrier: a white line down the bars' far end.
    const glm::dvec3 side = face.side();
    const double end = std::max(glm::dot(bars.min, side), glm::dot(bars.max, side));
    const double depth = face.frontPlane + FRONT_CLEARANCE_M + LINE_M;
    const glm::dvec3 low = face.front * depth + side * end + glm::dvec3(0, bars.min.y, 0);
    pushBox(spanBox(low, low + glm::dvec3(0, bars.size().y, 0), BARRIER_M), BARRIER, eye, out);
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

std::unique_ptr<LiveLayer> RingLayer::make(const LayerSources& sources) {
  auto layer = std::make_unique<RingLayer>();
  layer->m_ring = AllReduceRing::build(sources.scene, sources.racks);
  return layer;
}

}  // namespace world
