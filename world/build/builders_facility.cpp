// Facility: data hall, fabric, cooling plant, substation, campus.
#include <algorithm>
#include <cmath>

#include <glm/gtc/constants.hpp>

#include "world/build/builders.h"

namespace world {
namespace {

using glm::dvec3;

}  // namespace

PrototypeId buildHall(BuildContext& ctx, const HallDesc& desc) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const SystemLayout& sys = desc.system;
  const int perRow = domainsPerRow(dims, sys);
  const int rackCount = std::max(1, desc.rackCount);
  const int rows = (rackCount + perRow - 1) / perRow;
  const double rackD = cabinetSize_m(dims, sys).z;
  const double cold = dims.meters("row.cold_aisle"), hot = dims.meters("row.hot_aisle");
  const double margin = dims.meters("hall.margin");
  const double wallH = dims.meters("hall.wall_height"), wallT = dims.meters("hall.wall_thickness");
  const double slabT = dims.meters("hall.slab_thickness");
  const double netW = dims.meters("network_rack.width");
  const double rowLen = rowLength_m(dims, perRow, sys);
  // The fabric's switch racks stand in lines across the end of the hall.
  const HallFabric spineRacks = hallFabric(dims, desc, rowLen);
  const double netD = spineRacks.depth_m;
  // The hero row faces a wider aisle (the gallery zone), where visitors stand in front of it.
  const double frontZone = desc.hero ? dims.meters("gallery.table_depth") + 2 * cold : cold;

  // Along Z: margin, fabric row, front zone, rows (hot/cold aisles alternating), margin.
  // Even rows are turned round (fronts towards -Z), so row 0 faces the front zone and fronts
  // share cold aisles, backs share hot aisles.
  double rowsSpan = 0;
  for (int i = 0; i + 1 < rows; ++i) rowsSpan += rackD + (i % 2 == 0 ? hot : cold);
  const double innerD = 2 * margin + netD + frontZone + rowsSpan + rackD;
  const double innerW = rowLen + 2 * margin;
  Prototype p;
  p.name = desc.hero ? "data hall (hero)" : "data hall";
  p.lod = proxyLod(looks::CONCRETE, 40.0f);
  p.parts.push_back(boxPart(box, dvec3(0, -slabT / 2, 0),
                            dvec3(innerW + 2 * wallT, slabT, innerD + 2 * wallT), looks::FLOOR,
                            "hall slab"));
  for (int s = -1; s <= 1; s += 2) {
    p.parts.push_back(boxPart(box, dvec3(s * (innerW / 2 + wallT / 2), wallH / 2, 0),
                              dvec3(wallT, wallH, innerD + 2 * wallT), looks::CONCRETE,
                              "hall wall"));
    p.parts.push_back(boxPart(box, dvec3(0, wallH / 2, s * (innerD / 2 + wallT / 2)),
                              dvec3(innerW, wallH, wallT), looks::CONCRETE, "hall wall"));
  }

  const PrototypeId fullRow =
      buildRow(ctx, RowDesc{.rackCount = perRow, .hero = false, .system = sys});
  const PrototypeId heroRow =
      desc.hero ? buildRow(ctx, RowDesc{.rackCount = perRow, .hero = true, .system = sys})
                : fullRow;
  const int lastCount = rackCount - (rows - 1) * perRow;
  const PrototypeId lastRow =
      lastCount == perRow ? fullRow : buildRow(ctx, RowDesc{.rackCount = lastCount, .system = sys});
  const double fabricZ = -innerD / 2 + margin + netD / 2;
  const double zoneZ = -innerD / 2 + margin + netD + frontZone / 2;
  double z = -innerD / 2 + margin + netD + frontZone + rackD / 2;
  for (int i = 0; i < rows; ++i) {
    PrototypeId row = i == rows - 1 ? lastRow : fullRow;
    if (i == 0 && desc.hero) row = heroRow;
    const int count = i == rows - 1 ? lastCount : perRow;
    const bool turned = i % 2 == 0;
    // Rows are centred on their own length; a short row keeps its leaf-rack end in line.
    const double shift = (rowLen - rowLength_m(dims, count, sys)) / 2;
    p.children.push_back(placeChild(row, dvec3(turned ? -shift : shift, 0, z),
                                    "row" + std::to_string(i), turned ? glm::pi<double>() : 0.0));
    if (i + 1 < rows) z += rackD + (i % 2 == 0 ? hot : cold);
  }
  const double lastRowZ = z;

