// Two journeys of the same bytes from the hero GPU to its NIC, drawn inside the open hero compute
// tray: GPUDirect RDMA (the NIC reads GPU memory through the PCIe switch: one hop, no copy) and
// the classic TCP path (GPU memory -> a pinned buffer in the Grace LPDDR -> the application's
// buffer -> the kernel's socket buffer -> the NIC's send queue: four copies, each a stop where the
// particles wait). Pure geometry over the scene's tray parts, found by the names the tray builder
// gives them; time is the caller's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "world/scene/render_list.h"
#include "world/scene/scene.h"

namespace world {

enum class JourneyKind : uint8_t { Rdma, Tcp };

/// A place on a journey where the data is copied from one buffer into the next.
struct CopyStop {
  std::string what;  // "pinned host buffer (Grace LPDDR5X)" ...
  double along_m = 0;
};

/// One route through the tray, walked by arc length, with its copy stops in order.
struct Journey {
  JourneyKind kind = JourneyKind::Rdma;
  std::vector<glm::dvec3> points;
  std::vector<double> along_m;   // arc length at each point (starts at 0)
  std::vector<CopyStop> stops;   // copies: particles wait here
  std::vector<CopyStop> passes;  // switches passed without a copy (RDMA's PCIe switch)

  double length_m() const { return along_m.empty() ? 0.0 : along_m.back(); }
  /// The point `s_m` metres along the route (clamped to its ends).
  glm::dvec3 at(double s_m) const;
};

/// How the journeys move: particles travel at one speed on both and wait at every copy stop.
struct JourneyStyle {
  double speed_mps = 0.08;     // tray-scale, slow enough to follow by eye
  double copyDwell_s = 0.6;    // the wait at each copy stop
  double launchEvery_s = 0.3;  // one particle leaves the GPU this often
  double size_m = 0.004;
};

/// Both journeys and the parts they join (world bounds).
struct TrayJourneys {
  Journey rdma;
  Journey tcp;
  Aabb gpu;   // the hero GPU package
  Aabb nic;   // the ConnectX-7 cage nearest to it
  Aabb host;  // the hero superchip's Grace package (its LPDDR5X beside it)
};

/// Builds the two journeys in the hero compute tray `trayPath` of `scene` from its hero GPU
/// ("superchip0_gpu0"), its Grace ("superchip0_grace" with its "LPDDR5X n" parts), the
/// "motherboard" and the nearest "ConnectX-7 400G OSFP n"; nullopt when a part is missing.
std::optional<TrayJourneys> buildTrayJourneys(const Scene& scene, const std::string& trayPath);

/// Seconds one particle takes from the GPU to the NIC: travel plus every copy stop's wait.
double journeyDuration_s(const Journey& journey, const JourneyStyle& style);
/// How far along the route a particle is `t_s` seconds after it left the GPU (it waits
/// `copyDwell_s` at each stop; clamped to the route's end).
double journeyAlong_m(const Journey& journey, const JourneyStyle& style, double t_s);
/// Particles on a journey at once.
uint32_t journeyParticles(const Journey& journey, const JourneyStyle& style);

/// Appends both journeys at clock `time_s` (particles, and a dim box at every copy stop),
/// positioned relative to `eye`.
void emitJourneys(const TrayJourneys& journeys, const JourneyStyle& style, double time_s,
                  const glm::dvec3& eye, std::vector<gpu::Instance>& out);
/// Boxes emitJourneys adds.
uint32_t journeyInstances(const TrayJourneys& journeys, const JourneyStyle& style);

}  // namespace world
