#include "sim/calc/topology.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace sim::calc {
namespace {

uint64_t ceilDiv(uint64_t a, uint64_t b) {
  return (a + b - 1) / b;
}

// Leaf ports split into down (to endpoints) and up (to spines) for a down:up ratio.
void splitLeafPorts(uint32_t radix, double oversubscription, uint32_t& down, uint32_t& up) {
  down = static_cast<uint32_t>(std::floor(radix * oversubscription / (1.0 + oversubscription)));
  if (down >= radix) down = radix - 1;
  if (down == 0) down = 1;
  up = radix - down;
}

uint64_t capacity(uint32_t tiers, uint32_t radix, uint32_t down) {
  // 2-tier: a spine reaches `radix` leaves. 3-tier: a core reaches `radix` pods of radix/2 leaves.
  if (tiers == 2) return uint64_t{radix} * down;
  return uint64_t{radix} * (radix / 2) * down;
}

}  // namespace

Result<KAryFatTree> kAryFatTree(uint32_t k) {
  if (k < 2 || k % 2 != 0)
    return Result<KAryFatTree>::failure("k-ary fat-tree: k must be even and >= 2, got " +
                                        std::to_string(k));
  const uint64_t kk = k;
  KAryFatTree t;
  t.pods = kk;
  t.hosts = kk * kk * kk / 4;
  t.edgeSwitches = kk * kk / 2;
  t.aggregationSwitches = kk * kk / 2;
  t.coreSwitches = (kk / 2) * (kk / 2);
  t.totalSwitches = t.edgeSwitches + t.aggregationSwitches + t.coreSwitches;
  // Every edge switch has k/2 hosts and k/2 uplinks; every aggregation switch k/2 uplinks.
  t.links = t.hosts + t.edgeSwitches * (kk / 2) + t.aggregationSwitches * (kk / 2);
  return t;
}

uint32_t tiersNeeded(uint64_t endpoints, uint32_t radix, double leafOversubscription) {
  uint32_t down = 0, up = 0;
  splitLeafPorts(radix, leafOversubscription, down, up);
  return endpoints <= capacity(2, radix, down) ? 2 : 3;
}

Result<FatTree> fatTree(const FatTreeDesc& desc) {
  using R = Result<FatTree>;
  if (desc.radix < 4 || desc.radix % 2 != 0)
    return R::failure("fat-tree: radix must be even and >= 4, got " + std::to_string(desc.radix));
  if (desc.tiers != 2 && desc.tiers != 3)
    return R::failure("fat-tree: tiers must be 2 or 3, got " + std::to_string(desc.tiers));
  if (desc.endpoints == 0) return R::failure("fat-tree: endpoints must be > 0");
  if (desc.rails == 0) return R::failure("fat-tree: rails must be > 0");
  if (!(desc.leafOversubscription >= 1.0) || !std::isfinite(desc.leafOversubscription))
    return R::failure("fat-tree: leaf oversubscription must be >= 1");
  if (!(desc.portRate_bps > 0)) return R::failure("fat-tree: port rate must be > 0");

  FatTree t;
  t.tiers = desc.tiers;
  t.endpoints = desc.endpoints;
  splitLeafPorts(desc.radix, desc.leafOversubscription, t.leafDownPorts, t.leafUpPorts);
  t.maxEndpoints = capacity(desc.tiers, desc.radix, t.leafDownPorts);
  if (desc.endpoints > t.maxEndpoints)
    return R::failure("fat-tree: " + std::to_string(desc.endpoints) + " endpoints exceed the " +
                      std::to_string(t.maxEndpoints) + " a " + std::to_string(desc.tiers) +
                      "-tier fabric of radix " + std::to_string(desc.radix) + " holds");

  t.leafSwitches = ceilDiv(desc.endpoints, t.leafDownPorts);
  // A rail-optimized fabric is built from groups of `rails` leaves (one per rail).
  if (desc.railOptimized) t.leafSwitches = ceilDiv(t.leafSwitches, desc.rails) * desc.rails;
  t.railGroups = ceilDiv(t.leafSwitches, desc.rails);
  t.endpointLinks = desc.endpoints;
  t.leafSpineLinks = t.leafSwitches * t.leafUpPorts;

  const uint64_t half = desc.radix / 2;
  if (desc.tiers == 2) {
    t.spineSwitches = ceilDiv(t.leafSpineLinks, desc.radix);
  } else {
    // Pods of radix/2 leaves under leafUpPorts spines; each spine has radix/2 links up.
    const uint64_t pods = ceilDiv(t.leafSwitches, half);
    t.spineSwitches = pods * t.leafUpPorts;
    t.spineCoreLinks = t.spineSwitches * half;
    t.coreSwitches = ceilDiv(t.spineCoreLinks, desc.radix);
  }
  t.totalSwitches = t.leafSwitches + t.spineSwitches + t.coreSwitches;
  t.switchToSwitchCables = t.leafSpineLinks + t.spineCoreLinks;
  t.cables = t.endpointLinks + t.switchToSwitchCables;
  t.transceivers = 2 * t.cables;

  t.injection_bps = static_cast<double>(desc.endpoints) * desc.portRate_bps;
  // Half the endpoints send to the other half; the leaf up-ports cap what leaves the leaf.
  const double upRatio = std::min(1.0, static_cast<double>(t.leafUpPorts) / t.leafDownPorts);
  t.bisection_bps = 0.5 * t.injection_bps * upRatio;
  t.oversubscription = t.injection_bps / (2.0 * t.bisection_bps);
  return t;
}

NvlinkDomain nvlinkDomain(const NvlinkDomainDesc& desc) {
  NvlinkDomain d;
  d.gpuLinks = uint64_t{desc.gpus} * desc.linksPerGpu;
  d.switchPorts = uint64_t{desc.switchChips} * desc.portsPerSwitch;
  d.consistent = d.gpuLinks == d.switchPorts;
  d.perGpuBidirectional_Bps = 2.0 * desc.linksPerGpu * desc.linkPerDirection_Bps;
  d.aggregateBidirectional_Bps = desc.gpus * d.perGpuBidirectional_Bps;
  d.bisectionPerDirection_Bps = 0.5 * desc.gpus * desc.linksPerGpu * desc.linkPerDirection_Bps;
  return d;
}

}  // namespace sim::calc
