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

double rowTrayUnderside_m(const Dimensions& dims) {
  return dims.meters("row.cable_tray_height") - ROW_TRAY_THICKNESS_M / 2;
}

double fabricTrunkLevel_m(const Dimensions& dims) {
  return dims.meters("row.cable_tray_height") + dims.meters("ladder_tray.level_spacing");
}

void addLadderTray(Prototype& p, const Dimensions& dims, MeshId box, const glm::dvec3& from,
                   const glm::dvec3& to, double width, const std::string& name) {
  const double railH = dims.meters("ladder_tray.rail_height");
  const double pitch = dims.meters("ladder_tray.rung_pitch");
  // Drawing sizes of the tray's steel: rails and rungs a twentieth and a tenth of the rail's
  // height thick, the fibre laid on the rungs to half the rails' height.
  const double railT = railH * 0.2, rungT = railH * 0.1;
  const glm::dvec3 along = to - from;
  const double length = glm::length(along);
  if (length <= 0) return;
  const bool alongX = std::abs(along.x) >= std::abs(along.z);
  const glm::dvec3 mid = 0.5 * (from + to);
  // A box `l` along the tray, `w` across it, `h` high, its foot at `y` above the rails' foot.
  auto part = [&](glm::dvec3 at, double l, double w, double y, double h, Look look,
                  const std::string& what) {
    at.y += y + h / 2;
    const glm::dvec3 size = alongX ? glm::dvec3(l, h, w) : glm::dvec3(w, h, l);
    p.parts.push_back(boxPart(box, at, size, look, name + " " + what));
  };
  const glm::dvec3 across = alongX ? glm::dvec3(0, 0, 1) : glm::dvec3(1, 0, 0);
  for (int s = -1; s <= 1; s += 2)
    part(mid + across * (s * (width - railT) / 2), length, railT, 0, railH, looks::STEEL,
         "side rail");
  const glm::dvec3 dir = along / length;
  const int rungs = std::max(1, int(std::floor(length / pitch)));
  for (int i = 0; i < rungs; ++i) {
    const double t = (i + 0.5) * length / rungs;
    part(from + dir * t, rungT * 2, width - 2 * railT, 0, rungT, looks::STEEL, "rung");
  }
  part(mid, length, width * 0.7, rungT, railH * 0.5 - rungT, looks::FIBER, "fibre");
}

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

void placeSwitchRacks(BuildContext& ctx, const HallFabric& fabric, double rowLen_m, double trunkX_m,
                      Prototype& into) {
  const Dimensions& dims = ctx.dims;
  const double netW = dims.meters("network_rack.width"), netD = dims.meters("network_rack.depth");
  const double pitchZ = netD + dims.meters("row.hot_aisle");
  const double trunkY = fabricTrunkLevel_m(dims), trayW = dims.meters("row.cable_tray_width");
  const glm::dvec2 riser = networkRiser_m(dims);
  // Line 0 nearest the rows (+Z); racks from the leaf-rack end of the rows (+X) inwards.
  // Identical stacks share one prototype (the default's four racks).
  std::map<std::vector<std::string>, PrototypeId> built;
  auto place = [&](const std::vector<std::string>& names, int slot, const std::string& name,
                   const char* title) {
    const int line = slot / fabric.perLine, k = slot % fabric.perLine;
    const double x = rowLen_m / 2 - netW / 2 - k * (netW + 0.1);
    const double z = fabric.depth_m / 2 - netD / 2 - line * pitchZ;
    auto it = built.find(names);
    if (it == built.end())
      it = built.emplace(names, buildNetworkRack(ctx, names, title, trunkY)).first;
    into.children.push_back(placeChild(it->second, glm::dvec3(x, 0, z), name));
  };
  int slot = 0;
  for (size_t i = 0; i < fabric.spineRacks.size(); ++i)
    place(fabric.spineRacks[i], slot++, "spine_rack" + std::to_string(i), "network rack");
  for (size_t i = 0; i < fabric.coreRacks.size(); ++i)
    place(fabric.coreRacks[i], slot++, "core_rack" + std::to_string(i), "core switch rack");
  // Over each line, a ladder tray along X over its racks' risers, from past the last riser to
  // the collecting tray; the collecting tray along Z from the back line to the racks' +Z edge,
  // where the hall's trunk to the rows goes on.
  const int lines = (slot + fabric.perLine - 1) / fabric.perLine;
  double backZ = fabric.depth_m / 2;
  for (int line = 0; line < lines; ++line) {
    const int inLine = std::min(fabric.perLine, slot - line * fabric.perLine);
    const double z = fabric.depth_m / 2 - netD / 2 - line * pitchZ + riser.y;
    const double lastX = rowLen_m / 2 - netW / 2 - (inLine - 1) * (netW + 0.1) + riser.x;
    addLadderTray(into, dims, ctx.meshes.box, glm::dvec3(lastX - trayW / 2, trunkY, z),
                  glm::dvec3(trunkX_m - trayW / 2, trunkY, z), trayW,
                  "spine line tray " + std::to_string(line));
    backZ = z - trayW / 2;
  }
  addLadderTray(into, dims, ctx.meshes.box, glm::dvec3(trunkX_m, trunkY, backZ),
                glm::dvec3(trunkX_m, trunkY, fabric.depth_m / 2), trayW, "fabric trunk");
}

}  // namespace world
