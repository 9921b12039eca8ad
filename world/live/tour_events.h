// The tour's visual events that are not a part's own light (issue 21): chapter 6's ring
// AllReduce over the racks of the hero row (everyone waiting at the slowest), chapter 8's NVLink
// domain, lit tray by tray from one DGX's 8 GPUs to the whole rack, and the finale's goodput
// columns beside the hero rack (the real step split by where its time goes, and the ghost of the
// same step at peak FLOPs). All are driven by the engine (the ring's pace from its DP collective,
// the domain's size from its cluster, the split from sim::engine::stepSplit); pure geometry over
// the scene, time is the caller's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/engine/snapshot.h"
#include "world/live/overlays.h"
#include "world/scene/render_list.h"
#include "world/scene/scene.h"

namespace world {

namespace event_looks {
// Emitted meaning colours (visual_brief.md), linear RGB.
inline constexpr Look COMPUTE{0.1812f, 0.4851f, 0.0f, 1.0f, 0.0f};   // NVIDIA green #76B900
inline constexpr Look DATA{0.35f, 0.95f, 1.0f, 1.0f, 0.0f};          // cyan, data in flight
inline constexpr Look WAITING{1.0f, 0.45f, 0.02f, 0.9f, 0.0f};       // amber: the bubble
inline constexpr Look HOUSEKEEPING{0.35f, 0.36f, 0.4f, 0.5f, 0.0f};  // grey: the optimizer
inline constexpr Look LOST{1.0f, 0.03f, 0.02f, 1.0f, 0.0f};          // red: faults, stragglers
inline constexpr Look POWER{1.0f, 0.85f, 0.5f, 1.0f, 0.0f};          // warm white: power flowing
inline constexpr Look GHOST{0.12f, 0.13f, 0.16f, 0.35f, 0.0f};       // the peak: pale, dim
}  // namespace event_looks

/// Chapter 6: the data-parallel ring AllReduce as a loop of light over the racks of the hero row.
/// A pulse goes round it rack by rack, a loop as long as the engine's DP collective (slowed for
/// the eye); with a straggler its rack glows red and the pulse waits there as long as the step
/// loses to it, while every other rack waits in amber.
class AllReduceRing {
 public:
  // A simulated second of the ring shown over this many seconds, within [MIN_LOOP_S, MAX_LOOP_S].
  static constexpr double DISPLAY_SLOWDOWN = 4.0;
  static constexpr double MIN_LOOP_S = 2.0, MAX_LOOP_S = 12.0;

  /// The ring over the racks of row `row` of hall `hall` (none when there is no such row).
  static AllReduceRing build(const RackMap& racks, uint32_t hall = 0, uint32_t row = 0);

  struct State {
    double loop_s = 0;  // display seconds the pulse takes round the ring
    double wait_s = 0;  // display seconds it waits at the straggler each loop
    int32_t slow = -1;  // ring node of the straggler's rack; -1: none in the row
  };
  /// The ring's pace from `snapshot`: the loop from its DP collective time, the straggler (a
  /// straggler fault active now on a GPU of one of the ring's racks) and the wait, the loop times
  /// the step's lost share over its useful one (sim::engine::stepSplit).
  State state(const sim::engine::Snapshot& snapshot) const;
  /// Whether the pulse is waiting at the straggler at `time_s` (display seconds).
  static bool waiting(const State& state, double time_s);

  size_t nodes() const { return m_racks.size(); }
  const Aabb& nodeBounds(size_t i) const { return m_racks[i]; }
  /// The loop, a cap on every rack (red: the straggler; amber: waiting for it) and the pulse.
  void emit(const State& state, double time_s, const glm::dvec3& eye,
            std::vector<gpu::Instance>& out) const;

 private:
  std::vector<Aabb> m_racks;  // world, in RackId order
  uint32_t m_firstRack = 0;
};

/// Chapter 2: the HBM "firehose": particles streaming from every HBM stack of a package into its
/// die, as many lanes and particles as the share of the HBM bandwidth the GPU streams.
class HbmStream {
 public:
  static constexpr uint32_t MAX_LANES = 5;  // per stack, at the full bandwidth
  static constexpr uint32_t PARTICLES_PER_LANE = 6;
  static constexpr double PASS_S = 1.2;  // seconds a particle takes from the stack to the die

