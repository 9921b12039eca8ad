#include "world/builders/system_layout.h"

#include <algorithm>
#include <set>

namespace world {

sim::Result<SystemLayout> layoutOf(const sim::engine::Cluster& c, const Dimensions& dims,
                                   int cabinetsPerRow) {
  using R = sim::Result<SystemLayout>;
  const sim::SystemSpec& sys = c.specs.system;
  SystemLayout l;
  l.systemId = sys.id;
  l.systemName = sys.name;
  l.gpuName = c.specs.gpu.name;
  l.gpusPerDomain = int(c.gpusPerRack);
  l.nvswitchChips = sys.scaleUpSwitchChips;
  const bool rackScale = sys.computeTrays > 0 && sys.switchTrays > 0;
  if (rackScale) {
    if (sys.id != "gb200_nvl72") return R::failure("world: no drawing of rack system " + sys.id);
    l.form = SystemForm::Nvl72Rack;
  } else {
    if (!(dims.meters(sys.id + ".height") > 0)) {
      return R::failure("world: no dimensions for system \"" + sys.id + "\" (expected dimensions." +
                        sys.id + " in assets/catalog/dimensions.json)");
    }
    l.form = SystemForm::HgxChassis;
    l.domainsPerCabinet = dims.count(sys.id + ".systems_per_rack");
  }
  const std::string& gpu = c.specs.gpu.id;
  if (gpu == "gb200" || gpu == "b200") {
    l.package = GpuPackage::B200;
  } else if (gpu == "h100_sxm" || gpu == "h200") {
    l.package = GpuPackage::H100;  // H200 is the same GH100 die with 6 HBM3e stacks
  } else {
    return R::failure("world: no package drawing for GPU \"" + gpu + "\"");
  }

  // The fabric and cooling of the first full row of racks, as the engine wires them: a leaf
  // stands in the row of the first rack whose NICs land on it.
  const uint32_t perRow = uint32_t(std::max(1, cabinetsPerRow * l.domainsPerCabinet));
  FabricCounts& f = l.fabric;
  f.rails = int(c.rails);
  f.spines = int(c.spines);
  f.cores = int(c.cores);
  f.modelledRacks = int(c.racks);
  std::vector<uint32_t> firstRack(c.leaves, UINT32_MAX);
  for (uint32_t g = 0; g < c.gpuCount(); ++g) {
    uint32_t& first = firstRack[c.gpuLeaf[g]];
    first = std::min(first, c.gpus[g].rack.index);
  }
  if (c.racks >= perRow) {
    f.leavesPerRow = int(
        std::count_if(firstRack.begin(), firstRack.end(), [&](uint32_t r) { return r < perRow; }));
    std::set<uint32_t> cdus;
    for (uint32_t r = 0; r < perRow; ++r) cdus.insert(c.rackCdu[r]);
    f.cdusPerRow = int(cdus.size());
  } else {
    // Less than a row modelled: the row is the mirrored racks' pattern, the engine's rail
    // groups (rails leaves per racksPerRailGroup racks) and CDUs of racksPerCdu racks.
    const uint32_t groups = (perRow + c.racksPerRailGroup - 1) / std::max(1u, c.racksPerRailGroup);
    f.leavesPerRow = int(groups * c.rails);
    f.cdusPerRow = int((perRow + c.racksPerCdu - 1) / std::max(1u, c.racksPerCdu));
  }
  return l;
}

glm::dvec3 cabinetSize_m(const Dimensions& dims, const SystemLayout& layout) {
  const char* s = layout.chassis() ? "hgx_rack" : "nvl72_rack";
  return {dims.meters(std::string(s) + ".width"), dims.meters(std::string(s) + ".height"),
          dims.meters(std::string(s) + ".depth")};
}

int domainsPerRow(const Dimensions& dims, const SystemLayout& layout) {
  return dims.count("row.racks_per_su") * layout.domainsPerCabinet;
}

}  // namespace world
