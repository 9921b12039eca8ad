// What the world draws of the simulated cluster: the system's form (an NVL72 rack, or 8-GPU HGX
// chassis in 48U cabinets), its GPU package, and the counts of the fabric and cooling the
// engine models (sim::engine::Cluster). One source for the counts: the builders take every count
// from here, and here takes them from the engine; a test holds the scene to the engine.
#pragma once

#include <string>

#include <glm/glm.hpp>

#include "sim/engine/cluster.h"
#include "sim/result.h"
#include "world/builders/dimensions.h"

namespace world {

enum class SystemForm {
  Nvl72Rack,   // GB200 NVL72: one rack is one NVLink domain
  HgxChassis,  // DGX/HGX 8-GPU: one chassis is one NVLink domain, several to a cabinet
};
enum class GpuPackage { B200, H100 };

/// The engine's fabric and cooling as the halls draw them. Zero everywhere: the catalog's
/// defaults (dimensions network_rack.switches, HallDesc::spineRacks), for worlds built without
/// an engine (the station and golden tests).
struct FabricCounts {
  int leavesPerRow = 0;  // leaf switches the NICs of one full row land on
  int rails = 0;         // leaves per rail group (the rails of a row's leaf rack)
  int spines = 0;        // of the modelled fabric, all in hall 0
  int cores = 0;
  int modelledRacks = 0;  // NVLink domains the engine models link by link (the rest mirror them)
  int cdusPerRow = 1;     // the engine's CDUs over one full row's racks
  bool operator==(const FabricCounts&) const = default;
};

struct SystemLayout {
  SystemForm form = SystemForm::Nvl72Rack;
  std::string systemId = "gb200_nvl72";  // catalog systems.<id>; dimensions.<id> for a chassis
  std::string systemName = "GB200 NVL72";
  std::string gpuName = "B200";
  GpuPackage package = GpuPackage::B200;
  int gpusPerDomain = 72;
  int nvswitchChips = 18;     // per NVLink domain
  int domainsPerCabinet = 1;  // NVLink domains in one physical rack
  FabricCounts fabric;

  bool chassis() const { return form == SystemForm::HgxChassis; }
  /// Two clusters with equal layouts (and campus racks) draw the same world.
  bool operator==(const SystemLayout&) const = default;
};

/// The layout of the engine's cluster: form and package from its system and GPU, the fabric's
/// counts from its switches and NIC cables, CDUs from its rack-to-CDU map, for rows of
/// `cabinetsPerRow` cabinets. Fails naming the system when the catalog has no dimensions for it.
sim::Result<SystemLayout> layoutOf(const sim::engine::Cluster& cluster, const Dimensions& dims,
                                   int cabinetsPerRow);

/// Width, depth and height (metres) of one physical rack of the layout.
glm::dvec3 cabinetSize_m(const Dimensions& dims, const SystemLayout& layout);
/// NVLink domains in one full row: cabinets (dimensions row.racks_per_su) x domains each.
int domainsPerRow(const Dimensions& dims, const SystemLayout& layout);

}  // namespace world
