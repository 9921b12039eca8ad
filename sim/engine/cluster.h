// The cluster the engine simulates: racks (one NVLink domain each) of trays and GPU slots, the
// link-by-link scale-out fabric (leaf, spine, core, sized by sim::calc::fatTree), CDUs, and the
// rest of the campus as racks that mirror the modelled fabric's average rack. Cold, descriptive
// data: built once, read by the hot per-step code and by the world (ids -> geometry).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/calc/topology.h"
#include "sim/engine/engine_desc.h"
#include "sim/engine/ids.h"
#include "sim/result.h"
#include "sim/specs.h"

namespace sim::engine {

enum class SwitchTier : uint8_t { Leaf, Spine, Core };
enum class LinkTier : uint8_t { Endpoint, LeafSpine, SpineCore };

/// Where a GPU sits: rack, compute tray in the rack, slot in the tray.
struct GpuPlace {
  RackId rack;
  uint16_t tray;
  uint16_t slot;
  uint16_t local;  // index inside the rack (= tray x GPUs per tray + slot)
};

struct Switch {
  SwitchTier tier;
  uint32_t pod;       // 3-tier: pod of a leaf or spine; 0 otherwise (and for cores)
  uint32_t position;  // index inside its tier (and pod)
};

/// A cable. Traffic is directional: "up" runs from `lower` towards `upper`.
struct Link {
  LinkTier tier;
  uint32_t lower;       // GPU index (Endpoint) or switch index
  uint32_t upper;       // switch index
  double capacity_Bps;  // one direction
};

/// Hardware of the cluster, from the catalog.
struct ClusterSpecs {
  GpuSpec gpu;
  SystemSpec system;
  SwitchSpec fabricSwitch;
  InterconnectSpec nic;
  FacilitySpec facility;
};

struct Cluster {
  ClusterSpecs specs;
  calc::FatTree fabric;      // the calculator's counts for the modelled fabric
  uint32_t gpusPerRack = 0;  // one NVLink domain
  uint32_t gpusPerTray = 0;
  uint32_t rails = 0;  // leaves per rail group (rail-optimized)
  uint32_t racksPerRailGroup = 0;
  bool railOptimized = true;

  std::vector<GpuPlace> gpus;     // by GpuId
  std::vector<uint32_t> gpuLeaf;  // switch index of the leaf the GPU's NIC lands on
  std::vector<uint32_t> gpuLink;  // LinkId index of the GPU's NIC cable
  std::vector<uint32_t> rackCdu;  // by RackId
  uint32_t racks = 0;
  uint32_t cdus = 0;
  uint32_t racksPerCdu = 1;  // the engine figure, whole racks

  std::vector<Switch> switches;  // leaves, then spines, then cores
  uint32_t leaves = 0, spines = 0, cores = 0;
  uint32_t pods = 0;
  std::vector<Link> links;             // endpoint links, then leaf-spine, then spine-core
  std::vector<uint32_t> leafUplinks;   // [leaf x leafUpPorts + j] -> LinkId index
  std::vector<uint32_t> spineUplinks;  // [spine x radix/2 + j] -> LinkId index (3-tier)
  std::vector<uint32_t> corePodStart;  // CSR: links of core c into pod p at
  std::vector<uint32_t> corePodLinks;  //   corePodLinks[corePodStart[c*pods+p] .. [+1])

  // The campus: racks within the facility budget; the ones beyond the modelled fabric mirror
  // its average rack (identical racks aggregated, as the issue permits).
  double facilityBudget_W = 0;
  double rackMaxPower_W = 0;
  uint32_t campusRacks = 0;
  uint32_t mirroredRacks = 0;

  uint32_t gpuCount() const { return static_cast<uint32_t>(gpus.size()); }
  uint32_t linkCount() const { return static_cast<uint32_t>(links.size()); }
  uint32_t switchCount() const { return static_cast<uint32_t>(switches.size()); }
  /// First GpuId of a rack; the rack's GPUs are consecutive.
  GpuId firstGpuOfRack(RackId rack) const { return {rack.index * gpusPerRack}; }
  /// The leaf a GPU's NIC rail lands on.
  SwitchId leafOf(GpuId gpu) const { return {gpuLeaf[gpu.index]}; }
  /// The GPU's NIC cable.
  LinkId nicLinkOf(GpuId gpu) const { return {gpuLink[gpu.index]}; }
  /// GPUs in the whole campus (modelled + mirrored racks).
  double campusGpus() const { return double(campusRacks) * gpusPerRack; }
};

/// Loads the hardware named by `desc` from the catalog.
Result<ClusterSpecs> loadClusterSpecs(const Catalog& catalog, const ClusterDesc& desc);
/// Builds racks, fabric and CDUs; `racksPerCdu` from the engine figures.
Result<Cluster> buildCluster(const ClusterSpecs& specs, const ClusterDesc& desc, double racksPerCdu,
                             double rackPower_W);

}  // namespace sim::engine
