// The campus: the site round the halls (fields, roads, fence, lights), each hall's building shell
// with its parking and generator yard, the substation and the line that feeds it.
#include <algorithm>
#include <cmath>
#include <map>

#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "world/builders/builders.h"

namespace world {
namespace {

using glm::dvec3;

// Layout choices (not hardware): spacings that make the site read as one, in metres.
constexpr double YARD_MARGIN_M = 4.0;          // gravel beyond a yard's outermost units
constexpr double GENSET_GAP_M = 1.6;           // between gensets side by side (service access)
constexpr double GENSET_LANE_M = 7.0;          // the lane between a generator yard's two rows
constexpr double YARD_SETBACK_M = 8.0;         // hall wall to its generator yard's fence
constexpr double ROAD_WIDTH_M = 10.0;          // two-lane site road
constexpr double PARKING_AISLE_M = 6.5;        // drive aisle between two rows of bays
constexpr double PARKING_SETBACK_M = 6.0;      // hall side wall to its parking
constexpr double ROOF_UNIT_PITCH_M = 12.0;     // rooftop units along the hall, one per column bay
constexpr double FACADE_LIGHT_PITCH_M = 12.0;  // vertical light strips, one per column bay
constexpr double SITE_MARGIN_M = 60.0;         // grass between the outermost yards and the fence
constexpr double FIELD_CELL_M = 250.0;         // farm fields round the site
constexpr double SUBSTATION_SETBACK_M = 15.0;  // from the first hall and yard, and the road
constexpr double LINE_LEAD_IN_M = 60.0;  // from the substation's gantry to the line's first tower
constexpr double LAMP_HEIGHT_M = 8.0;
constexpr double FENCE_HEIGHT_M = 2.4;
constexpr int TRANSMISSION_TOWERS = 4;
// Heights of the ground's layers, each at least 8 mm above the one below (no coplanar faces):
// the field round the site, the farm fields on it, the site's grass, roads and parking, and the
// bay lines painted on them. Yards, pads and slabs stand on top of these.
constexpr double FIELDS_TOP_M = -0.012, SITE_TOP_M = -0.004, ROAD_TOP_M = 0.006,
                 PAINT_TOP_M = 0.014;

// A flat layer of `look` whose top is at `top_m`, 1 cm thick.
Part groundPart(MeshId box, double x, double z, double w, double d, double top_m, Look look,
                std::string name) {
  return boxPart(box, dvec3(x, top_m - 0.005, z), dvec3(w, 0.01, d), look, std::move(name));
}

// One containerised standby genset: the enclosure, louvred ends, its radiator deck, exhaust
// stack and the belly fuel tank it stands on.
PrototypeId buildGenset(BuildContext& ctx) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double L = dims.meters("generator.length"), W = dims.meters("generator.width"),
               H = dims.meters("generator.height");
  Prototype g;
  g.name = "standby generator";
  g.lod = proxyLod(looks::STEEL, 20.0f);
  const double tankH = 0.6;  // the belly tank under the skid
  g.parts.push_back(boxPart(box, dvec3(0, tankH / 2, 0), dvec3(W * 0.96, tankH, L * 0.98),
                            looks::DARK_STEEL, "belly fuel tank"));
  g.parts.push_back(
      boxPart(box, dvec3(0, tankH + H / 2, 0), dvec3(W, H, L), looks::WHITE, "genset enclosure"));
  for (int s = -1; s <= 1; s += 2) {
    g.parts.push_back(boxPart(box, dvec3(0, tankH + H * 0.5, s * (L / 2 + 0.02)),
                              dvec3(W * 0.8, H * 0.75, 0.04), looks::NIC, "louvres"));
  }
  g.parts.push_back(boxPart(box, dvec3(0, tankH + H + 0.4, L * 0.3), dvec3(W * 0.9, 0.8, L * 0.35),
                            looks::DARK_STEEL, "radiator deck"));
  g.parts.push_back(tubePart(ctx.meshes.cylinder, dvec3(0, tankH + H, -L * 0.25),
                             dvec3(0, tankH + H + 3.0, -L * 0.25), 0.5, looks::DARK_STEEL,
                             "exhaust stack"));
  return ctx.scene.add(std::move(g));
}

// A hall's generator yard: `count` gensets in two rows facing a lane (their lengths along Z),
// on a gravel pad with a fence and lights. Centred on the origin.
PrototypeId buildGensetYard(BuildContext& ctx, PrototypeId genset, int count) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double L = dims.meters("generator.length"), W = dims.meters("generator.width");
  const int perRow = (count + 1) / 2;
  const double pitch = W + GENSET_GAP_M;
  const double yardW = perRow * pitch + 2 * YARD_MARGIN_M;
  const double yardD = 2 * L + GENSET_LANE_M + 2 * YARD_MARGIN_M;
  Prototype y;
  y.name = "generator yard";
  y.lod = proxyLod(looks::GRAVEL, 10.0f);
  y.lod.hasProxy = false;
  y.parts.push_back(
      boxPart(box, dvec3(0, 0.05, 0), dvec3(yardW, 0.1, yardD), looks::GRAVEL, "yard gravel"));
  for (int i = 0; i < count; ++i) {
    const int row = i / perRow, k = i % perRow;
    const double z = (row == 0 ? -1 : 1) * (GENSET_LANE_M / 2 + L / 2);
    y.children.push_back(placeChild(genset,
                                    dvec3(-yardW / 2 + YARD_MARGIN_M + (k + 0.5) * pitch, 0.1, z),
                                    "genset" + std::to_string(i)));
  }
  addFence(y, box, dvec3(0, 0.1, 0), yardW - 1.0, yardD - 1.0, FENCE_HEIGHT_M);
  addLampPosts(y, box, dvec3(-yardW / 2 + 1.0, 0, 0), dvec3(yardW / 2, 0, 0), LAMP_HEIGHT_M);
  return ctx.scene.add(std::move(y));
}

