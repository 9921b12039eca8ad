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

std::unique_ptr<LiveLayer> RingLayer::make(const LayerSources& sources) {
  auto layer = std::make_unique<RingLayer>();
  layer->m_ring = AllReduceRing::build(sources.racks);
  return layer;
}

}  // namespace world
