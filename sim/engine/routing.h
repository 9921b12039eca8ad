// Flows over the fabric with ECMP: at each tier a flow hashes (seeded) onto one of the live
// uplinks whose path still reaches the destination. A GPU whose NIC cable is down sends through a
// neighbour in its NVLink domain (NCCL's PXN), so its bytes cross NVLink first. Loads are
// directional: index 2 x link for "up" (towards the core), 2 x link + 1 for "down".
#pragma once

#include <cstdint>
#include <vector>

#include "sim/engine/cluster.h"

namespace sim::engine {

struct Flow {
  uint32_t src;  // GPU index
  uint32_t dst;  // GPU index
  double bytes;
};

/// What routing a set of flows produced.
struct RouteTotals {
  double injected_bytes = 0;   // bytes that entered the fabric at a NIC
  double delivered_bytes = 0;  // bytes that left the fabric at a NIC
  double nvlink_bytes = 0;     // bytes moved over NVLink instead (same rack, or PXN detours)
  uint32_t unroutable = 0;     // flows with no live path
};

class Router {
 public:
  Router() = default;
  /// Each flow is split evenly over `subflows` independently hashed sub-flows (NCCL channels).
  Router(const Cluster* cluster, uint64_t seed, uint32_t subflows);
  /// Points at `cluster` (a copy of the one it was made for: Engine::clone).
  void rebind(const Cluster* cluster) { m_cluster = cluster; }

  /// Marks a cable up or down.
  void setLinkUp(LinkId link, bool up);
  /// Whether a cable is up.
  bool linkUp(LinkId link) const { return m_up[link.index] != 0; }
  /// Up (1) or down (0) by LinkId.
  const std::vector<uint8_t>& linkStates() const { return m_up; }
  /// The GPU whose NIC carries `gpu`'s traffic: itself, or the nearest rack neighbour (PXN).
  uint32_t nicGpuFor(uint32_t gpu) const;
  /// Adds every flow's bytes to `load` (2 x links entries, directional); no allocation.
  RouteTotals route(const std::vector<Flow>& flows, uint64_t salt, std::vector<double>& load) const;

 private:
  uint64_t hash(uint64_t flow, uint64_t salt, uint64_t hop) const;
  uint32_t spineOfLeafUplink(uint32_t leaf, uint32_t j) const;
  /// A live link from `spine` (switch index) down to `leaf`, or INVALID_INDEX.
  uint32_t spineToLeaf(uint32_t spine, uint32_t leaf, uint64_t h) const;
  bool routeOne(uint32_t src, uint32_t dst, double bytes, uint64_t h,
                std::vector<double>& load) const;

  const Cluster* m_cluster = nullptr;
  uint64_t m_seed = 0;
  uint32_t m_subflows = 1;
  std::vector<uint8_t> m_up;  // by LinkId
};

/// Seconds a set of loads takes when every link runs at capacity: max(load / capacity).
double busiestLinkTime_s(const Cluster& cluster, const std::vector<double>& load);

}  // namespace sim::engine