// The building round a hall (the hall itself is a cutaway) in the hall's frame: a roof with a
// grid of rooftop units, full walls on the sides the hall cuts low, lit parapets and vertical
// light strips on every facade, a lit lobby, and the staff parking beside it.
PrototypeId buildHallShell(BuildContext& ctx, const Aabb& hallBox) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double hallW = hallBox.size().x, hallD = hallBox.size().z;
  const double wallH = dims.meters("hall.wall_height");
  const dvec3 c(hallBox.center().x, 0, hallBox.center().z);
  Prototype p;
  p.name = "hall building";
  p.lod = proxyLod(looks::WALL_DARK, 10.0f);
  p.lod.hasProxy = false;
  p.parts.push_back(boxPart(box, c + dvec3(0, wallH + 0.2, 0), dvec3(hallW, 0.4, hallD),
                            looks::STEEL, "hall roof"));
  p.parts.push_back(boxPart(box, c + dvec3(hallW / 2 - 0.15, wallH / 2, 0),
                            dvec3(0.3, wallH, hallD), looks::WALL_DARK, "hall cladding"));
  p.parts.push_back(boxPart(box, c + dvec3(0, wallH / 2, hallD / 2 - 0.15),
                            dvec3(hallW, wallH, 0.3), looks::WALL_DARK, "hall cladding"));
  for (int s = -1; s <= 1; s += 2) {
    p.parts.push_back(boxPart(box, c + dvec3(0, wallH + 0.45, s * (hallD / 2 + 0.03)),
                              dvec3(hallW, 0.3, 0.1), looks::LIGHT_STRIP, "parapet light"));
    p.parts.push_back(boxPart(box, c + dvec3(s * (hallW / 2 + 0.03), wallH + 0.45, 0),
                              dvec3(0.1, 0.3, hallD), looks::LIGHT_STRIP, "parapet light"));
    // Vertical strips, one per column bay, on the long (X) faces and the ends (Z).
    for (double z = -hallD / 2 + FACADE_LIGHT_PITCH_M / 2; z < hallD / 2;
         z += FACADE_LIGHT_PITCH_M) {
      p.parts.push_back(boxPart(box, c + dvec3(s * (hallW / 2 + 0.04), wallH * 0.5, z),
                                dvec3(0.08, wallH * 0.7, 0.25), looks::LIGHT_STRIP,
                                "facade light"));
    }
    for (double x = -hallW / 2 + FACADE_LIGHT_PITCH_M / 2; x < hallW / 2;
         x += FACADE_LIGHT_PITCH_M) {
      p.parts.push_back(boxPart(box, c + dvec3(x, wallH * 0.5, s * (hallD / 2 + 0.04)),
                                dvec3(0.25, wallH * 0.7, 0.08), looks::LIGHT_STRIP,
                                "facade light"));
    }
  }
  // Rooftop units (the halls' air handlers and the fabric rooms' condensers): two lines along
  // the roof, one per column bay.
  for (double z = -hallD / 2 + ROOF_UNIT_PITCH_M / 2; z < hallD / 2 - 4.0; z += ROOF_UNIT_PITCH_M) {
    for (int s = -1; s <= 1; s += 2) {
      const dvec3 at = c + dvec3(s * hallW * 0.24, wallH + 0.4, z);
      p.parts.push_back(boxPart(box, at + dvec3(0, 1.0, 0), dvec3(hallW * 0.3, 2.0, 6.0),
                                looks::ALUMINIUM, "rooftop unit"));
      p.parts.push_back(boxPart(ctx.meshes.cylinder, at + dvec3(0, 2.05, -1.4),
                                dvec3(1.8, 0.1, 1.8), looks::NIC, "rooftop fan"));
      p.parts.push_back(boxPart(ctx.meshes.cylinder, at + dvec3(0, 2.05, 1.4), dvec3(1.8, 0.1, 1.8),
                                looks::NIC, "rooftop fan"));
    }
  }
  const dvec3 lobby = c + dvec3(-hallW * 0.3, 0, hallD / 2 + 5.0);
  p.parts.push_back(
      boxPart(box, lobby + dvec3(0, 4.0, 0), dvec3(18.0, 8.0, 10.0), looks::WHITE, "lobby"));
  for (int floor = 0; floor < 2; ++floor) {
    p.parts.push_back(boxPart(box, lobby + dvec3(0, 2.0 + floor * 3.5, 5.03),
                              dvec3(15.0, 1.4, 0.06), looks::WINDOW, "lobby windows"));
    p.parts.push_back(boxPart(box, lobby + dvec3(-9.03, 2.0 + floor * 3.5, 0),
                              dvec3(0.06, 1.4, 8.0), looks::WINDOW, "lobby windows"));
  }
  // Staff parking on the hall's -X side (the side the campus station sees): two rows of bays
  // across a drive aisle, most of them taken.
  const double bayW = dims.meters("parking.bay_width"), bayD = dims.meters("parking.bay_depth");
  const int bays = std::max(2, dims.count("parking.bays_per_hall"));
  const int perRow = (bays + 1) / 2;
  const double lotW = 2 * bayD + PARKING_AISLE_M, lotD = perRow * bayW;
  const double lotX = c.x - hallW / 2 - PARKING_SETBACK_M - lotW / 2;
  const double lotZ = c.z - hallD / 2 + lotD / 2;
  p.parts.push_back(groundPart(box, lotX, lotZ, lotW, lotD, ROAD_TOP_M, looks::ASPHALT, "parking"));
  const double carL = dims.meters("parking.car_length"), carW = dims.meters("parking.car_width"),
               carH = dims.meters("parking.car_height");
  for (int row = 0; row < 2; ++row) {
    const double side = row == 0 ? -1 : 1;
    const double bayX = lotX + side * (PARKING_AISLE_M / 2 + bayD / 2);
    for (int b = 0; b <= perRow; ++b) {
      p.parts.push_back(boxPart(box, dvec3(bayX, PAINT_TOP_M - 0.002, lotZ - lotD / 2 + b * bayW),
                                dvec3(bayD, 0.004, 0.12), looks::WHITE, "parking bay line"));
    }
    for (int b = 0; b < perRow; ++b) {
      if ((b * 7 + row * 3) % 5 == 0) continue;  // a bay in five free, in no regular pattern
      const double z = lotZ - lotD / 2 + (b + 0.5) * bayW;
      p.parts.push_back(boxPart(box, dvec3(bayX, ROAD_TOP_M + carH * 0.3, z),
                                dvec3(carL, carH * 0.6, carW), looks::DARK_STEEL, "car"));
      p.parts.push_back(boxPart(box, dvec3(bayX + side * 0.3, ROAD_TOP_M + carH * 0.8, z),
                                dvec3(carL * 0.5, carH * 0.4, carW * 0.9), looks::NIC,
                                "car cabin"));
    }
  }
  return ctx.scene.add(std::move(p));
}

