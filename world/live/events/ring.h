// Chapter 6's tour event: the ring AllReduce over the hero row, everyone waiting at the slowest.
// Pure geometry over the scene and its live layer (world/live/layer.h); time is the frame's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/engine/snapshot.h"
#include "world/live/events/event_geometry.h"
#include "world/live/layer.h"

namespace world {

/// Chapter 6: the data-parallel ring AllReduce as a loop of light over the racks of the hero row.
/// A pulse goes round it rack by rack, a loop as long as the engine's DP collective (slowed for
/// the eye); with a straggler its rack glows red and the pulse waits there as long as the step
/// loses to it, while every other rack waits in amber. On the racks' fronts the straggler's own
/// tray is a red bar and, while the ring waits, every other tray an amber one standing at the
/// barrier (a white line at the end of each rack's bars) that the straggler's bar is still filling
/// up to: its work done of the step, the useful time to the whole.
class AllReduceRing {
 public:
  // A simulated second of the ring shown over this many seconds, within [MIN_LOOP_S, MAX_LOOP_S].
  static constexpr double DISPLAY_SLOWDOWN = 4.0;
  static constexpr double MIN_LOOP_S = 2.0, MAX_LOOP_S = 12.0;

  /// The ring over the racks of row `row` of hall `hall` (none when there is no such row).
  static AllReduceRing build(const Scene& scene, const RackMap& racks, uint32_t hall = 0,
                             uint32_t row = 0);

  struct State {
    double loop_s = 0;       // display seconds the pulse takes round the ring
    double wait_s = 0;       // display seconds it waits at the straggler each loop
    int32_t slow = -1;       // ring node of the straggler's rack; -1: none in the row
    int32_t slowTray = -1;   // the straggler GPU's compute tray in its rack (0: the top)
    double usefulShare = 1;  // of the step, the time every GPU but the straggler works
  };
  /// The ring's pace from `snapshot`: the loop from its DP collective time, the straggler (a
  /// straggler fault active now on a GPU of one of the ring's racks) and the wait, the loop times
  /// the step's lost share over its useful one (sim::engine::stepSplit).
  State state(const sim::engine::Snapshot& snapshot) const;
  /// Whether the pulse is waiting at the straggler at `time_s` (display seconds).
  static bool waiting(const State& state, double time_s);
  /// How much of its step's work the straggler has done at `time_s` (0..1): the useful share
  /// when the others reach the barrier, rising to 1 as the wait ends; 1 outside the wait.
  static double stragglerDone(const State& state, double time_s);

  size_t nodes() const { return m_racks.size(); }
  const Aabb& nodeBounds(size_t i) const { return m_racks[i]; }
  /// Where the bar of tray `tray` of ring node `node` stands on its front (empty: no such tray).
  Aabb trayBar(size_t node, size_t tray) const;
  /// The straggler's bar, whole: its tray's, taller and just in front (empty: no straggler);
  /// it lights from the left as far as stragglerDone.
  Aabb stragglerBar(const State& state) const;
  /// The loop, a cap on every rack (red: the straggler; amber: waiting for it) and the pulse.
  void emit(const State& state, double time_s, const glm::dvec3& eye,
            std::vector<gpu::Instance>& out) const;

 private:
  std::vector<Aabb> m_racks;                      // world, in RackId order
  std::vector<event_geometry::RackFace> m_faces;  // their compute trays' fronts
  uint32_t m_firstRack = 0;
};

/// The ring as a layer: its pace and straggler from each sync, the pulse on the events' clock.
class RingLayer : public LiveLayer {
 public:
  static std::unique_ptr<LiveLayer> make(const LayerSources& sources);
  void sync(const LayerSync& sync) override { m_state = m_ring.state(sync.snapshot); }
  void emit(const LayerFrame& frame, std::vector<gpu::Instance>& out) override {
    m_ring.emit(m_state, frame.inputs.eventTime_s, frame.view.eye, out);
  }
  const AllReduceRing& ring() const { return m_ring; }
  const AllReduceRing::State& state() const { return m_state; }

 private:
  AllReduceRing m_ring;
  AllReduceRing::State m_state;  // of the last sync
};

}  // namespace world
