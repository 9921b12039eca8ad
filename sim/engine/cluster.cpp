#include "sim/engine/cluster.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/calc/power.h"

namespace sim::engine {

Result<ClusterSpecs> loadClusterSpecs(const Catalog& catalog, const ClusterDesc& desc) {
  using R = Result<ClusterSpecs>;
  ClusterSpecs s;
  auto system = loadSystem(catalog, desc.systemId);
  if (!system) return R::failure(system.error());
  s.system = *system;
  auto gpu = loadGpu(catalog, s.system.gpuId);
  if (!gpu) return R::failure(gpu.error());
  s.gpu = *gpu;
  auto sw = loadSwitch(catalog, desc.switchId);
  if (!sw) return R::failure(sw.error());
  s.fabricSwitch = *sw;
  auto nic = loadInterconnect(catalog, desc.nicId.empty() ? s.system.scaleOutNicId : desc.nicId);
  if (!nic) return R::failure(nic.error());
  s.nic = *nic;
  if (std::string error =
          fabricPartsError(s.fabricSwitch, "cluster.switch", s.nic, "cluster.scale_out_nic");
      !error.empty()) {
    return R::failure(error);
  }
  auto facility = loadFacility(catalog, desc.facilityProfile);
  if (!facility) return R::failure(facility.error());
  s.facility = *facility;
  return s;
}

Result<Cluster> buildCluster(const ClusterSpecs& specs, const ClusterDesc& desc, double racksPerCdu,
                             double rackPower_W) {
  using R = Result<Cluster>;
  Cluster c;
  c.specs = specs;
  c.railOptimized = desc.railOptimized;
  const SystemSpec& sys = specs.system;
  c.gpusPerRack =
      static_cast<uint32_t>(sys.scaleUpDomainGpus > 0 ? sys.scaleUpDomainGpus : sys.gpus);
  if (c.gpusPerRack == 0) return R::failure("cluster: system " + sys.id + " has no GPUs");
  c.gpusPerTray = sys.computeTrays > 0 ? c.gpusPerRack / static_cast<uint32_t>(sys.computeTrays)
                                       : c.gpusPerRack;
  if (c.gpusPerTray == 0) c.gpusPerTray = 1;
  if (desc.fabricGpus == 0) return R::failure("cluster.fabricGpus must be > 0");
  c.racks = (desc.fabricGpus + c.gpusPerRack - 1) / c.gpusPerRack;
  const uint64_t endpoints = uint64_t{c.racks} * c.gpusPerRack;
  if (endpoints > 4'000'000) return R::failure("cluster.fabricGpus is too large to model");

  const uint32_t radix = static_cast<uint32_t>(specs.fabricSwitch.radix);
  const uint32_t tiers = calc::tiersNeeded(endpoints, radix);
  // Leaf down-ports at radix/2 (non-blocking); the rail group is the fewest leaves that tile
  // whole racks: rails divides the rack's GPUs and rails x down-ports is whole racks.
  const uint32_t down = radix / 2;
  c.rails = desc.rails;
  if (c.rails == 0) {
    for (uint32_t r = 1; r <= c.gpusPerRack; ++r)
      if (c.gpusPerRack % r == 0 && (uint64_t{r} * down) % c.gpusPerRack == 0) {
        c.rails = r;
        break;
      }
  }
  if (c.rails == 0 || c.gpusPerRack % c.rails != 0 ||
      (uint64_t{c.rails} * down) % c.gpusPerRack != 0)
    return R::failure("cluster.rails: " + std::to_string(desc.rails) + " does not tile racks of " +
                      std::to_string(c.gpusPerRack) + " GPUs on leaves of " + std::to_string(down) +
                      " down-ports");
  c.racksPerRailGroup = c.rails * down / c.gpusPerRack;

  auto fabric = calc::fatTree({.endpoints = endpoints,
                               .radix = radix,
                               .tiers = tiers,
                               .portRate_bps = specs.fabricSwitch.portRate_bps,
                               .rails = c.rails,
                               .railOptimized = desc.railOptimized});
  if (!fabric) return R::failure("cluster: " + fabric.error());
  c.fabric = *fabric;
  c.leaves = static_cast<uint32_t>(c.fabric.leafSwitches);
  c.spines = static_cast<uint32_t>(c.fabric.spineSwitches);
  c.cores = static_cast<uint32_t>(c.fabric.coreSwitches);
  const uint32_t up = c.fabric.leafUpPorts;
  const uint32_t half = radix / 2;
  c.pods = tiers == 3 ? (c.leaves + half - 1) / half : 1;

  // Switches.
  c.switches.reserve(size_t{c.leaves} + c.spines + c.cores);
  for (uint32_t l = 0; l < c.leaves; ++l)
    c.switches.push_back({SwitchTier::Leaf, tiers == 3 ? l / half : 0, l});
  for (uint32_t s = 0; s < c.spines; ++s)
    c.switches.push_back({SwitchTier::Spine, tiers == 3 ? s / up : 0, s});
  for (uint32_t k = 0; k < c.cores; ++k) c.switches.push_back({SwitchTier::Core, 0, k});
  const uint32_t spine0 = c.leaves, core0 = c.leaves + c.spines;

  // GPUs and their NIC cables.
  const double nicRate_Bps =
      std::min(specs.nic.linkPerDirection_Bps, specs.fabricSwitch.portRate_bps / 8.0);
  const double portRate_Bps = specs.fabricSwitch.portRate_bps / 8.0;
  c.gpus.resize(endpoints);
  c.gpuLeaf.resize(endpoints);
  c.gpuLink.resize(endpoints);
  c.links.reserve(endpoints + c.fabric.leafSpineLinks + c.fabric.spineCoreLinks);
  for (uint32_t g = 0; g < endpoints; ++g) {
    const uint32_t rack = g / c.gpusPerRack, local = g % c.gpusPerRack;
    c.gpus[g] = {RackId{rack}, static_cast<uint16_t>(local / c.gpusPerTray),
                 static_cast<uint16_t>(local % c.gpusPerTray), static_cast<uint16_t>(local)};
    const uint32_t leaf =
        desc.railOptimized ? (rack / c.racksPerRailGroup) * c.rails + local % c.rails : g / down;
    c.gpuLeaf[g] = leaf;
    c.gpuLink[g] = static_cast<uint32_t>(c.links.size());
    c.links.push_back({LinkTier::Endpoint, g, leaf, nicRate_Bps});
  }
  // Leaf uplinks: 3-tier to the pod's spines (one each), 2-tier spread over all spines.
  c.leafUplinks.resize(size_t{c.leaves} * up);
  for (uint32_t l = 0; l < c.leaves; ++l)
    for (uint32_t j = 0; j < up; ++j) {
      const uint32_t spine = tiers == 3 ? (l / half) * up + j : (l * up + j) % c.spines;
      c.leafUplinks[size_t{l} * up + j] = static_cast<uint32_t>(c.links.size());
      c.links.push_back({LinkTier::LeafSpine, l, spine0 + spine, portRate_Bps});
    }
  // Spine uplinks (3-tier): uplink m = spine x half + j lands on core m mod cores, so every core
  // reaches every pod (the pod's half^2 uplinks outnumber the cores when pods <= radix).
  if (tiers == 3) {
    c.spineUplinks.resize(size_t{c.spines} * half);
    for (uint32_t s = 0; s < c.spines; ++s)
      for (uint32_t j = 0; j < half; ++j) {
        const uint64_t m = uint64_t{s} * half + j;
        c.spineUplinks[m] = static_cast<uint32_t>(c.links.size());
        c.links.push_back({LinkTier::SpineCore, spine0 + s,
                           core0 + static_cast<uint32_t>(m % c.cores), portRate_Bps});
      }
    // CSR of core -> pod -> links.
    std::vector<uint32_t> count(size_t{c.cores} * c.pods + 1, 0);
    for (uint32_t lk : c.spineUplinks) {
      const Link& L = c.links[lk];
      ++count[size_t{L.upper - core0} * c.pods + c.switches[L.lower].pod];
    }
    c.corePodStart.assign(size_t{c.cores} * c.pods + 1, 0);
    for (size_t i = 0; i + 1 < c.corePodStart.size(); ++i)
      c.corePodStart[i + 1] = c.corePodStart[i] + count[i];
    c.corePodLinks.resize(c.spineUplinks.size());
    std::vector<uint32_t> fill(c.corePodStart.begin(), c.corePodStart.end() - 1);
    for (uint32_t lk : c.spineUplinks) {
      const Link& L = c.links[lk];
      c.corePodLinks[fill[size_t{L.upper - core0} * c.pods + c.switches[L.lower].pod]++] = lk;
    }
  }

  // CDUs.
  const uint32_t perCdu = static_cast<uint32_t>(std::max(1.0, std::floor(racksPerCdu)));
  c.racksPerCdu = perCdu;
  c.cdus = (c.racks + perCdu - 1) / perCdu;
  c.rackCdu.resize(c.racks);
  for (uint32_t r = 0; r < c.racks; ++r) c.rackCdu[r] = r / perCdu;

  // Campus: racks the facility budget holds through the PUE (at least the modelled ones).
  c.facilityBudget_W =
      desc.facilityPower_W > 0 ? desc.facilityPower_W : specs.facility.powerBudget_W;
  c.rackMaxPower_W = rackPower_W;
  const double fit = calc::racksWithinBudget(c.facilityBudget_W, rackPower_W, specs.facility.pue);
  c.campusRacks = std::max(c.racks, static_cast<uint32_t>(std::max(0.0, fit)));
  c.mirroredRacks = c.campusRacks - c.racks;
  return c;
}

}  // namespace sim::engine