  // Fabric: spine/core switch racks across the end of the hall, and the cable trunk along Z over
  // the leaf-rack end of every row, up to them.
  Prototype spines;
  spines.name = "spine switch racks";
  spines.lod = proxyLod(looks::NIC, 30.0f);
  placeSwitchRacks(ctx, spineRacks, rowLen, spines);
  Prototype fabric;
  fabric.name = "scale-out fabric (spine/core)";
  fabric.lod = proxyLod(looks::NIC, 25.0f);
  fabric.children.push_back(placeChild(ctx.scene.add(std::move(spines)), dvec3(0.0), "spine"));
  const double trunkY = dims.meters("row.cable_tray_height") + 0.4;
  const double trunkW = dims.meters("row.cable_tray_width") * 1.5;
  const double trunkX = rowLen / 2 - netW / 2;
  const double trunkLen = lastRowZ - fabricZ + 1.0;
  fabric.parts.push_back(boxPart(box, dvec3(trunkX, trunkY, trunkLen / 2),
                                 dvec3(trunkW, 0.12, trunkLen), looks::CABLE_TRAY,
                                 "fabric cable trunk"));
  fabric.parts.push_back(boxPart(box, dvec3(trunkX, trunkY + 0.08, trunkLen / 2),
                                 dvec3(trunkW * 0.8, 0.06, trunkLen), looks::FIBER,
                                 "leaf-spine fibre"));
  const double spanX = std::min(rowLen, spineRacks.racksTotal() * (netW + 0.1));
  fabric.parts.push_back(boxPart(box, dvec3(rowLen / 2 - spanX / 2, trunkY, 0),
                                 dvec3(spanX, 0.12, trunkW), looks::CABLE_TRAY,
                                 "spine cable tray"));
  p.children.push_back(
      placeChild(ctx.scene.add(std::move(fabric)), dvec3(0, 0, fabricZ), HALL_FABRIC));

  if (desc.hero) {
    // The gallery table stands in the front zone, away from the hero rack's end of the row.
    const double tableW = dims.meters("gallery.table_width");
    p.children.push_back(placeChild(buildGalleryTable(ctx),
                                    dvec3(-rowLen / 2 + tableW / 2, 0, zoneZ), HALL_GALLERY));
  }
  return ctx.scene.add(std::move(p));
}