// The line that feeds the substation, in its own frame: its origin at the substation's gantry,
// lattice towers every span leading away along -X, three conductors between them and down to
// the gantry.
PrototypeId buildTransmissionLine(const BuildContext& ctx, int towers) {
  const MeshId box = ctx.meshes.box;
  const double towerH = ctx.dims.meters("transmission.tower_height");
  const double span = ctx.dims.meters("transmission.span");
  const double gantryH = ctx.dims.meters("substation.gantry_height");
  const double base = towerH * 0.22;
  const double legLean = std::atan2(base / 2 - 0.6, towerH);
  Prototype p;
  p.name = "transmission line";
  p.lod = proxyLod(looks::STEEL, 0.0f);
  p.lod.hasProxy = false;
  const dvec3 start(-LINE_LEAD_IN_M, 0, 0);
  for (int i = 0; i < towers; ++i) {
    const dvec3 at = start - dvec3(i * span, 0, 0);
    for (int s = -1; s <= 1; s += 2) {
      for (int t = -1; t <= 1; t += 2) {
        Part leg = tiltedBoxPart(box, dvec3(0, towerH / 2, 0), dvec3(0.35, towerH, 0.35),
                                 t * legLean, looks::STEEL, "tower leg");
        leg.local = glm::translate(glm::dmat4(1.0), at + dvec3(s * base / 4, 0, -t * base / 4)) *
                    glm::rotate(glm::dmat4(1.0), -s * legLean, dvec3(0, 0, 1)) * leg.local;
        p.parts.push_back(std::move(leg));
      }
    }
    for (int k = 0; k < 3; ++k) {
      p.parts.push_back(boxPart(box, at + dvec3(0, towerH * (0.62 + 0.15 * k), 0),
                                dvec3(0.4, 0.5, towerH * (0.32 - 0.06 * k)), looks::STEEL,
                                "cross arm"));
    }
    p.parts.push_back(boxPart(box, at + dvec3(0, towerH + 0.3, 0), dvec3(0.8, 0.6, 0.8),
                              looks::RED_LIGHT, "warning light"));
  }
  for (int k = 0; k < 3; ++k) {
    const double lateral = towerH * (0.32 - 0.06 * k) / 2 * (k == 1 ? -1 : 1);
    const dvec3 arm(0, towerH * (0.62 + 0.15 * k) - 0.6, lateral);
    p.parts.push_back(tubePart(ctx.meshes.cylinder, start + arm,
                               start + arm - dvec3((towers - 1) * span, 0, 0), 0.12,
                               looks::DARK_STEEL, "conductor"));
    // The drop from the first tower to the gantry's insulators (its phases 4 m apart).
    p.parts.push_back(tubePart(ctx.meshes.cylinder, start + arm,
                               dvec3(0, gantryH - 1.5, (1 - k) * 4.0), 0.12, looks::DARK_STEEL,
                               "conductor"));
  }
  return ctx.scene.add(std::move(p));
}

}  // namespace

