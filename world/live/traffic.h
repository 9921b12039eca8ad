// Traffic drawn in place: glowing particles moving along the hero rack's copper NVLink spine
// (the TP all-reduces of the pipeline phase) and along its fabric route, split per switch hop:
// one leg up from the rack to the row's cable tray and along it into the leaf rack, and one leg
// from the leaf rack to each spine rack and back. Density and speed are proportional to the bytes
// per second the engine moves on each leg's own cables now. A PFC-paused switch stops its leg and
// turns it red, and its rack's switches light a thin line over their ports (and one along the
// roof's front edge), light and never a flood, so a storm is seen spreading hop by hop; a leg
// whose cables are all down carries nothing while the others carry the rerouted load; with
// in-network reduction (SHARP) the DP all-reduce converges into each spine switch and half as
// dense a stream leaves it. Inside the hero compute tray, the GPUDirect RDMA and TCP journeys
// (world/live/journeys.h). Pure logic: the app feeds the engine, the world adds the boxes to the
// render list.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/engine/snapshot.h"
#include "world/live/journeys.h"
#include "world/live/layer.h"
#include "world/scene/render_list.h"
#include "world/scene/scene.h"

namespace world {

/// The traffic's meaning colours (linear, emitted). They stay apart from each other and from the
/// compute green under simulated protanopia, deuteranopia and tritanopia (tests/world/
/// palette_test.cpp): the pause is a crimson-magenta, not the pure red a deuteranope confuses
/// with the green and the amber.
namespace traffic_looks {
inline constexpr Look NVLINK{0.35f, 0.95f, 1.0f, 1.0f, 0.0f};  // cyan over the copper
inline constexpr Look FABRIC{1.0f, 0.78f, 0.25f, 1.0f, 0.0f};  // amber
inline constexpr Look PAUSED{1.0f, 0.0f, 0.3f, 1.0f, 0.0f};    // PFC pause, standing still
}  // namespace traffic_looks

enum class TrafficKind : uint8_t { NvLink, Fabric };

/// A route in world metres, walked by arc length.
struct TrafficPath {
  TrafficKind kind = TrafficKind::NvLink;
  std::vector<glm::dvec3> points;
  std::vector<double> along_m;  // arc length at each point (starts at 0)
  bool reverse = false;         // particles run from the last point to the first

  double length_m() const { return along_m.empty() ? 0.0 : along_m.back(); }
  /// The point `s_m` metres along the path (clamped to its ends).
  glm::dvec3 at(double s_m) const;
};

/// What the hero rack moves on one kind of link (or on one fabric leg's cables) now.
struct TrafficFlow {
  double rate_Bps = 0;      // bytes per second, all of the links counted
  double capacity_Bps = 0;  // the same links' capacity, one direction each
  bool paused = false;      // a switch the links land on is PFC-paused (fabric only)

  /// rate / capacity in 0..1.
  double load() const;
};

inline constexpr size_t NO_PATH = size_t(-1);

/// One switch hop of the hero rack's fabric route: leg 0 runs from the rack into the row's leaf
/// rack (the rack's NIC cables, landing on its rail leaves); leg 1 + i from the leaf rack into
/// spine rack i and back (the rail leaves' uplinks to the spines that rack holds: the hero pod's
/// spines in equal consecutive shares). Switch and link ids are the engine's, refreshed by every
/// update.
struct FabricLeg {
  std::string rackPath;            // scene instance of the switch rack the leg enters
  Aabb rackBounds;                 // its world bounds
  glm::dvec3 switchCentre{0.0};    // in front of the middle of its switch stack
  std::vector<Aabb> portLines;     // per switch of the rack: the line over its ports, lit paused
  Aabb roofEdge;                   // the line along the roof's front edge, lit while paused
  size_t toSwitch = NO_PATH;       // path index: towards the switch rack
  size_t fromSwitch = NO_PATH;     // path index: back out of it (spine legs)
  std::vector<uint32_t> switches;  // SwitchId indices of the leg's switches
  std::vector<uint32_t> links;     // LinkId indices of its cables
  TrafficFlow flow;       // the engine's rate over those cables; paused = one of its switches is
  bool down = false;      // every cable of the leg is down: it carries nothing
  bool reducing = false;  // SHARP: the DP all-reduce is reduced inside the leg's spine switches
  double shownLoad = 0;   // what the particles show (0..1), see Traffic::update
};

/// How one kind of traffic looks. Density and speed are proportional to the load up to their
/// caps (so that a full link reads as a dense fast stream, not a solid bar).
struct TrafficStyle {
  double particlesPerMetreAtFull = 0;  // per metre of path at 100 % load
  double maxParticlesPerMetre = 0;
  double speedAtFull_mps = 0;
  double maxSpeed_mps = 0;
  double size_m = 0;  // particle edge
};

struct TrafficDesc {
  // NVLink runs at a few per cent of its capacity on average (TP bursts): scaled so that this
  // shows, on paths two metres long.
  TrafficStyle nvlink{200.0, 40.0, 20.0, 3.0, 0.02};
  // The fabric route is tens of metres long and fills up during the DP all-reduce.
  TrafficStyle fabric{16.0, 8.0, 8.0, 4.0, 0.06};
  // The RDMA and TCP journeys inside the hero compute tray.
  JourneyStyle journey;
  double reducePulse_s = 0.5;  // period of the SHARP marker's pulse (simulated time)
  const TrafficStyle& style(TrafficKind kind) const {
    return kind == TrafficKind::NvLink ? nvlink : fabric;
  }
};

/// Particles on a path of `length_m` at `load` (0..1): proportional to the load, capped, rounded.
uint32_t particleCount(double length_m, double load, const TrafficStyle& style);
/// Their speed at `load`: proportional to it, capped.
double particleSpeed_mps(double load, const TrafficStyle& style);

class Traffic {
 public:
  /// The paths of the hero rack (hall0/row0/rack0): two per NVLink spine cartridge (one up,
  /// one down), then the fabric legs' paths (leg 0 to the row's leaf rack; per spine
  /// rack, one from the leaf rack to the front of its switch stack and one back, side by side),
  /// and the tray journeys of the hero compute tray. None of a kind when the scene lacks it.
  static Traffic build(const Scene& scene, TrafficDesc desc = {});