PrototypeId buildCoolingPlant(BuildContext& ctx, const CoolingPlantDesc& desc) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const MeshId cyl = ctx.meshes.cylinder;
  const double L = dims.meters("dry_cooler.length"), W = dims.meters("dry_cooler.width");
  const double H = dims.meters("dry_cooler.height");
  const int fans = dims.count("dry_cooler.fans");
  const double fanD = dims.meters("dry_cooler.fan_diameter");

  Prototype cooler;
  cooler.name = "dry cooler";
  cooler.component = component::DRY_COOLER;
  cooler.lod = proxyLod(looks::ALUMINIUM, 30.0f);
  cooler.parts.push_back(
      boxPart(box, dvec3(0, H * 0.55, 0), dvec3(L, H * 0.9, W), looks::ALUMINIUM, "coil bank"));
  for (int i = 0; i < fans; ++i) {
    const double x = -L / 2 + L * (i + 0.5) / fans;
    cooler.parts.push_back(boxPart(cyl, dvec3(x, H + 0.1, 0), dvec3(fanD, 0.2, fanD),
                                   looks::DARK_STEEL, "fan " + std::to_string(i)));
  }
  for (int s = -1; s <= 1; s += 2) {
    cooler.parts.push_back(boxPart(box, dvec3(s * (L / 2 - 0.1), H * 0.05, 0),
                                   dvec3(0.15, H * 0.1, W), looks::DARK_STEEL, "frame leg"));
  }
  const PrototypeId coolerId = ctx.scene.add(std::move(cooler));

  const double pumpD = dims.meters("pump.diameter"), pumpL = dims.meters("pump.length");
  Prototype pump;
  pump.name = "facility water pump";
  pump.component = component::PUMP;
  pump.lod = proxyLod(looks::COOLANT_SUPPLY, 30.0f);
  pump.parts.push_back(tubePart(cyl, dvec3(-pumpL / 2, pumpD / 2 + 0.2, 0),
                                dvec3(pumpL * 0.1, pumpD / 2 + 0.2, 0), pumpD,
                                looks::COOLANT_SUPPLY, "pump volute"));
  pump.parts.push_back(tubePart(cyl, dvec3(pumpL * 0.1, pumpD / 2 + 0.2, 0),
                                dvec3(pumpL / 2, pumpD / 2 + 0.2, 0), pumpD * 0.8, looks::STEEL,
                                "pump motor"));
  pump.parts.push_back(boxPart(box, dvec3(0, 0.1, 0), dvec3(pumpL, 0.2, pumpD * 1.2),
                               looks::CONCRETE, "pump plinth"));
  const PrototypeId pumpId = ctx.scene.add(std::move(pump));

  const double towerD = dims.meters("cooling_tower.diameter"),
               towerH = dims.meters("cooling_tower.height");
  Prototype tower;
  tower.name = "cooling tower";
  tower.component = component::COOLING_TOWER;
  tower.lod = proxyLod(looks::CONCRETE, 30.0f);
  tower.parts.push_back(boxPart(cyl, dvec3(0, towerH * 0.45, 0),
                                dvec3(towerD, towerH * 0.9, towerD), looks::CONCRETE,
                                "tower shell"));
  tower.parts.push_back(boxPart(cyl, dvec3(0, towerH * 0.95, 0),
                                dvec3(towerD * 0.6, towerH * 0.1, towerD * 0.6), looks::DARK_STEEL,
                                "fan stack"));
  const PrototypeId towerId = ctx.scene.add(std::move(tower));

  Prototype p;
  p.name = "cooling plant";
  p.lod = proxyLod(looks::ALUMINIUM, 20.0f);
  // Dry coolers in two columns, pumps and towers beside them, a header pipe pair through the yard.
  const int perColumn = (desc.dryCoolers + 1) / 2;
  const double pitchZ = W + 2.0;
  const double yardD = perColumn * pitchZ + 4.0;
  for (int i = 0; i < desc.dryCoolers; ++i) {
    const int col = i / perColumn, k = i % perColumn;
    const double x = (col == 0 ? -1 : 1) * (L / 2 + 2.0);
    p.children.push_back(placeChild(coolerId, dvec3(x, 0, -yardD / 2 + 2.0 + pitchZ * (k + 0.5)),
                                    "dry_cooler" + std::to_string(i)));
  }
  const double pumpX = L + 4.0 + pumpL / 2;
  for (int i = 0; i < desc.pumps; ++i) {
    p.children.push_back(placeChild(pumpId, dvec3(pumpX, 0, -yardD / 2 + 3.0 + i * (pumpD + 1.5)),
                                    "pump" + std::to_string(i)));
  }
  for (int i = 0; i < desc.coolingTowers; ++i) {
    p.children.push_back(placeChild(
        towerId,
        dvec3(pumpX + pumpL + 2.0 + towerD / 2, 0, -yardD / 2 + towerD / 2 + i * (towerD + 2.0)),
        "cooling_tower" + std::to_string(i)));
  }
  // The headers cross the road to the hall (the plant sits one hall spacing in front of it).
  const double pipe = dims.meters("pump.pipe_diameter");
  const double toHall = dims.meters("campus.hall_spacing");
  for (int k = 0; k < 2; ++k) {
    const double x = -0.6 + 1.2 * k;
    p.parts.push_back(
        tubePart(cyl, dvec3(x, 1.0, -yardD / 2 - toHall), dvec3(x, 1.0, yardD / 2), pipe,
                 k == 0 ? looks::COOLANT_SUPPLY : looks::COOLANT_RETURN,
                 k == 0 ? "facility water supply header" : "facility water return header"));
  }
  p.parts.push_back(boxPart(box, dvec3(pumpX / 2 + towerD / 2, 0.05, 0),
                            dvec3(2 * L + pumpX + towerD + 10.0, 0.1, yardD), looks::CONCRETE,
                            "cooling yard pad"));
  return ctx.scene.add(std::move(p));
}

