// Facility: data hall, cooling plant, and the fence and lamp posts round their yards.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "world/builders/builders.h"

namespace world {
namespace {

using glm::dvec3;

// Drawing sizes (not hardware): what makes a hall, a yard or a campus read from afar, sized so
// that it shows at the station's distance.
constexpr double SECTION_WALL_M = 1.2;  // the cut walls on the camera's sides of a hall
constexpr double JOINT_PITCH_M = 6.0;   // slab joints
// The hall's ceiling (drawing sizes): the trusses' top under the roof, their steel sections, the
// light strips' carrier runners (along Z, this far apart) and how far below them the strips hang;
// the ceiling opens only near (the hall station), like the drops.
constexpr double TRUSS_BELOW_ROOF_M = 0.1;
constexpr double TRUSS_STEEL_M = 0.12;
constexpr double RUNNER_PITCH_M = 6.0;
constexpr double LIGHT_HANG_M = 0.6;
constexpr float CEILING_OPEN_PX = 300.0f;
// The cooling yard's insulated pipes (drawing sizes): the cold side's axis height and the warm
// side's (above the cold pipes they cross, below the coolers' fan decks), the supply and feed
// headers either side of the yard's centre lane, and the colour bands on the cladding.
constexpr double PIPE_LOW_M = 0.9;
constexpr double PIPE_HIGH_M = 2.1;
constexpr double CENTRE_LANE_PIPE_X_M = 0.9;
constexpr double PIPE_BAND_PITCH_M = 8.0;
constexpr double PIPE_BAND_M = 0.4;
constexpr float PIPE_DETAIL_OPEN_PX = 300.0f;
// The fibre drop from the fabric trunk down into a row's tray (a drawing size).
constexpr double TRUNK_DROP_M = 0.2;
// The trunk's rungs and fibre open only near (the fabric station); from the hall and the campus
// it is one yellow box, as it was.
constexpr float TRUNK_OPEN_PX = 200.0f;
constexpr double FENCE_POST_PITCH_M = 4.0;
constexpr double LAMP_PITCH_M = 30.0;

constexpr double DOOR_LEAF_GAP_M = 0.02;  // between a containment door's two sliding leaves
constexpr double WATERFALL_LEAN_RAD = glm::quarter_pi<double>();  // the spill's curve, as a 45° lip

// Whether a child of a row is a cabinet standing on the floor (fed by the busway): the CDUs,
// the leaf racks and the compute racks (an HGX row's "rack<k>" are systems in "rack_cabinet<c>").
bool isCabinet(const std::string& name, bool hgxRow) {
  if (name.rfind("cdu", 0) == 0 || name.rfind("leaf_rack", 0) == 0) return true;
  if (hgxRow) return name.rfind("rack_cabinet", 0) == 0;
  return name.rfind("rack", 0) == 0;
}

// What drops from the row's overhead to its cabinets, in the row's own frame: the busway along
// the row beside the raceway (the row's "overhead cable tray"), a tap-off box with its cord down
// to every cabinet, and a raceway waterfall with its fibre bundle down to every compute cabinet
// (its scale-out NICs' cables). Placed as the row is.
PrototypeId buildRowDrops(BuildContext& ctx, PrototypeId rowId, const SystemLayout& system) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const Prototype& row = ctx.scene.prototype(rowId);
  Aabb tray = row.bounds;
  for (const Part& part : row.parts)
    if (part.name == "overhead cable tray") tray = part.bounds;
  bool hgxRow = false;
  for (const ChildInstance& child : row.children)
    hgxRow |= child.name.rfind("rack_cabinet", 0) == 0;
  // The cabinets' roofs (their prototypes' bounds reach higher: a CDU's pipe risers, a leaf
  // rack's fibre riser).
  const auto topOf = [&](const std::string& name) {
    if (name.rfind("cdu", 0) == 0) return dims.meters("cdu.height");
    if (name.rfind("leaf_rack", 0) == 0) return dims.meters("network_rack.height");
    return cabinetSize_m(dims, system).y;
  };
  const double busW = dims.meters("busway.width"), busH = dims.meters("busway.height");
  // Level with the raceway, beside it on its back side: a power lane and a data lane over every
  // row, both in sight from above (the coolant pipes run lower and further back, over the backs).
  const double busY = tray.center().y;
  const double busZ = tray.min.z - busW / 2;
  const double tapW = dims.meters("busway.tap_off_width"),
               tapH = dims.meters("busway.tap_off_height");
  const double tapD = dims.meters("busway.tap_off_depth");
  const double cord = dims.meters("busway.drop_diameter");
  const double fallW = dims.meters("raceway.waterfall_width");
  const double bundle = dims.meters("raceway.drop_diameter");
  const dvec3 fallSize(fallW, fallW, fallW * 0.6);
  // Half the turned box's height: its bounds' top touches the raceway's underside.
  const double fallHalfY =
      0.5 * (fallSize.y * std::cos(WATERFALL_LEAN_RAD) + fallSize.z * std::sin(WATERFALL_LEAN_RAD));
  Prototype p;
  p.name = "row busway and drops";
  // Far off, one grey box: opened at the campus station, the halls' drops (under their roofs,
  // out of sight) would add about 20,000 triangles to its frame.
  p.lod = proxyLod(looks::DARK_STEEL, 25.0f);
  p.parts.push_back(boxPart(box, dvec3(row.bounds.center().x, busY, busZ),
                            dvec3(row.bounds.size().x, busH, busW), looks::BUSWAY, "busway"));
  const double tapTop = busY - busH / 2;
  for (const ChildInstance& child : row.children) {
    if (!isCabinet(child.name, hgxRow)) continue;
    const double x = child.local[3].x;
    const double top = topOf(child.name);
    p.parts.push_back(boxPart(box, dvec3(x, tapTop - tapH / 2, busZ), dvec3(tapW, tapH, tapD),
                              looks::BUSWAY, "tap-off " + child.name));
    p.parts.push_back(tubePart(ctx.meshes.cylinderLow, dvec3(x, tapTop - tapH, busZ),
                               dvec3(x, top, busZ), cord, looks::CABLE_JACKET,
                               "power drop " + child.name));
    // The leaf racks' fibre rises in their own bundle (buildNetworkRack); the CDUs have none.
    if (child.name.rfind("cdu", 0) == 0 || child.name.rfind("leaf_rack", 0) == 0) continue;
    // The waterfall spills over the raceway's front edge (over the rack fronts, where the ports
    // are), its turned box just under the raceway; the bundle falls from it to the rack top.
    const double lipZ = tray.max.z - fallW / 2;
    const double lipY = tray.min.y - fallHalfY;
    p.parts.push_back(tiltedBoxPart(box, dvec3(x, lipY, lipZ), fallSize, WATERFALL_LEAN_RAD,
                                    looks::CABLE_TRAY, "waterfall " + child.name));
    p.parts.push_back(tubePart(ctx.meshes.cylinderLow, dvec3(x, lipY, lipZ), dvec3(x, top, lipZ),
                               bundle, looks::FIBER, "fibre drop " + child.name));
  }
  return ctx.scene.add(std::move(p));
}

// A hot aisle's containment between two rows' backs, `length` along X and `gap` across: a roof
// of black panels, one per rack pitch (their joints draw as edge lines, so it reads as a roof of
// panels and not as a dark gap between the rows), the faint hot-aisle line along it, and a pair
// of sliding door leaves at each end. Its frame: the aisle's centre on the floor.
PrototypeId buildHotAisleContainment(BuildContext& ctx, double length, double gap, double height,
                                     double panelPitch) {
  const MeshId box = ctx.meshes.box;
  Prototype p;
  p.name = "hot-aisle containment";
  // Far off, one black box: the closed aisle it is.
  p.lod = proxyLod(looks::CONTAINMENT, 20.0f);
  const int panels = std::max(1, int(std::ceil(length / panelPitch - 1e-9)));
  for (int k = 0; k < panels; ++k) {
    const double x0 = -length / 2 + k * panelPitch, x1 = std::min(length / 2, x0 + panelPitch);
    p.parts.push_back(boxPart(box, dvec3((x0 + x1) / 2, height + 0.02, 0),
                              dvec3(x1 - x0, 0.04, gap), looks::CONTAINMENT, "containment roof"));
  }
  p.parts.push_back(boxPart(box, dvec3(0, height + 0.045, 0), dvec3(length, 0.01, 0.08),
                            looks::HOT_AISLE, "hot aisle line"));
  for (int e = -1; e <= 1; e += 2) {
    for (int leaf = -1; leaf <= 1; leaf += 2) {
      p.parts.push_back(boxPart(box, dvec3(e * length / 2, height / 2, leaf * gap / 4),
                                dvec3(0.04, height, gap / 2 - DOOR_LEAF_GAP_M), looks::CONTAINMENT,
                                "containment door"));
    }
  }
  return ctx.scene.add(std::move(p));
}

}  // namespace

