// The hall's scale-out fabric racks: the spine and core switches of the engine's modelled fabric
// (hall 0 holds them all; the other halls their share, mirroring its average), in lines of
// network racks across the end of the hall.
#include <algorithm>
#include <cmath>
#include <map>

#include "world/builders/builders.h"

namespace world {

int HallFabric::racksTotal() const {
  return int(spineRacks.size() + coreRacks.size());
}

namespace {

// `count` switches named prefix<i>, split over as few network racks as hold them.
std::vector<std::vector<std::string>> stacks(const Dimensions& dims, int count,
                                             const std::string& prefix) {
  std::vector<std::vector<std::string>> racks;
  if (count <= 0) return racks;
  const int n = networkRacksFor(dims, count);
  const int per = (count + n - 1) / n;
  for (int r = 0; r < n; ++r) {
    std::vector<std::string> names;
    for (int i = r * per; i < std::min(count, (r + 1) * per); ++i)
      names.push_back(prefix + std::to_string(i));
    racks.push_back(std::move(names));
  }
  return racks;
}

}  // namespace

HallFabric hallFabric(const Dimensions& dims, const HallDesc& desc, double rowLen_m) {
  HallFabric f;
  if (desc.spineSwitches < 0) {  // no engine counts: the catalog's stack in each spine rack
    const int perRack = dims.count("network_rack.switches");
    for (int r = 0; r < desc.spineRacks; ++r) {
      std::vector<std::string> names;
      for (int i = 0; i < perRack; ++i) names.push_back("switch" + std::to_string(i));
      f.spineRacks.push_back(std::move(names));
    }
  } else {
    f.spineRacks = stacks(dims, desc.spineSwitches, "spine");
    f.coreRacks = stacks(dims, std::max(0, desc.coreSwitches), "core");
  }
  const double netW = dims.meters("network_rack.width"), netD = dims.meters("network_rack.depth");
  f.perLine = std::max(1, int(std::floor(rowLen_m / (netW + 0.1))));
  const int lines = std::max(1, (f.racksTotal() + f.perLine - 1) / f.perLine);
  f.depth_m = lines * netD + (lines - 1) * dims.meters("row.hot_aisle");
  return f;
}

void placeSwitchRacks(BuildContext& ctx, const HallFabric& fabric, double rowLen_m,
                      Prototype& into) {
  const Dimensions& dims = ctx.dims;
  const double netW = dims.meters("network_rack.width"), netD = dims.meters("network_rack.depth");
  const double pitchZ = netD + dims.meters("row.hot_aisle");
  // Line 0 nearest the rows (+Z); racks from the leaf-rack end of the rows (+X) inwards.
  // Identical stacks share one prototype (the default's four racks).
  std::map<std::vector<std::string>, PrototypeId> built;
  auto place = [&](const std::vector<std::string>& names, int slot, const std::string& name,
                   const char* title) {
    const int line = slot / fabric.perLine, k = slot % fabric.perLine;
    const double x = rowLen_m / 2 - netW / 2 - k * (netW + 0.1);
    const double z = fabric.depth_m / 2 - netD / 2 - line * pitchZ;
    auto it = built.find(names);
    if (it == built.end()) it = built.emplace(names, buildNetworkRack(ctx, names, title)).first;
    into.children.push_back(placeChild(it->second, glm::dvec3(x, 0, z), name));
  };
  int slot = 0;
  for (size_t i = 0; i < fabric.spineRacks.size(); ++i)
    place(fabric.spineRacks[i], slot++, "spine_rack" + std::to_string(i), "network rack");
  for (size_t i = 0; i < fabric.coreRacks.size(); ++i)
    place(fabric.coreRacks[i], slot++, "core_rack" + std::to_string(i), "core switch rack");
}

}  // namespace world