PrototypeId buildSubstation(BuildContext& ctx) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double tw = dims.meters("substation.transformer_width");
  const double td = dims.meters("substation.transformer_depth");
  const double th = dims.meters("substation.transformer_height");
  const int count = dims.count("substation.transformers");
  Prototype tr;
  tr.name = "power transformer";
  tr.component = component::TRANSFORMER;
  tr.lod = proxyLod(looks::STEEL, 30.0f);
  tr.parts.push_back(boxPart(box, dvec3(0, th * 0.4, 0), dvec3(tw * 0.6, th * 0.8, td),
                             looks::STEEL, "transformer tank"));
  for (int s = -1; s <= 1; s += 2) {
    tr.parts.push_back(boxPart(box, dvec3(s * tw * 0.4, th * 0.35, 0),
                               dvec3(tw * 0.2, th * 0.7, td * 0.9), looks::DARK_STEEL,
                               "radiator bank"));
  }
  for (int i = 0; i < 3; ++i) {
    tr.parts.push_back(tubePart(ctx.meshes.cylinder, dvec3((i - 1) * tw * 0.15, th * 0.8, 0),
                                dvec3((i - 1) * tw * 0.15, th, 0), 0.25, looks::WHITE,
                                "HV bushing"));
  }
  const PrototypeId trId = ctx.scene.add(std::move(tr));
  Prototype p;
  p.name = "substation";
  p.lod = proxyLod(looks::STEEL, 20.0f);
  const double pitch = tw + 4.0;
  const double padW = count * pitch + 10.0, padD = td + 20.0;
  p.parts.push_back(
      boxPart(box, dvec3(0, 0.1, 0), dvec3(padW, 0.2, padD), looks::CONCRETE, "substation pad"));
  for (int i = 0; i < count; ++i) {
    p.children.push_back(placeChild(trId,
                                    dvec3(-padW / 2 + 5.0 + pitch * (i + 0.5), 0.2, -padD / 4),
                                    "transformer" + std::to_string(i)));
  }
  p.parts.push_back(boxPart(box, dvec3(0, 2.0, padD / 4 + 2.0), dvec3(padW * 0.6, 4.0, 6.0),
                            looks::WHITE, "switchgear building"));
  for (int s = -1; s <= 1; s += 2) {
    p.parts.push_back(
        boxPart(box, dvec3(0, 1.2, s * padD / 2), dvec3(padW, 2.4, 0.05), looks::STEEL, "fence"));
    p.parts.push_back(
        boxPart(box, dvec3(s * padW / 2, 1.2, 0), dvec3(0.05, 2.4, padD), looks::STEEL, "fence"));
  }
  return ctx.scene.add(std::move(p));
}

CampusDesc campusOf(const SystemLayout& system, int totalRacks) {
  CampusDesc desc;
  desc.hall.system = system;
  desc.hall.rackCount *= system.domainsPerCabinet;  // the same 128 cabinets a hall
  desc.totalRacks = totalRacks;
  return desc;
}

std::vector<int> hallRackCounts(const CampusDesc& desc) {
  const int perHall = std::max(1, desc.hall.rackCount);
  if (desc.totalRacks <= 0) return std::vector<int>(size_t(std::max(1, desc.hallCount)), perHall);
  std::vector<int> counts;
  for (int left = desc.totalRacks; left > 0; left -= perHall)
    counts.push_back(std::min(left, perHall));
  return counts;
}

