// Traffic drawn in place: glowing particles moving along the hero rack's copper NVLink spine
// (the TP all-reduces of the pipeline phase) and along its fabric route — up from the rack to the
// row's cable tray, along it to the leaf rack, on to each spine rack (the DP all-reduce). Their
// density and their speed are proportional to the bytes per second the engine moves on those links
// now; a PFC-paused leaf stops the fabric particles and turns them red. Pure logic: the app feeds
// the engine, the world adds the particles to the render list.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/engine/engine.h"
#include "world/render_list.h"
#include "world/scene.h"

namespace world {

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

/// What the hero rack moves on one kind of link now.
struct TrafficFlow {
  double rate_Bps = 0;      // bytes per second, all of the rack's links of this kind
  double capacity_Bps = 0;  // the same links' capacity, one direction each
  bool paused = false;      // a leaf of the rack is PFC-paused (fabric only)

  /// rate / capacity in 0..1.
  double load() const;
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
  /// The paths of the hero rack (hall0/row0/rack0): one per copper NVLink cable bundle (up and
  /// down alternately), the fabric route to the row's leaf rack, and one from there to each
  /// spine rack. None when the scene lacks them.
  static Traffic build(const Scene& scene, TrafficDesc desc = {});

  /// Reads the hero rack's rates from `engine` (NVLink: the engine's byte counter over the
  /// simulated time since the last update — on the first update, or after a restart, since the
  /// engine started — shared over its racks; fabric: the load of the rack's
  /// NIC cables; paused: any of their leaves) and moves the particles by that simulated time
  /// (at most 0.1 s, so scrubbing does not smear). A restarted engine resets the counter.
  void update(const sim::engine::Engine& engine);

  /// Appends one instance of `box` per particle, positioned relative to `eye`.
  void emit(const glm::dvec3& eye, std::vector<gpu::Instance>& out) const;

  const TrafficFlow& flow(TrafficKind kind) const { return m_flows[size_t(kind)]; }
  const std::vector<TrafficPath>& paths() const { return m_paths; }
  /// Particles emit() adds now.
  uint32_t particles() const;

 private:
  TrafficDesc m_desc;
  std::vector<TrafficPath> m_paths;
  std::vector<double> m_phase_m;  // per path: how far the particle train has moved
  TrafficFlow m_flows[2];
  double m_lastTime_s = -1;
  double m_lastNvlinkBytes = 0;
};

}  // namespace world