// A box part turned by `angle_rad` about the X axis through its centre (the dry coolers' V-coils).
Part tiltedBoxPart(MeshId mesh, const dvec3& center, const dvec3& size, double angle_rad, Look look,
                   std::string name) {
  Part part = boxPart(mesh, center, size, look, std::move(name));
  part.local = glm::translate(glm::dmat4(1.0), center) *
               glm::rotate(glm::dmat4(1.0), angle_rad, dvec3(1, 0, 0)) *
               glm::translate(glm::dmat4(1.0), -center) * part.local;
  return part;
}

// A fence of posts and two rails round a w x d rectangle centred at `center` (its base).
void addFence(Prototype& p, MeshId box, const dvec3& center, double w, double d, double height) {
  const double half[2] = {w / 2, d / 2};
  for (int side = 0; side < 4; ++side) {
    const bool alongX = side < 2;
    const double s = side % 2 == 0 ? -1.0 : 1.0;
    const double length = alongX ? w : d;
    const dvec3 mid = center + (alongX ? dvec3(0, 0, s * half[1]) : dvec3(s * half[0], 0, 0));
    const dvec3 railSize = alongX ? dvec3(length, 0.05, 0.05) : dvec3(0.05, 0.05, length);
    for (double y : {height * 0.5, height})
      p.parts.push_back(boxPart(box, mid + dvec3(0, y, 0), railSize, looks::STEEL, "fence rail"));
    const int posts = std::max(1, int(length / FENCE_POST_PITCH_M));
    for (int i = 0; i <= posts; ++i) {
      const double t = -length / 2 + length * i / posts;
      const dvec3 at = mid + (alongX ? dvec3(t, 0, 0) : dvec3(0, 0, t));
      p.parts.push_back(boxPart(box, at + dvec3(0, height / 2, 0), dvec3(0.08, height, 0.08),
                                looks::STEEL, "fence post"));
    }
  }
}