  /// Reads the hero rack's rates from `engine` and moves the particles by the simulated time
  /// since the last update (at most 0.1 s, so scrubbing does not smear; a restarted engine
  /// starts over). NVLink: the engine's byte counter over that time (on a first look, since the
  /// engine started), shared over its racks. Fabric, per leg: its cables' utilisation x capacity;
  /// paused when one of its switches is; down when none of its cables is up. The engine idles
  /// every link while any switch is paused, but a pause reaches a switch only hop by hop: until
  /// it does, a leg shows the load the engine routes on it in the phase the storm stalled (the
  /// frames in flight).
  /// SHARP: the switch spec reduces in the network and the job is in its DP all-reduce.
  void update(const sim::engine::Snapshot& snapshot);
  /// Particles move at this share of their speed (reduced motion: world/live/calm.h).
  void setSpeedScale(double scale) { m_speedScale = scale; }

  /// Appends the boxes, positioned relative to `eye`: the particles path by path in path order,
  /// then per leg the lit lines of a paused switch rack (its roof edge, then one over each
  /// switch's ports) and a pulsing marker
  /// in front of a reducing spine's switches, then the tray journeys.
  void emit(const glm::dvec3& eye, std::vector<gpu::Instance>& out) const;

  /// The hero rack's totals: NVLink, and fabric over its NIC cables (paused: a leg is).
  const TrafficFlow& flow(TrafficKind kind) const { return m_flows[size_t(kind)]; }
  const std::vector<TrafficPath>& paths() const { return m_paths; }
  const std::vector<FabricLeg>& legs() const { return m_legs; }
  /// The journeys in the hero compute tray, or nullptr when the scene lacks its parts.
  const TrayJourneys* journeys() const { return m_journeys ? &*m_journeys : nullptr; }
  const TrafficDesc& desc() const { return m_desc; }
  /// Particles drawn on path `index` now.
  uint32_t pathParticles(size_t index) const;
  /// Whether path `index` is drawn red and still (its switch is PFC-paused).
  bool pathPaused(size_t index) const { return m_pathPaused[index] != 0; }
  /// How far path `index`'s particle train has moved (metres, modulo its length).
  double pathPhase_m(size_t index) const { return m_phase_m[index]; }
  /// Boxes emit() adds now (particles, markers and the journeys).
  uint32_t particles() const;

 private:
  double m_speedScale = 1.0;
  TrafficDesc m_desc;
  std::vector<TrafficPath> m_paths;
  std::vector<double> m_phase_m;      // per path: how far the particle train has moved
  std::vector<double> m_pathLoad;     // per path: the load its particles show
  std::vector<uint8_t> m_pathPaused;  // per path
  std::vector<FabricLeg> m_legs;
  std::vector<uint32_t> m_spines;  // scratch of mapLegs: the spines the hero leaves reach
  std::optional<TrayJourneys> m_journeys;
  TrafficFlow m_flows[2];
  double m_time_s = 0;  // the engine's clock at the last update (journeys, pulse)
  double m_lastTime_s = -1;
  double m_lastNvlinkBytes = 0;

  void mapLegs(const sim::engine::Cluster& cluster);
};

/// "to spine 2  412 Gb/s  38 % (derived)", "to leaf  16.4 Tb/s  57 % (derived)", "to leaf
/// PFC-paused": the label of fabric leg `index` (0: the leg into the leaf rack).
std::string fabricLegLabel(const FabricLeg& leg, size_t index);

/// The traffic as a layer: drawn at the rack's scale (in a chip's studio its particles would be
/// slabs larger than the hero, sweeping across the frame), each fabric leg's load over the switch
/// rack it enters.
class TrafficLayer : public LiveLayer {
 public:
  static std::unique_ptr<LiveLayer> make(const LayerSources& sources);
  void sync(const LayerSync& sync) override;
  void emit(const LayerFrame& frame, std::vector<gpu::Instance>& out) override;
  void labels(const LayerFrame& frame, std::vector<Label>& out) const override;
  Traffic& traffic() { return m_traffic; }
  const Traffic& traffic() const { return m_traffic; }

 private:
  Traffic m_traffic;
};

}  // namespace world