  /// The stacks ("hbmN") and die ("die0") of the package at `packagePath`.
  static HbmStream build(const Scene& scene, const std::string& packagePath);
  /// Lanes per stack at HBM share `share` (0..1): none at 0, MAX_LANES at 1.
  static uint32_t lanes(double share);
  size_t stacks() const { return m_stacks.size(); }
  void emit(double share, double time_s, const glm::dvec3& eye,
            std::vector<gpu::Instance>& out) const;

 private:
  std::vector<Aabb> m_stacks;  // world
  Aabb m_die;
};

/// Chapter 10: power flowing from the substation along a trunk on the halls' substation side (the
/// feeders' route, never through the generator yards behind them), into each
/// hall as wide as its IT power, and the same heat leaving each hall for its cooling yard. The
/// trunk narrows as each hall takes its share; pulses run along every flow.
class PowerFlow {
 public:
  static constexpr double WIDTH_M_PER_MW = 1.0;  // a 6 MW hall's feed 6 m wide
  static constexpr double MIN_WIDTH_M = 1.0, MAX_WIDTH_M = 40.0;
  static constexpr double PULSE_SPEED_MPS = 40.0;
  static constexpr double PULSE_SPACING_M = 30.0;
  static constexpr double HEAT_LIFT_M = 0.1;  // heat bands above power bands where they cross

  /// The flows of the campus in `scene`: its "substation", "hallN" and "coolingN" (nothing when
  /// the campus has no substation or no hall); `racks` gives each hall's racks.
  static PowerFlow build(const Scene& scene, const RackMap& racks);

  struct Flow {
    Aabb box;            // world: the lit band on the ground
    double power_W = 0;  // what it carries
    bool heat = false;   // heat leaving for the coolers (else power arriving)
    int32_t hall = -1;   // the hall it feeds or cools; -1: a trunk segment
  };
  /// The flows for the halls' IT power `hallPower_W` (by hall), trunk segments first.
  std::vector<Flow> layout(const std::vector<double>& hallPower_W) const;
  /// The bands and their pulses at `time_s`, relative to `eye`.
  void emit(const std::vector<double>& hallPower_W, double time_s, const glm::dvec3& eye,
            std::vector<gpu::Instance>& out) const;
  /// Each hall's IT power over the last step (sim::engine::rackRangePower_W over its racks, the
  /// step mean: what a meter on the feed reads, not the swing between compute and collective).
  std::vector<double> hallPower_W(const sim::engine::Snapshot& snapshot) const;
  /// The band width for `power_W`.
  static double width_m(double power_W);

 private:
  Aabb m_substation;
  std::vector<Aabb> m_halls, m_coolers;                // world, by hall (coolers may be empty)
  std::vector<std::pair<uint32_t, uint32_t>> m_racks;  // each hall's [first, end) RackId
};

/// Chapter 8: NVLink lines from each compute tray of the hero rack to its switch trays, on the
/// rack's front. The lit domain grows from one DGX's 8 GPUs to the rack's NVLink domain.
class NvlinkDomain {
 public:
  static constexpr uint32_t START_GPUS = 8;  // a DGX H100's domain
  static constexpr double GROW_S = 6.0;      // seconds from 8 GPUs to the whole domain

  /// Finds the compute trays ("compute_trayN") and switch trays ("switch_trayN") of the rack at
  /// `rackPath`; none (nothing drawn) when the rack has no switch trays (an 8-GPU system).
  static NvlinkDomain build(const Scene& scene, const std::string& rackPath);

  /// GPUs lit `time_s` after the step began: START_GPUS, growing linearly to `domainGpus` over
  /// GROW_S, in whole trays of `gpusPerTray` (at least one tray, at most the domain).
  static uint32_t litGpus(double time_s, uint32_t domainGpus, uint32_t gpusPerTray);