// Lamp posts every LAMP_PITCH_M on the ground from `from` to `to`, their heads at `height`.
void addLampPosts(Prototype& p, MeshId box, const dvec3& from, const dvec3& to, double height) {
  const double length = glm::length(to - from);
  const int posts = int(length / LAMP_PITCH_M);
  for (int i = 0; i <= posts; ++i) {
    const dvec3 at = from + (to - from) * (length > 0 ? i * LAMP_PITCH_M / length : 0.0);
    p.parts.push_back(boxPart(box, at + dvec3(0, height / 2, 0), dvec3(0.2, height, 0.2),
                              looks::DARK_STEEL, "lamp post"));
    p.parts.push_back(
        boxPart(box, at + dvec3(0, height, 0), dvec3(0.6, 0.2, 0.6), looks::LIGHT_STRIP, "lamp"));
  }
}

namespace {

// The carrier runners' axis height under the trusses, and the light strips' under the hangers.
double runnerY_m(const Dimensions& dims) {
  return dims.meters("hall.wall_height") - TRUSS_BELOW_ROOF_M -
         dims.meters("hall.roof_truss_depth") - TRUSS_STEEL_M / 2;
}
double lightStripY_m(const Dimensions& dims) {
  return runnerY_m(dims) - LIGHT_HANG_M - 0.03;
}

// The hall's ceiling, `innerW` x `innerD` inside its walls: a steel roof truss across X on every
// column line (a column at its +X end, where the cutaway's wall is low; the -X wall's columns
// carry the other), carrier runners along Z under the trusses, and the rods the light strips
// (the hall's own parts, at `stripZ`) hang from.
PrototypeId buildHallCeiling(BuildContext& ctx, double innerW, double innerD, double rowLen,
                             const std::vector<double>& stripZ) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double wallH = dims.meters("hall.wall_height"), pitch = dims.meters("hall.column_pitch");
  const double depth = dims.meters("hall.roof_truss_depth"), t = TRUSS_STEEL_M;
  const double top = wallH - TRUSS_BELOW_ROOF_M, bottom = top - depth;
  Prototype c;
  c.name = "hall ceiling: trusses, runners, light hangers";
  c.lod.hasProxy = false;
  c.lod.hiddenWhenSmall = true;
  c.lod.openPixels = CEILING_OPEN_PX;
  const double span = innerW - 1.2;  // between the two columns' faces
  const double x0 = -innerW / 2 + 0.6;
  for (double z = -innerD / 2 + pitch; z < innerD / 2 - 1.0; z += pitch) {
    c.parts.push_back(boxPart(box, dvec3(innerW / 2 - 0.3, wallH / 2, z), dvec3(0.6, wallH, 0.6),
                              looks::CONCRETE, "column"));
    for (const double y : {top - t / 2, bottom + t / 2})
      c.parts.push_back(
          boxPart(box, dvec3(0, y, z), dvec3(span, t, t), looks::DARK_STEEL, "roof truss chord"));
    // Warren web: diagonals a truss depth apart, alternating.
    const int bays = std::max(1, int(std::round(span / depth)));
    const double bay = span / bays;
    for (int k = 0; k < bays; ++k) {
      const double xa = x0 + k * bay, xb = xa + bay;
      const bool up = k % 2 == 0;
      c.parts.push_back(tubePart(ctx.meshes.cylinderLow, dvec3(xa, up ? bottom : top, z),
                                 dvec3(xb, up ? top : bottom, z), t * 0.6, looks::DARK_STEEL,
                                 "roof truss web"));
    }
  }
  const double runnerY = runnerY_m(dims);
  const int runners = std::max(1, int(rowLen / RUNNER_PITCH_M));
  for (int r = 0; r <= runners; ++r) {
    const double x = -rowLen / 2 + rowLen * r / runners;
    c.parts.push_back(boxPart(box, dvec3(x, runnerY, 0), dvec3(t * 0.5, t, innerD),
                              looks::DARK_STEEL, "light carrier runner"));
    for (const double z : stripZ) {
      c.parts.push_back(boxPart(box, dvec3(x, runnerY - LIGHT_HANG_M / 2, z),
                                dvec3(0.02, LIGHT_HANG_M, 0.02), looks::STEEL, "light hanger"));
    }
  }
  return ctx.scene.add(std::move(c));
}

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
  const double rackH = cabinetSize_m(dims, sys).y;
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
  // A cutaway: full dark walls at the back (-X, -Z), walls cut low at the front (+X, +Z, where
  // the station looks from), their cut faces in concrete; the roof is the campus's.
  for (int s = -1; s <= 1; s += 2) {
    const double h = s < 0 ? wallH : SECTION_WALL_M;
    p.parts.push_back(boxPart(box, dvec3(s * (innerW / 2 + wallT / 2), h / 2, 0),
                              dvec3(wallT, h, innerD + 2 * wallT), looks::WALL_DARK, "hall wall"));
    p.parts.push_back(boxPart(box, dvec3(0, h / 2, s * (innerD / 2 + wallT / 2)),
                              dvec3(innerW, h, wallT), looks::WALL_DARK, "hall wall"));
    if (s > 0) {
      p.parts.push_back(boxPart(box, dvec3(innerW / 2 + wallT / 2, h + 0.01, 0),
                                dvec3(wallT, 0.02, innerD + 2 * wallT), looks::CONCRETE,
                                "wall section"));
      p.parts.push_back(boxPart(box, dvec3(0, h + 0.01, innerD / 2 + wallT / 2),
                                dvec3(innerW, 0.02, wallT), looks::CONCRETE, "wall section"));
    }
  }
  const double columnPitch = dims.meters("hall.column_pitch");
  for (double x = -innerW / 2 + columnPitch; x < innerW / 2 - 1.0; x += columnPitch) {
    p.parts.push_back(boxPart(box, dvec3(x, wallH / 2, -innerD / 2 + 0.3), dvec3(0.6, wallH, 0.6),
                              looks::CONCRETE, "column"));
  }
  for (double z = -innerD / 2 + columnPitch; z < innerD / 2 - 1.0; z += columnPitch) {
    p.parts.push_back(boxPart(box, dvec3(-innerW / 2 + 0.3, wallH / 2, z), dvec3(0.6, wallH, 0.6),
                              looks::CONCRETE, "column"));
  }
  for (double x = -innerW / 2 + JOINT_PITCH_M; x < innerW / 2; x += JOINT_PITCH_M) {
    p.parts.push_back(
        boxPart(box, dvec3(x, 0.002, 0), dvec3(0.03, 0.004, innerD), looks::NIC, "slab joint"));
  }
  for (double z = -innerD / 2 + JOINT_PITCH_M; z < innerD / 2; z += JOINT_PITCH_M) {
    p.parts.push_back(
        boxPart(box, dvec3(0, 0.002, z), dvec3(innerW, 0.004, 0.03), looks::NIC, "slab joint"));
  }

  const PrototypeId fullRow =
      buildRow(ctx, RowDesc{.rackCount = perRow, .hero = false, .system = sys});
  const PrototypeId heroRow =
      desc.hero ? buildRow(ctx, RowDesc{.rackCount = perRow, .hero = true, .system = sys})
                : fullRow;
  const int lastCount = rackCount - (rows - 1) * perRow;
  const PrototypeId lastRow =
      lastCount == perRow ? fullRow : buildRow(ctx, RowDesc{.rackCount = lastCount, .system = sys});
  // One containment for every hot aisle (the rows' full length: a short last row's aisle is
  // closed all the same).
  std::optional<PrototypeId> containment;
  if (rows > 1)
    containment = buildHotAisleContainment(ctx, rowLen, hot, rackH, cabinetSize_m(dims, sys).x);
  // One set of drops per kind of row, placed with every row of that kind.
  std::vector<std::pair<PrototypeId, PrototypeId>> drops;
  const auto dropsOf = [&](PrototypeId row) {
    for (const auto& [r, d] : drops)
      if (r == row) return d;
    drops.emplace_back(row, buildRowDrops(ctx, row, sys));
    return drops.back().second;
  };
  const double fabricZ = -innerD / 2 + margin + netD / 2;
  const double zoneZ = -innerD / 2 + margin + netD + frontZone / 2;
  double z = -innerD / 2 + margin + netD + frontZone + rackD / 2;
  std::vector<double> rowTrayZ;  // each row's cable tray, across the hall
  std::vector<double> stripZ;    // the light strips over the cold aisles and the front zone
  for (int i = 0; i < rows; ++i) {
    PrototypeId row = i == rows - 1 ? lastRow : fullRow;
    if (i == 0 && desc.hero) row = heroRow;
    const int count = i == rows - 1 ? lastCount : perRow;
    const bool turned = i % 2 == 0;
    rowTrayZ.push_back(z + (turned ? -1 : 1) * ROW_TRAY_Z_M);
    // Rows are centred on their own length; a short row keeps its leaf-rack end in line.
    const double shift = (rowLen - rowLength_m(dims, count, sys)) / 2;
    p.children.push_back(placeChild(row, dvec3(turned ? -shift : shift, 0, z),
                                    "row" + std::to_string(i), turned ? glm::pi<double>() : 0.0));
    p.children.push_back(placeChild(dropsOf(row), dvec3(turned ? -shift : shift, 0, z),
                                    "row" + std::to_string(i) + "_drops",
                                    turned ? glm::pi<double>() : 0.0));
    if (i + 1 < rows) {
      const bool hotAisle = i % 2 == 0;  // row i is turned: its back faces row i + 1's back
      const double gap = hotAisle ? hot : cold;
      const double aisleZ = z + rackD / 2 + gap / 2;
      if (hotAisle) {
        p.children.push_back(
            placeChild(*containment, dvec3(0, 0, aisleZ), "hot_aisle" + std::to_string(i / 2)));
      } else {
        stripZ.push_back(aisleZ);
      }
      z += rackD + gap;
    }
  }
  const double lastRowZ = z;
  stripZ.push_back(zoneZ);
  // The strips themselves stay the hall's own parts: they light the hall at any size.
  for (const double sz : stripZ) {
    p.parts.push_back(boxPart(box, dvec3(0, lightStripY_m(dims), sz), dvec3(rowLen, 0.06, 0.2),
                              looks::LIGHT_STRIP, "light strip"));
  }
  p.children.push_back(
      placeChild(buildHallCeiling(ctx, innerW, innerD, rowLen, stripZ), dvec3(0.0), "ceiling"));

  // Fabric: spine/core switch racks across the end of the hall, and the cable trunk along Z over
  // the leaf-rack end of every row, up to them.
  const double trunkX = rowLen / 2 - netW / 2;
  Prototype spines;
  spines.name = "spine switch racks";
  spines.lod = proxyLod(looks::NIC, 30.0f);
  placeSwitchRacks(ctx, spineRacks, rowLen, trunkX, spines);
  Prototype fabric;
  fabric.name = "scale-out fabric (spine/core)";
  fabric.lod = proxyLod(looks::NIC, 25.0f);
  fabric.children.push_back(placeChild(ctx.scene.add(std::move(spines)), dvec3(0.0), "spine"));
  // The trunk goes on from the spines' tray over the rows' leaf-rack end, one level above their
  // trays, to past the last row; a drop of fibre joins it to each row's tray below.
  const double trunkY = fabricTrunkLevel_m(dims);
  const double trunkW = dims.meters("row.cable_tray_width");
  Prototype trunk;
  trunk.name = "fabric trunk to the rows";
  trunk.lod = proxyLod(looks::CABLE_TRAY, TRUNK_OPEN_PX);
  addLadderTray(trunk, dims, box, dvec3(trunkX, trunkY, netD / 2),
                dvec3(trunkX, trunkY, lastRowZ - fabricZ + rackD / 2), trunkW, "fabric trunk");
  fabric.children.push_back(placeChild(ctx.scene.add(std::move(trunk)), dvec3(0.0), "trunk"));
  // The drops, apart from the trunk: the fabric station shows the trunk without the rows.
  Prototype trunkDrops;
  trunkDrops.name = "fabric trunk drops to the rows";
  trunkDrops.lod = proxyLod(looks::FIBER, 25.0f);
  const double rowTrayTop = dims.meters("row.cable_tray_height") + ROW_TRAY_THICKNESS_M / 2;
  for (size_t i = 0; i < rowTrayZ.size(); ++i) {
    trunkDrops.parts.push_back(
        boxPart(box, dvec3(trunkX, (rowTrayTop + trunkY) / 2, rowTrayZ[i] - fabricZ),
                dvec3(TRUNK_DROP_M, trunkY - rowTrayTop, TRUNK_DROP_M), looks::FIBER,
                "trunk drop to row" + std::to_string(i)));
  }
  fabric.children.push_back(
      placeChild(ctx.scene.add(std::move(trunkDrops)), dvec3(0.0), "trunk_drops"));
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
  // A V-type cooler: two finned coil faces leaning out from a narrow base to the fan deck, end
  // frames, the deck with its fans in guard rings on top, legs under it.
  const double legH = H * 0.12;
  const double coilH = H - legH - 0.15;
  const double lean = std::atan2(W * 0.35, coilH);
  for (int s = -1; s <= 1; s += 2) {
    cooler.parts.push_back(tiltedBoxPart(
        box, dvec3(0, legH + coilH / 2, s * (W * 0.15 + W * 0.175)),
        dvec3(L * 0.96, coilH / std::cos(lean), 0.12), -s * lean, looks::ALUMINIUM, "coil bank"));
    cooler.parts.push_back(boxPart(box, dvec3(s * L / 2, legH + coilH / 2, 0),
                                   dvec3(0.12, coilH, W), looks::DARK_STEEL, "end frame"));
    cooler.parts.push_back(boxPart(box, dvec3(s * (L / 2 - 0.1), legH / 2, 0),
                                   dvec3(0.15, legH, W * 0.4), looks::DARK_STEEL, "frame leg"));
  }
  cooler.parts.push_back(
      boxPart(box, dvec3(0, H - 0.075, 0), dvec3(L, 0.15, W), looks::DARK_STEEL, "fan deck"));
  for (int i = 0; i < fans; ++i) {
    const double x = -L / 2 + L * (i + 0.5) / fans;
    cooler.parts.push_back(boxPart(cyl, dvec3(x, H + 0.1, 0), dvec3(fanD, 0.2, fanD), looks::NIC,
                                   "fan " + std::to_string(i)));
    cooler.parts.push_back(boxPart(cyl, dvec3(x, H + 0.22, 0),
                                   dvec3(fanD * 1.06, 0.04, fanD * 1.06), looks::STEEL,
                                   "fan guard"));
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

  // A rectangular induced-draft tower: a line of cells, louvred air inlets low on the long
  // sides, a fan stack on each cell's deck.
  const double cellW = dims.meters("cooling_tower.diameter"),
               towerH = dims.meters("cooling_tower.height");
  const int cells = std::max(1, dims.count("cooling_tower.cells"));
  const double towerFanD = dims.meters("cooling_tower.fan_diameter");
  const double towerL = cells * cellW;
  Prototype tower;
  tower.name = "cooling tower";
  tower.component = component::COOLING_TOWER;
  tower.lod = proxyLod(looks::CONCRETE, 30.0f);
  tower.parts.push_back(boxPart(box, dvec3(0, towerH * 0.45, 0), dvec3(cellW, towerH * 0.9, towerL),
                                looks::CONCRETE, "tower shell"));
  for (int s = -1; s <= 1; s += 2) {
    for (int k = 0; k < 5; ++k) {
      tower.parts.push_back(boxPart(box, dvec3(s * (cellW / 2 + 0.03), 0.6 + k * 0.7, 0),
                                    dvec3(0.06, 0.35, towerL * 0.96), looks::NIC, "louvre"));
    }
  }
  for (int c = 0; c < cells; ++c) {
    const double z = -towerL / 2 + cellW * (c + 0.5);
    tower.parts.push_back(boxPart(cyl, dvec3(0, towerH * 0.9 + 0.75, z),
                                  dvec3(towerFanD, 1.5, towerFanD), looks::STEEL, "fan stack"));
    tower.parts.push_back(boxPart(cyl, dvec3(0, towerH * 0.9 + 1.48, z),
                                  dvec3(towerFanD * 0.92, 0.06, towerFanD * 0.92), looks::NIC,
                                  "fan opening"));
    if (c > 0) {
      tower.parts.push_back(boxPart(box, dvec3(0, towerH * 0.45, z - cellW / 2),
                                    dvec3(cellW + 0.04, towerH * 0.9, 0.08), looks::STEEL,
                                    "cell joint"));
    }
  }
  const PrototypeId towerId = ctx.scene.add(std::move(tower));

  Prototype p;
  p.name = "cooling plant";
  p.lod = proxyLod(looks::ALUMINIUM, 20.0f);
  // Dry coolers in two columns, pumps and towers beside them, a header pipe pair through the yard.
  const int perColumn = (desc.dryCoolers + 1) / 2;
  const double pitchZ = W + 2.0;
  const double yardD = std::max(perColumn * pitchZ, towerL + 2.0) + 4.0;
  for (int i = 0; i < desc.dryCoolers; ++i) {
    const int col = i / perColumn, k = i % perColumn;
    const double x = (col == 0 ? -1 : 1) * (L / 2 + 2.0);
    p.children.push_back(placeChild(coolerId, dvec3(x, 0, -yardD / 2 + 2.0 + pitchZ * (k + 0.5)),
                                    "dry_cooler" + std::to_string(i)));
  }
  const double pumpX = L + 4.0 + pumpL / 2;
  const double pumpAxisY = pumpD / 2 + 0.2;  // the pump's shaft over its plinth (buildPump above)
  // The skid at the yard's +Z end, the end the station looks from.
  const auto pumpZ = [&](int i) { return yardD / 2 - 3.0 - i * (pumpD + 1.5); };
  for (int i = 0; i < desc.pumps; ++i)
    p.children.push_back(placeChild(pumpId, dvec3(pumpX, 0, pumpZ(i)), "pump" + std::to_string(i)));
  const double skidZ0 = pumpZ(std::max(0, desc.pumps - 1)) - pumpD, skidZ1 = pumpZ(0) + pumpD;
  p.parts.push_back(boxPart(box, dvec3(pumpX, 0.04, (skidZ0 + skidZ1) / 2),
                            dvec3(pumpL + 1.0, 0.08, skidZ1 - skidZ0), looks::DARK_STEEL,
                            "pump skid"));
  const double towerX0 = pumpX + pumpL + 2.0 + cellW / 2;
  for (int i = 0; i < desc.coolingTowers; ++i) {
    p.children.push_back(placeChild(towerId, dvec3(towerX0 + i * (cellW + 3.0), 0, 0),
                                    "cooling_tower" + std::to_string(i)));
  }

  // The facility water loop, in insulated pipe (aluminium cladding, a band of the water's colour
  // every few metres). Warm water from the hall comes in on the return header, outside the
  // coolers' +X column, to the pump skid's suction; the pumps lift it into the discharge manifold
  // over the skid, which crosses that column between its last two coolers into the feed header
  // in the yard's centre lane and goes on to the towers. Every cooler takes its branch from the
  // feed header and gives its cooled water to the supply header beside it (the cold side low, the
  // warm side high, so that the branches pass over and under the headers they cross), which runs
  // back to the hall; the towers' basins drain into it over the return header, past the coolers'
  // -Z end.
  const double header = dims.meters("pump.header_diameter");
  const double branch = dims.meters("pump.branch_diameter");
  const double toHall = -yardD / 2 - dims.meters("campus.hall_spacing");
  const double lowY = PIPE_LOW_M, highY = PIPE_HIGH_M;
  const double supplyX = -CENTRE_LANE_PIPE_X_M, feedX = CENTRE_LANE_PIPE_X_M;
  const double returnX = pumpX - pumpL / 2 - 1.0;  // between the coolers and the skid
  const double voluteX = pumpX - 0.2 * pumpL;      // the volute's centre (the pump above)
  const auto coolerZ = [&](int k) { return -yardD / 2 + 2.0 + pitchZ * (k + 0.5); };
  const double firstCoolerZ = coolerZ(0), lastCoolerZ = coolerZ(std::max(0, perColumn - 1));
  const double crossZ = lastCoolerZ - pitchZ / 2;
  const double towerFeedZ = (crossZ + skidZ0) / 2, basinZ = firstCoolerZ - pitchZ / 2;
  const double towerFace = towerX0 - cellW / 2;
  // The branches and the bands only where the plant is near: from the campus they are slivers
  // under a pixel wide that the rasterizer would shade block by block (the headers stay).
  Prototype detail;
  detail.name = "facility water branches and bands";
  detail.lod.hasProxy = false;
  detail.lod.hiddenWhenSmall = true;
  detail.lod.openPixels = PIPE_DETAIL_OPEN_PX;
  auto pipe = [&](dvec3 a, dvec3 b, double d, bool warm, std::string name) {
    (d >= header ? p : detail).parts.push_back(tubePart(cyl, a, b, d, looks::INSULATED_PIPE, name));
    const double len = glm::length(b - a);
    const int count = std::max(1, int(len / PIPE_BAND_PITCH_M));
    for (int k = 0; k < count; ++k) {
      const dvec3 c = a + (b - a) * ((k + 0.5) / count);
      const dvec3 half = (b - a) / len * (PIPE_BAND_M / 2);
      detail.parts.push_back(tubePart(cyl, c - half, c + half, d * 1.04,
                                      warm ? looks::COOLANT_RETURN : looks::COOLANT_SUPPLY,
                                      name + " band"));
    }
  };
  // The two headers to the hall first: the coolant overlay finds them by these names.
  const double supplyEnd = lastCoolerZ + branch;
  pipe(dvec3(supplyX, lowY, toHall), dvec3(supplyX, lowY, supplyEnd), header, false,
       "facility water supply header");
  pipe(dvec3(returnX, lowY, toHall), dvec3(returnX, lowY, skidZ1), header, true,
       "facility water return header");
  // The skid: suction stubs from the return header to each volute, discharge risers up to the
  // manifold over the skid.
  for (int i = 0; i < desc.pumps; ++i) {
    pipe(dvec3(returnX, pumpAxisY, pumpZ(i)), dvec3(pumpX - pumpL / 2, pumpAxisY, pumpZ(i)), branch,
         true, "pump suction " + std::to_string(i));
    pipe(dvec3(voluteX, pumpAxisY, pumpZ(i)), dvec3(voluteX, highY, pumpZ(i)), branch, true,
         "pump discharge " + std::to_string(i));
  }
  pipe(dvec3(voluteX, highY, crossZ - header / 2), dvec3(voluteX, highY, skidZ1), header, true,
       "pump discharge manifold");
  pipe(dvec3(voluteX, highY, crossZ), dvec3(feedX, highY, crossZ), header, true,
       "dry cooler feed crossing");
  pipe(dvec3(feedX, highY, firstCoolerZ - branch), dvec3(feedX, highY, crossZ + header / 2), header,
       true, "dry cooler feed header");
  for (int i = 0; i < desc.dryCoolers; ++i) {
    const int col = i / perColumn, k = i % perColumn;
    const double endX = (col == 0 ? -1 : 1) * 2.0;  // the end frame facing the lane (as placed)
    const double z = coolerZ(k);
    pipe(dvec3(feedX, highY, z), dvec3(endX, highY, z), branch, true,
         "dry cooler feed " + std::to_string(i));
    pipe(dvec3(endX, lowY, z), dvec3(supplyX, lowY, z), branch, false,
         "dry cooler outlet " + std::to_string(i));
  }
  // The towers in a line, each fed at its face from the discharge manifold (or the tower
  // before it), its basin drained towards the supply header.
  for (int i = 0; i < desc.coolingTowers; ++i) {
    const double x1 = towerFace + i * (cellW + 3.0), x0 = i == 0 ? voluteX : x1 - 3.0;
    pipe(dvec3(x0, highY, towerFeedZ), dvec3(x1, highY, towerFeedZ), branch, true,
         "cooling tower feed " + std::to_string(i));
    pipe(dvec3(i == 0 ? returnX + 1.0 : x0, lowY, basinZ), dvec3(x1, lowY, basinZ), branch, false,
         "cooling tower basin return " + std::to_string(i));
  }
  // The basins' water rises over the return header and drops into the supply header.
  if (desc.coolingTowers > 0) {
    const double riseX = returnX + 1.0;
    pipe(dvec3(riseX, lowY - branch / 2, basinZ), dvec3(riseX, highY, basinZ), branch, false,
         "cooling tower basin riser");
    pipe(dvec3(riseX, highY, basinZ), dvec3(supplyX, highY, basinZ), branch, false,
         "cooling tower basin crossing");
    pipe(dvec3(supplyX, highY + branch / 2, basinZ), dvec3(supplyX, lowY, basinZ), branch, false,
         "cooling tower basin drop");
  }
  p.children.push_back(placeChild(ctx.scene.add(std::move(detail)), dvec3(0.0), "pipe_detail"));
  // Pipe supports under the headers in the yard's centre lane, a gravel pad, a fence round it.
  for (double z = -yardD / 2 + 2.0; z < supplyEnd; z += 6.0) {
    p.parts.push_back(boxPart(box, dvec3(0, lowY - header / 2 - 0.075, z), dvec3(4.0, 0.15, 0.3),
                              looks::DARK_STEEL, "pipe support"));
    for (int s = -1; s <= 1; s += 2) {
      p.parts.push_back(boxPart(box, dvec3(s * 1.9, (lowY - header / 2) / 2, z),
                                dvec3(0.15, lowY - header / 2, 0.15), looks::DARK_STEEL,
                                "pipe support"));
    }
  }
  const double towersEnd = pumpX + pumpL + 2.0 + desc.coolingTowers * (cellW + 3.0);
  const double padMinX = -(L + 4.0) - 3.0, padMaxX = towersEnd + 3.0;
  const double padW = padMaxX - padMinX;
  p.parts.push_back(boxPart(box, dvec3((padMinX + padMaxX) / 2, 0.05, 0), dvec3(padW, 0.1, yardD),
                            looks::GRAVEL, "cooling yard pad"));
  addFence(p, box, dvec3((padMinX + padMaxX) / 2, 0.1, 0), padW - 0.5, yardD - 0.5, 2.4);
  return ctx.scene.add(std::move(p));
}

}  // namespace world