PrototypeId buildCampus(BuildContext& ctx, const CampusDesc& desc) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double spacing = dims.meters("campus.hall_spacing");
  const double ground = dims.meters("campus.ground_size");
  const std::vector<int> hallRacks = hallRackCounts(desc);
  const int hallCount = static_cast<int>(hallRacks.size());
  HallDesc heroDesc = desc.hall;
  heroDesc.hero = true;
  heroDesc.rackCount = hallRacks.front();
  HallDesc plainDesc = desc.hall;
  plainDesc.hero = false;
  // Hall 0 holds the modelled fabric's spines and cores; every other hall its share of them by
  // racks, as its racks mirror the modelled fabric's average rack.
  const FabricCounts& fabric = desc.hall.system.fabric;
  if (fabric.modelledRacks > 0) {
    heroDesc.spineSwitches = fabric.spines;
    heroDesc.coreSwitches = fabric.cores;
    const double share = double(plainDesc.rackCount) / fabric.modelledRacks;
    plainDesc.spineSwitches = int(std::lround(fabric.spines * share));
    plainDesc.coreSwitches = int(std::lround(fabric.cores * share));
  }
  const PrototypeId heroHall = buildHall(ctx, heroDesc);
  const PrototypeId hall = hallCount > 1 ? buildHall(ctx, plainDesc) : heroHall;
  // A partly filled last hall is a prototype of its own.
  PrototypeId lastHall = hall;
  if (hallCount > 1 && hallRacks.back() != desc.hall.rackCount) {
    HallDesc lastDesc = plainDesc;
    lastDesc.rackCount = hallRacks.back();
    lastHall = buildHall(ctx, lastDesc);
  }
  const PrototypeId plant = buildCoolingPlant(ctx, desc.cooling);
  const Aabb hallBox = ctx.scene.prototype(heroHall).bounds;
  const Aabb plantBox = ctx.scene.prototype(plant).bounds;
  const double hallW = hallBox.size().x, hallD = hallBox.size().z;
  // Halls and their plants (which extend further to +X than to -X) never overlap a neighbour.
  const double plantSpan = 2.0 * std::max(-plantBox.min.x, plantBox.max.x);
  const double pitch = std::max(hallW, plantSpan) + spacing;

  Prototype p;
  p.name = "campus";
  p.lod = proxyLod(looks::GRASS, 0.0f);
  p.lod.hasProxy = false;
  // The ground's top sits 2 cm below the slabs and pads that stand on it (no coplanar faces).
  p.parts.push_back(
      boxPart(box, dvec3(0, -0.27, 0), dvec3(ground, 0.5, ground), looks::GRASS, "ground"));
  const double rowSpan = (hallCount - 1) * pitch;
  const double roadZ = hallD / 2 + spacing / 2;
  p.parts.push_back(boxPart(box, dvec3(0, -0.005, roadZ),
                            dvec3(rowSpan + pitch + 200.0, 0.02, 10.0), looks::ASPHALT,
                            "campus road"));
  for (int i = 0; i < hallCount; ++i) {
    const double x = -rowSpan / 2 + i * pitch;
    const PrototypeId which = i == 0 ? heroHall : (i == hallCount - 1 ? lastHall : hall);
    p.children.push_back(placeChild(which, dvec3(x, 0, 0), "hall" + std::to_string(i)));
    // The plant's header pipes (its most -Z extent) end at the hall's front wall; the yard itself
    // sits one hall spacing away, across the road.
    const double plantZ = hallBox.max.z - plantBox.min.z;
    // The plant's header pipes (its local x = 0) line up with the hall's centre.
    p.children.push_back(placeChild(plant, dvec3(x, 0, plantZ), "cooling" + std::to_string(i)));
  }
  const PrototypeId substation = buildSubstation(ctx);
  const Aabb subBox = ctx.scene.prototype(substation).bounds;
  p.children.push_back(
      placeChild(substation, dvec3(-rowSpan / 2 - pitch / 2 - spacing - subBox.size().x / 2, 0, 0),
                 "substation"));
  return ctx.scene.add(std::move(p));
}

}  // namespace world