  size_t trays() const { return m_trays.size(); }
  /// A line per lit tray (top down) from the tray to the switch trays, a bar across each lit
  /// tray's front and across the switch trays, relative to `eye`.
  void emit(uint32_t litTrays, const glm::dvec3& eye, std::vector<gpu::Instance>& out) const;

 private:
  std::vector<Aabb> m_trays;  // world, top down
  Aabb m_switches;            // all switch trays together (world)
  glm::dvec3 m_front{0, 0, 1};
  glm::dvec3 m_side{1, 0, 0};
  double m_frontPlane = 0;  // along m_front: the trays' fronts (the hero tray's pulled out)
};

/// Chapter 9: 3D parallelism on the hall's racks. Every compute tray of a training job's racks
/// wears a light bar on the rack's front in the colour of the pipeline stage its GPUs run (the
/// overlay's palette, stage 0 to the last); trays of one TP group (inside the NVLink domain) join
/// into one bar, so each bar is a TP group and the stages stand as bands across the hall's racks.
class StageBands {
 public:
  /// The compute trays ("compute_trayN", N = 0 at the top) of every rack of hall `hall`; none
  /// when its racks have no compute trays (an 8-GPU system's chassis).
  static StageBands build(const Scene& scene, const RackMap& racks, uint32_t hall = 0);

  struct Bar {
    Aabb box;  // world: on the rack's front
    uint32_t stage = 0;
  };
  /// The bars of `snapshot`'s training job: one per TP group of each rack (its trays top down);
  /// none for a service.
  std::vector<Bar> layout(const sim::engine::Snapshot& snapshot) const;
  /// The model itself as a ribbon along the top of the hall's first row's fronts, cut into its
  /// pipeline stages: one
  /// piece per stage, as long as its share of the layers (sim::calc::stageLayers), in the
  /// stage's colour, a gap at every cut. None for a service.
  std::vector<Bar> ribbon(const sim::engine::Snapshot& snapshot) const;
  /// The bars in their stages' colours out of `stages`.
  static void emit(const std::vector<Bar>& bars, uint32_t stages, const glm::dvec3& eye,
                   std::vector<gpu::Instance>& out);
  size_t racks() const { return m_racks.size(); }
  static constexpr double RIBBON_RISE_M = 0.12;  // above the row's tops, along its front
  static constexpr double RIBBON_HEIGHT_M = 0.2;
  static constexpr double CUT_SHARE = 0.3;  // of a piece's length: the gap at each cut

