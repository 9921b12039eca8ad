// Topology calculator: NVLink domains, k-ary fat-trees (Al-Fares et al., SIGCOMM 2008) and
// rail-optimized 2- and 3-tier leaf/spine(/core) fabrics sized from switch radix and endpoint
// count (the pruned 3-tier rule of the NVIDIA DGX SuperPOD reference architectures).
// Bandwidths: _bps is bits/s, _Bps is bytes/s, both decimal, one direction unless named _bidir.
#pragma once

#include <cstdint>

#include "sim/result.h"

namespace sim::calc {

/// Counts of a full k-ary fat-tree (k even): k pods, k^2/2 edge, k^2/2 aggregation, (k/2)^2 core.
struct KAryFatTree {
  uint64_t hosts = 0;
  uint64_t pods = 0;
  uint64_t edgeSwitches = 0;
  uint64_t aggregationSwitches = 0;
  uint64_t coreSwitches = 0;
  uint64_t totalSwitches = 0;
  uint64_t links = 0;  // host-edge + edge-aggregation + aggregation-core
};

/// A k-ary fat-tree for switch radix `k` (even, >= 2).
Result<KAryFatTree> kAryFatTree(uint32_t k);

struct FatTreeDesc {
  uint64_t endpoints = 2048;    // GPUs (one NIC port each)
  uint32_t radix = 64;          // switch ports at the endpoint rate
  uint32_t tiers = 2;           // 2 (leaf/spine) or 3 (leaf/spine/core)
  double portRate_bps = 400e9;  // one port, one direction
  uint32_t rails = 8;           // NICs per node; rail-optimized: one leaf per rail per unit
  bool railOptimized = true;
  double leafOversubscription = 1.0;  // leaf down-ports : up-ports (1 = non-blocking)
};

/// Counts and bandwidths of a leaf/spine(/core) fabric.
struct FatTree {
  uint32_t tiers = 0;
  uint64_t endpoints = 0;
  uint64_t maxEndpoints = 0;  // capacity of this many tiers at this radix and oversubscription
  uint32_t leafDownPorts = 0;
  uint32_t leafUpPorts = 0;
  uint64_t leafSwitches = 0;
  uint64_t spineSwitches = 0;
  uint64_t coreSwitches = 0;
  uint64_t totalSwitches = 0;
  uint64_t endpointLinks = 0;  // NIC to leaf
  uint64_t leafSpineLinks = 0;
  uint64_t spineCoreLinks = 0;
  uint64_t cables = 0;  // one cable per link
  uint64_t switchToSwitchCables = 0;
  uint64_t transceivers = 0;  // optical modules: two per cable (one at each end)
  uint64_t railGroups = 0;    // units of `rails` leaves that a rail-optimized fabric is built from
  double injection_bps = 0;   // all endpoints, one direction
  double bisection_bps = 0;   // worst-case bisection, one direction
  double oversubscription = 0;  // endpoint injection : bisection x 2 (1 = non-blocking)
};

/// Sizes a rail-optimized (or plain) 2- or 3-tier fabric. 2-tier: ceil(N/d) leaves with d
/// down-ports, spines from the leaf up-ports; 3-tier (pruned, SuperPOD rule): leaf = spine = 2N/k,
/// core = N/k for a non-blocking fabric. Errors when the endpoints exceed the tiers' capacity.
Result<FatTree> fatTree(const FatTreeDesc& desc);

/// The smallest tier count (2 or 3) whose fabric holds `endpoints` at radix `radix`.
uint32_t tiersNeeded(uint64_t endpoints, uint32_t radix, double leafOversubscription = 1.0);

struct NvlinkDomainDesc {
  uint32_t gpus = 72;
  uint32_t linksPerGpu = 18;
  uint32_t switchChips = 18;
  uint32_t portsPerSwitch = 72;
  double linkPerDirection_Bps = 50e9;  // NVLink 5: 50 GB/s per link per direction
};

/// An NVLink domain: GPU and switch link counts and aggregate bandwidth.
struct NvlinkDomain {
  uint64_t gpuLinks = 0;     // GPUs x links per GPU
  uint64_t switchPorts = 0;  // switch chips x ports
  bool consistent = false;   // every GPU link lands on a switch port, none left over
  double perGpuBidirectional_Bps = 0;
  double aggregateBidirectional_Bps = 0;  // GPUs x per-GPU bidirectional (vendors' "130 TB/s")
  double bisectionPerDirection_Bps = 0;   // half the GPUs sending to the other half, full rate
};

/// An NVLink domain's counts and bandwidth.
NvlinkDomain nvlinkDomain(const NvlinkDomainDesc& desc);

}  // namespace sim::calc