std::string campusBuildingName(int hall) {
  return "building" + std::to_string(hall);
}
std::string campusGensetYardName(int hall) {
  return "gensets" + std::to_string(hall);
}

int standbyGensets(const Dimensions& dims, double hallPower_W) {
  const double rating_W = dims.number("generator.standby_rating_W");
  const int duty = rating_W > 0 ? int(std::ceil(std::max(0.0, hallPower_W) / rating_W - 1e-9)) : 0;
  return std::max(1, duty) + std::max(0, dims.count("generator.redundant"));
}

PrototypeId buildSubstation(BuildContext& ctx) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const MeshId cyl = ctx.meshes.cylinder;
  const double tw = dims.meters("substation.transformer_width");
  const double td = dims.meters("substation.transformer_depth");
  const double th = dims.meters("substation.transformer_height");
  const double gantryH = dims.meters("substation.gantry_height");
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
  tr.parts.push_back(tubePart(cyl, dvec3(-tw * 0.2, th * 0.85, -td * 0.3),
                              dvec3(tw * 0.2, th * 0.85, -td * 0.3), 0.9, looks::STEEL,
                              "conservator tank"));
  for (int i = 0; i < 3; ++i) {
    tr.parts.push_back(tubePart(cyl, dvec3((i - 1) * tw * 0.15, th * 0.8, td * 0.15),
                                dvec3((i - 1) * tw * 0.15, th * 1.15, td * 0.15), 0.3, looks::WHITE,
                                "HV bushing"));
  }
  const PrototypeId trId = ctx.scene.add(std::move(tr));
  Prototype p;
  p.name = "substation";
  p.lod = proxyLod(looks::STEEL, 20.0f);
  const double pitch = tw + 6.0;  // bays: a transformer and its fire wall
  const double padW = count * pitch + 12.0, padD = td + 46.0;
  p.parts.push_back(
      boxPart(box, dvec3(0, 0.05, 0), dvec3(padW, 0.1, padD), looks::GRAVEL, "substation gravel"));
  // From the line side (-Z): the dead-end gantry, the bus on its posts, a breaker and
  // disconnector per bay, the transformers between fire walls, the switchgear building.
  const double gantryZ = -padD / 2 + 4.0, busZ = gantryZ + 6.0, breakerZ = busZ + 6.0;
  const double trZ = breakerZ + 4.0 + td / 2;
  for (int s = -1; s <= 1; s += 2) {
    p.parts.push_back(boxPart(box, dvec3(s * 6.0, gantryH / 2, gantryZ), dvec3(0.6, gantryH, 0.6),
                              looks::STEEL, "gantry column"));
  }
  p.parts.push_back(boxPart(box, dvec3(0, gantryH - 0.4, gantryZ), dvec3(13.0, 0.8, 0.6),
                            looks::STEEL, "gantry beam"));
  for (int k = 0; k < 3; ++k) {
    p.parts.push_back(tubePart(cyl, dvec3((k - 1) * 4.0, gantryH - 0.8, gantryZ),
                               dvec3((k - 1) * 4.0, gantryH - 2.0, gantryZ), 0.3, looks::WHITE,
                               "insulator string"));
  }
  const double busH = 6.0;
  for (int k = 0; k < 3; ++k) {
    const double z = busZ + (k - 1) * 1.5;
    p.parts.push_back(tubePart(cyl, dvec3(-padW / 2 + 6.0, busH, z), dvec3(padW / 2 - 6.0, busH, z),
                               0.2, looks::ALUMINIUM, "bus tube"));
  }
  for (double x = -padW / 2 + 6.0; x <= padW / 2 - 6.0 + 1e-6; x += pitch) {
    p.parts.push_back(
        boxPart(box, dvec3(x, busH / 2, busZ), dvec3(0.4, busH, 3.6), looks::STEEL, "bus post"));
  }
  for (int i = 0; i < count; ++i) {
    const double x = -padW / 2 + 6.0 + pitch * (i + 0.5);
    for (int k = 0; k < 3; ++k) {
      const dvec3 at(x + (k - 1) * 1.5, 0.1, breakerZ);
      p.parts.push_back(
          boxPart(box, at + dvec3(0, 1.2, 0), dvec3(0.3, 2.4, 0.3), looks::STEEL, "breaker leg"));
      p.parts.push_back(boxPart(box, at + dvec3(0, 2.9, 0), dvec3(0.9, 1.0, 0.9), looks::STEEL,
                                "circuit breaker"));
      p.parts.push_back(tubePart(cyl, at + dvec3(0, 3.4, 0), at + dvec3(0, busH, -4.5), 0.12,
                                 looks::ALUMINIUM, "bus drop"));
    }
    p.children.push_back(placeChild(trId, dvec3(x, 0.1, trZ), "transformer" + std::to_string(i)));
    if (i + 1 < count) {
      p.parts.push_back(boxPart(box, dvec3(x + pitch / 2, 0.1 + th * 0.6, trZ),
                                dvec3(0.4, th * 1.2, td + 2.0), looks::CONCRETE, "fire wall"));
    }
  }
  const double houseZ = padD / 2 - 6.0;
  p.parts.push_back(boxPart(box, dvec3(0, 2.1, houseZ), dvec3(padW * 0.6, 4.0, 6.0), looks::WHITE,
                            "switchgear building"));
  p.parts.push_back(boxPart(box, dvec3(0, 2.6, houseZ - 3.03), dvec3(padW * 0.5, 0.8, 0.06),
                            looks::WINDOW, "switchgear windows"));
  addFence(p, box, dvec3(0, 0.1, 0), padW, padD, FENCE_HEIGHT_M);
  for (int s = -1; s <= 1; s += 2)
    addLampPosts(p, box, dvec3(-padW / 2 + 2.0, 0, s * (padD / 2 - 1.5)),
                 dvec3(padW / 2, 0, s * (padD / 2 - 1.5)), LAMP_HEIGHT_M);
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
  const double rowSpan = (hallCount - 1) * pitch;
  const double roadZ = hallD / 2 + spacing / 2;

  // Each hall's shell (one per hall prototype) and generator yard (one per genset count): the
  // gensets cover the hall's share of a full hall's provisioned power.
  const PrototypeId genset = buildGenset(ctx);
  std::map<uint32_t, PrototypeId> shells;  // by hall prototype index
  std::map<int, PrototypeId> yards;
  const double fullHall_W = dims.number("hall.provisioned_power_W");
  const double genL = dims.meters("generator.length");
  const double yardD = 2 * genL + GENSET_LANE_M + 2 * YARD_MARGIN_M;
  const double yardZ = hallBox.min.z - YARD_SETBACK_M - yardD / 2;

  Prototype p;
  p.name = "campus";
  p.lod = proxyLod(looks::GRASS, 0.0f);
  p.lod.hasProxy = false;
  // What stands on the site's grass and hides its top there: the hall buildings' roofs (their
  // walls close the sides), the yards' and the substation's pads, the roads (below). Each is drawn
  // wherever the grass is (a building or a generator yard has no proxy; a closed substation or
  // cooling yard is its bounds' box, over its pad).
  std::vector<Footprint> onGrass;
  auto padOf = [&](const ChildInstance& child, const std::string& part) {
    for (const Part& q : ctx.scene.prototype(child.prototype).parts) {
      if (q.name != part) continue;
      const Aabb b = transformAabb(child.local, q.bounds);
      onGrass.push_back({{b.min.x, b.min.z}, {b.max.x, b.max.z}});
    }
  };
  for (int i = 0; i < hallCount; ++i) {
    const double x = -rowSpan / 2 + i * pitch;
    const PrototypeId which = i == 0 ? heroHall : (i == hallCount - 1 ? lastHall : hall);
    p.children.push_back(placeChild(which, dvec3(x, 0, 0), "hall" + std::to_string(i)));
    // The plant's header pipes (its most -Z extent) end at the hall's front wall; the yard itself
    // sits one hall spacing away, across the road. Its header pipes (local x = 0) line up with
    // the hall's centre.
    const double plantZ = hallBox.max.z - plantBox.min.z;
    p.children.push_back(placeChild(plant, dvec3(x, 0, plantZ), "cooling" + std::to_string(i)));
    padOf(p.children.back(), "cooling yard pad");
    auto shell = shells.find(which.index);
    if (shell == shells.end())
      shell =
          shells.emplace(which.index, buildHallShell(ctx, ctx.scene.prototype(which).bounds)).first;
    p.children.push_back(placeChild(shell->second, dvec3(x, 0, 0), campusBuildingName(i)));
    padOf(p.children.back(), "hall roof");
    const int gensets =
        standbyGensets(dims, fullHall_W * hallRacks[size_t(i)] / std::max(1, desc.hall.rackCount));
    auto yard = yards.find(gensets);
    if (yard == yards.end())
      yard = yards.emplace(gensets, buildGensetYard(ctx, genset, gensets)).first;
    p.children.push_back(
        placeChild(yard->second, dvec3(x + hallBox.center().x, 0, yardZ), campusGensetYardName(i)));
    padOf(p.children.back(), "yard gravel");
  }
  // The substation stands off the first hall's -X end across the road, beside the first cooling
  // yard, turned so that its line side (its -Z) faces -X: the line comes in from beyond the
  // site's end along the entrance road.
  const PrototypeId substation = buildSubstation(ctx);
  const Aabb subLocal = ctx.scene.prototype(substation).bounds;
  const double subYaw = glm::half_pi<double>();
  const Aabb subBox = transformAabb(glm::rotate(glm::dmat4(1.0), subYaw, dvec3(0, 1, 0)), subLocal);
  const double subX =
      -rowSpan / 2 + std::min(hallBox.min.x, plantBox.min.x) - SUBSTATION_SETBACK_M - subBox.max.x;
  const double subZ = roadZ + ROAD_WIDTH_M / 2 + SUBSTATION_SETBACK_M - subBox.min.z;
  p.children.push_back(placeChild(substation, dvec3(subX, 0, subZ), CAMPUS_SUBSTATION, subYaw));
  padOf(p.children.back(), "substation gravel");
  // The gantry (4 m inside the pad's line edge) turned with it: local -Z is world -X.
  const double gantryX = subX + subLocal.min.z + 4.0 + 0.1;
  p.children.push_back(placeChild(buildTransmissionLine(ctx, TRANSMISSION_TOWERS),
                                  dvec3(gantryX, 0, subZ), CAMPUS_LINE));

  // The site: a fenced plot of grass holding the halls and yards, asphalt roads in front of the
  // halls and behind the generator yards, lights along them and round the fence.
  const double siteX0 = subX + subBox.min.x - SITE_MARGIN_M;
  const double siteX1 = rowSpan / 2 + pitch / 2 + SITE_MARGIN_M;
  const double siteZ0 = yardZ - yardD / 2 - ROAD_WIDTH_M - SITE_MARGIN_M;
  const double siteZ1 =
      std::max(hallBox.max.z - plantBox.min.z + plantBox.max.z, subZ + subBox.max.z) +
      SITE_MARGIN_M;
  const double siteW = siteX1 - siteX0, siteD = siteZ1 - siteZ0;
  const double siteCX = (siteX0 + siteX1) / 2, siteCZ = (siteZ0 + siteZ1) / 2;
  // The ground's top sits 2 cm below the slabs and pads that stand on it (no coplanar faces).
  // It is four slabs round the site, whose grass covers the rest: the ground's top under it would
  // cost a software rasterizer as much again as the site itself (it shades hidden faces too).
  // Without edge lines: the seams between the slabs would run from the site's corners to the
  // horizon (the one ground's edges lay 1.5 km out, in the haze).
  Look field = looks::FIELD;
  field.detail = 0;
  auto groundSlab = [&](double x0, double x1, double z0, double z1) {
    p.parts.push_back(boxPart(box, dvec3((x0 + x1) / 2, -0.27, (z0 + z1) / 2),
                              dvec3(x1 - x0, 0.5, z1 - z0), field, "ground"));
  };
  const double g = ground / 2;
  groundSlab(-g, siteX0, -g, g);
  groundSlab(siteX1, g, -g, g);
  groundSlab(siteX0, siteX1, -g, siteZ0);
  groundSlab(siteX0, siteX1, siteZ1, g);
  // Farm fields round the site in a second tone, every other cell of a grid; under the site's
  // grass a field is hidden: not drawn there.
  const Footprint site = footprintAt({siteCX, siteCZ}, {siteW, siteD});
  const int cells = int(ground / FIELD_CELL_M);
  for (int a = 0; a < cells; ++a) {
    for (int b = 0; b < cells; ++b) {
      if ((a + b) % 2 == 0) continue;
      const double fx = -ground / 2 + (a + 0.5) * FIELD_CELL_M;
      const double fz = -ground / 2 + (b + 0.5) * FIELD_CELL_M;
      const Footprint field = footprintAt({fx, fz}, glm::dvec2(FIELD_CELL_M - 8.0));
      const glm::dvec2 lo = glm::max(field.min, site.min), hi = glm::min(field.max, site.max);
      if (lo.x >= hi.x || lo.y >= hi.y) {
        p.parts.push_back(groundPart(box, fx, fz, FIELD_CELL_M - 8.0, FIELD_CELL_M - 8.0,
                                     FIELDS_TOP_M, looks::GRASS, "field"));
      } else if (lo != field.min || hi != field.max) {
        addBoxUnder(ctx, p, dvec3(fx, FIELDS_TOP_M - 0.005, fz),
                    dvec3(FIELD_CELL_M - 8.0, 0.01, FIELD_CELL_M - 8.0), looks::GRASS, "field",
                    {site});
      }
    }
  }
  const double serviceZ = yardZ - yardD / 2 - ROAD_WIDTH_M;
  for (double z : {roadZ, serviceZ}) {
    p.parts.push_back(groundPart(box, siteCX, z, siteW - 10.0, ROAD_WIDTH_M, ROAD_TOP_M,
                                 looks::ASPHALT, "site road"));
    onGrass.push_back(footprintAt({siteCX, z}, {siteW - 10.0, ROAD_WIDTH_M}));
    const double lampZ = z - ROAD_WIDTH_M / 2 - 1.0;
    addLampPosts(p, box, dvec3(siteX0 + 10.0, 0, lampZ), dvec3(siteX1 - 10.0, 0, lampZ),
                 LAMP_HEIGHT_M);
  }
  // The entrance road off the site's -X end, and a cross road joining the two.
  p.parts.push_back(groundPart(box, siteX0 - 150.0, roadZ, 300.0 - 0.1, ROAD_WIDTH_M, ROAD_TOP_M,
                               looks::ASPHALT, "entrance road"));
  const double crossX = siteX0 + 15.0;
  p.parts.push_back(groundPart(box, crossX, (roadZ + serviceZ) / 2, ROAD_WIDTH_M,
                               roadZ - serviceZ - ROAD_WIDTH_M - 0.1, ROAD_TOP_M, looks::ASPHALT,
                               "cross road"));
  onGrass.push_back(footprintAt({crossX, (roadZ + serviceZ) / 2},
                                {ROAD_WIDTH_M, roadZ - serviceZ - ROAD_WIDTH_M - 0.1}));
  addBoxUnder(ctx, p, dvec3(siteCX, SITE_TOP_M - 0.005, siteCZ), dvec3(siteW, 0.01, siteD),
              looks::GRASS, "site grass", onGrass);
  addFence(p, box, dvec3(siteCX, 0.0, siteCZ), siteW - 2.0, siteD - 2.0, FENCE_HEIGHT_M);
  // Perimeter lights just inside the fence, all the way round.
  const dvec3 corners[4] = {
      dvec3(siteX0 + 3.0, 0, siteZ0 + 3.0), dvec3(siteX1 - 3.0, 0, siteZ0 + 3.0),
      dvec3(siteX1 - 3.0, 0, siteZ1 - 3.0), dvec3(siteX0 + 3.0, 0, siteZ1 - 3.0)};
  for (int k = 0; k < 4; ++k) addLampPosts(p, box, corners[k], corners[(k + 1) % 4], LAMP_HEIGHT_M);
  return ctx.scene.add(std::move(p));
}

}  // namespace world