 private:
  struct Rack {
    uint32_t id = 0;          // RackId index
    std::vector<Aabb> trays;  // world, by tray number
    glm::dvec3 front{0, 0, 1};
    double frontPlane = 0;  // along `front`: the trays' fronts
  };
  std::vector<Rack> m_racks;
  Aabb m_firstRow;             // world: the racks of the hall's first row
  bool m_rowReversed = false;  // its first rack at the bounds' high end (the ribbon starts there)
  glm::dvec3 m_rowFront{0, 0, 1};  // the way its trays face
  double m_rowFrontPlane = 0;      // along m_rowFront: its trays' fronts (0: no trays)
};

/// Chapter 5: a chapter panel's answer as floating bars behind the station's hero (the TCO's
/// dollars per million tokens of each accelerator compared), one per value, heights in
/// proportion, the chosen one lit in the compute green and the rest dim. Pure layout over the
/// hero's bounds; the values are the panel's (FrameDesc::valueBars).
struct ValueBar {
  std::string label;  // what it is and its value, as the panel shows it ("H100  $0.87")
  double value = 0;   // >= 0, in one unit across the bars
  bool chosen = false;
};
class ValueBars {
 public:
  static constexpr double WIDTH_SHARE = 0.1;    // of the hero's width, each bar
  static constexpr double HEIGHT_SHARE = 0.35;  // the tallest, of the hero's width
  static constexpr double GAP_SHARE = 0.05;     // between bars, of the hero's width
  /// The bars' boxes in the order given: a row along `right` (the view's, horizontal) centred
  /// on the hero and standing on its far edge (along `forward`), the largest value
  /// HEIGHT_SHARE of the hero's width tall.
  static std::vector<Aabb> layout(const Aabb& hero, const glm::dvec3& right,
                                  const glm::dvec3& forward, const std::vector<ValueBar>& bars);
  static void emit(const std::vector<Aabb>& boxes, const std::vector<ValueBar>& bars,
                   const glm::dvec3& eye, std::vector<gpu::Instance>& out);
};

/// Chapter 1's 4K pixel race and chapter 2's CUDA cores against a tensor core, in the picture:
/// two screens stand behind the station's hero, each lighting its share of one piece of work at
/// its side's real relative rate (the chapter panel's figures). A side's work is split among its
/// lanes, every lane painting its band at once; the bands are drawn in proportion to the lanes
/// (the side with more MAX_BANDS, the other as many fewer), and a side that works in tiles (a
/// tensor core's matrix tile per instruction) lights in `stamps` equal steps, not smoothly. The
/// race stops when the faster side is done: the slower side shows how far it got meanwhile.
struct RaceLane {
  double frame_s = 0;   // the side's time for the whole piece of work
  double lanes = 0;     // its parallel units (FP32 lanes, cores, tensor cores)
  uint32_t stamps = 0;  // 0: lit smoothly; else in this many equal steps per band
  std::string label;    // shown above its screen in engineer mode
};
struct PixelRaceDesc {
  RaceLane left, right;
};
class PixelRace {
 public:
  // The race runs until the faster side has done its work (CYCLE_S), holds that photo finish
  // (HOLD_S: the slower side as far as it got, its share the rates' ratio), and starts again.
  static constexpr double CYCLE_S = 4.0;
  static constexpr double HOLD_S = 3.0;
  static constexpr double KEY_S = CYCLE_S + 0.5 * HOLD_S;  // a key frame's moment: the finish
  static constexpr uint32_t MAX_BANDS = 96;
  static constexpr uint32_t FEW_LANES = 16;     // a side with this few shows each lane as a band
  static constexpr double SCREEN_SHARE = 0.34;  // each screen's width, of the hero's width
  static constexpr double GAP_SHARE = 0.06;     // between the screens, of the hero's width

  struct Shares {
    double left = 0, right = 0;  // of its work each side has lit, 0..1
  };
  /// `time_s` display seconds into the race (it repeats every CYCLE_S + HOLD_S).
  static Shares shares(const PixelRaceDesc& race, double time_s);
  /// Bands drawn for each side: its lanes when FEW_LANES or fewer; else the side with more lanes
  /// MAX_BANDS and the other in proportion (>= 1).
  static std::pair<uint32_t, uint32_t> bands(const PixelRaceDesc& race);

  struct Screens {
    Aabb left, right;  // world: each screen's face (16:9), standing on the hero's far edge
    glm::dvec3 across{1, 0, 0};
  };
  static Screens layout(const Aabb& hero, const glm::dvec3& right, const glm::dvec3& forward);
  /// The screens, and on each its lanes' bands lit from the left as far as its share.
  static void emit(const Screens& screens, const PixelRaceDesc& race, double time_s,
                   const glm::dvec3& eye, std::vector<gpu::Instance>& out);
};

/// The finale: two columns beside the hero rack. The real step, split bottom up into compute
/// (green), communication (cyan), bubble (amber), optimizer (grey) and time lost to faults
/// (red), each as tall as its share; beside it the ghost: the same step at peak FLOPs.
class GoodputColumns {
 public:
  /// Stands the columns on the floor beside the rack at `rackPath`.
  static GoodputColumns build(const Scene& scene, const std::string& rackPath);

  struct Segment {
    Aabb box;  // world
    Look look;
    double seconds = 0;
  };
  /// The ghost first, then the real step's segments bottom up (those of zero time left out), on
  /// the side of the rack that `right` (the view's right, world) points to.
  std::vector<Segment> layout(const sim::engine::StepSplit& split, const glm::dvec3& right) const;
  void emit(const sim::engine::StepSplit& split, const glm::dvec3& right, const glm::dvec3& eye,
            std::vector<gpu::Instance>& out) const;

 private:
  Aabb m_rack;  // world
};

}  // namespace world
