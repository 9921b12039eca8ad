// Systems: compute and switch trays, power shelves, the NVL72 rack, network racks, CDUs, rows.
#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "world/builders/builders.h"
#include "world/scene/procedural_textures.h"

namespace world {
namespace {

// The rack back's cartridges and couplings open only when the eye is behind the rack and near
// (the rack_back station's framing gives a cartridge about 170 px): half a hall's rows turn their
// backs to any eye, and every rack's back opened would add 2,000 triangles.
constexpr float BACK_OPEN_PX = 150.0f;
// A network rack's fibre riser (drawing sizes): its inset from the rack's front right corner
// (x, z), its diameter, and the roof's brush grommet it passes through (width, height).
constexpr glm::dvec2 NETWORK_RISER_INSET_M{0.08, 0.06};
constexpr double NETWORK_RISER_M = 0.06;
// A 1U blanking panel (drawing sizes): its sheet and the seam between two.
constexpr double BLANK_PANEL_M = 0.003;
constexpr double BLANK_GAP_M = 0.001;
constexpr float BLANKS_OPEN_PX = 200.0f;
constexpr glm::dvec2 GROMMET_M{0.14, 0.012};
// Cable looms drawn per spine cartridge: a stripe pattern dense enough to read as thousands of
// twinax cables at the rack_back framing (a layout choice, not a cable count).
constexpr int LOOMS_PER_CARTRIDGE = 8;

using glm::dvec3;

// One NVLink spine cartridge, `height` tall from its base: a black box of twinax looms facing the
// rack's back. Its connectors face the trays and the copper is inside the jackets, so neither
// shows from behind (docs: visual brief, rack_back) and neither is drawn.
PrototypeId buildSpineCartridge(BuildContext& ctx, double w, double height, double d) {
  const MeshId box = ctx.meshes.box;
  Prototype p;
  p.name = "NVLink spine cartridge";
  p.lod = proxyLod(looks::NIC, BACK_OPEN_PX);
  p.lod.openSide = glm::vec3(0, 0, -1);  // the looms face the rack's back
  p.parts.push_back(boxPart(box, dvec3(0, height / 2, 0), dvec3(w, height, d * 0.8),
                            looks::DARK_STEEL, "cartridge housing"));
  const double loomW = w / LOOMS_PER_CARTRIDGE;
  for (int i = 0; i < LOOMS_PER_CARTRIDGE; ++i) {
    const double x = -w / 2 + loomW * (i + 0.5);
    p.parts.push_back(tubePart(ctx.meshes.cylinderLow, dvec3(x, 0, -d / 2 + loomW / 2),
                               dvec3(x, height, -d / 2 + loomW / 2), loomW * 0.9,
                               looks::CABLE_JACKET, "twinax cable loom"));
  }
  return ctx.scene.add(std::move(p));
}

// The quick-disconnect collars on one of the rack's vertical coolant manifolds, one at every
// slot in `slotsY` (heights above the manifold's base) where a tray's hoses couple on. Nothing
// stands for them when small: the manifold itself stays.
PrototypeId buildManifoldCouplings(BuildContext& ctx, double diameter,
                                   const std::vector<double>& slotsY) {
  Prototype p;
  p.name = "manifold quick disconnects";
  p.lod = proxyLod(looks::NICKEL, BACK_OPEN_PX);
  p.lod.hasProxy = false;
  p.lod.openSide = glm::vec3(0, 0, -1);  // seen from the rack's back
  const double collar = 0.02;            // a QD coupling's length along the pipe
  for (double y : slotsY) {
    p.parts.push_back(tubePart(ctx.meshes.cylinderLow, dvec3(0, y - collar / 2, 0),
                               dvec3(0, y + collar / 2, 0), diameter * 1.5, looks::NICKEL,
                               "quick disconnect"));
  }
  return ctx.scene.add(std::move(p));
}

}  // namespace

// A steel 1U chassis: pan, side walls, front panel and (closed) a lid.
void addChassis(Prototype& p, const BuildContext& ctx, double w, double h, double d, bool lid,
                Look front) {
  const MeshId box = ctx.meshes.box;
  const double sheet = 0.001;  // 1 mm steel sheet
  p.parts.push_back(
      boxPart(box, dvec3(0, sheet / 2, 0), dvec3(w, sheet, d), looks::STEEL, "chassis pan"));
  for (int side = -1; side <= 1; side += 2) {
    p.parts.push_back(boxPart(box, dvec3(side * (w / 2 - sheet / 2), h / 2, 0), dvec3(sheet, h, d),
                              looks::STEEL, "chassis side"));
  }
  p.parts.push_back(boxPart(box, dvec3(0, h / 2, d / 2 - 0.0015), dvec3(w, h * 0.96, 0.003), front,
                            "front panel"));
  if (lid) {
    p.parts.push_back(
        boxPart(box, dvec3(0, h - sheet / 2, 0), dvec3(w, sheet, d - 0.003), looks::STEEL, "lid"));
  }
}

// A row of OSFP cages on a switch's front: a steel cage block, a dark opening per cage and a green
// LED per port above it. Its own prototype, so that from afar it is one silver strip (its proxy)
// and only near the eye opens into cages (a few pixels each).
constexpr float CAGE_ROW_OPEN_PX = 40.0f;
// The strip from afar: its cages' average (openings cover about 80 % of it, the steel the rest),
// no edge lines (a strip a pixel or two high would be all edge).
constexpr Look CAGE_ROW_FAR{0.0380f, 0.0400f, 0.0450f, 0.00f, 0.35f, 0, 1.0f, 0.0f, false, 0, 0, 0};
PrototypeId buildOsfpCageRow(BuildContext& ctx, int cages) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double cw = dims.meters("osfp.cage_width"), ch = dims.meters("osfp.cage_height");
  const double pitch = dims.meters("osfp.cage_pitch");
  const double rowW = cages * pitch, rowH = ch + 0.002;  // a 1 mm steel rim above and below
  Prototype p;
  p.name = "OSFP cage row";
  p.lod = proxyLod(CAGE_ROW_FAR, CAGE_ROW_OPEN_PX);
  // The block stands 2 mm proud of the face; the openings and LEDs 0.5 mm proud of the block.
  p.parts.push_back(
      boxPart(box, dvec3(0, 0, 0.001), dvec3(rowW, rowH, 0.002), looks::STEEL, "OSFP cage block"));
  for (int i = 0; i < cages; ++i) {
    const double x = -rowW / 2 + pitch * (i + 0.5);
    // In the 2.4 mm gap right of its cage.
    p.parts.push_back(boxPart(box, dvec3(x, 0, 0.00225), dvec3(cw, ch, 0.0005), looks::NIC,
                              "OSFP cage " + std::to_string(i)));
    p.parts.push_back(boxPart(box, dvec3(x + (pitch + cw) / 4, 0.5 * ch - 0.0015, 0.00225),
                              dvec3(0.001, 0.002, 0.0005), looks::LED, "port LED"));
  }
  return ctx.scene.add(std::move(p));
}

Part tubePart(MeshId mesh, const dvec3& from, const dvec3& to, double diameter, Look look,
              std::string name) {
  const dvec3 axis = to - from;
  const double length = glm::length(axis);
  const dvec3 y = length > 0 ? axis / length : dvec3(0, 1, 0);
  // Any orthonormal frame whose Y is the tube axis.
  const dvec3 helper = std::abs(y.x) < 0.9 ? dvec3(1, 0, 0) : dvec3(0, 0, 1);
  const dvec3 x = glm::normalize(glm::cross(helper, y));
  const dvec3 z = glm::cross(x, y);
  glm::dmat4 m(1.0);
  m[0] = glm::dvec4(x * diameter, 0);
  m[1] = glm::dvec4(y * length, 0);
  m[2] = glm::dvec4(z * diameter, 0);
  m[3] = glm::dvec4(0.5 * (from + to), 1);
  Part part;
  part.mesh = mesh;
  part.local = m;
  part.look = look;
  part.name = std::move(name);
  return part;
}

PrototypeId buildSwitchTray(BuildContext& ctx) {
  const Dimensions& dims = ctx.dims;
  const double w = dims.meters("compute_tray.width"), d = dims.meters("compute_tray.depth");
  const double h = dims.number("switch_tray.height_u") * dims.rackUnit_m();
  Prototype p;
  p.name = "NVLink switch tray (" + std::to_string(dims.count("switch_tray.switch_chips")) +
           " switch chips)";
  p.component = component::SWITCH_TRAY;
  p.lod = proxyLod(looks::NIC, TRAY_OPEN_PX);
  p.lod.proxyFaces = ProxyFaces::Ends;  // in its slot between trays: only its front and back show
  addChassis(p, ctx, w, h, d, true, looks::NIC);
  // A plain front, unlike the compute trays' grilles and cages: its NVLink ports face the copper
  // spine at the back. At the left its management ports, each with a link LED; at the right a
  // status LED per switch chip. No LED line: between the compute trays' lit lines the nine
  // switch trays read as the rack's dark middle band.
  const MeshId box = ctx.meshes.box;
  const double portW = dims.meters("switch_tray.management_port_width");
  const double portH = dims.meters("switch_tray.management_port_height");
  for (int i = 0; i < dims.count("switch_tray.management_ports"); ++i) {
    const double x = -w / 2 + 0.03 + i * (portW + 0.004);
    p.parts.push_back(boxPart(box, dvec3(x, h / 2, d / 2 + 0.001), dvec3(portW, portH, 0.002),
                              looks::DARK_STEEL, "management port"));
    p.parts.push_back(boxPart(box, dvec3(x + portW / 3, h / 2 + portH / 2 + 0.002, d / 2 + 0.001),
                              dvec3(0.003, 0.002, 0.002), looks::LED, "link LED"));
  }
  for (int k = 0; k < dims.count("switch_tray.switch_chips"); ++k) {
    p.parts.push_back(boxPart(box, dvec3(w / 2 - 0.03 - k * 0.012, h * 0.7, d / 2 + 0.001),
                              dvec3(0.004, 0.003, 0.002), looks::LED, "switch chip status LED"));
  }
  return ctx.scene.add(std::move(p));
}

PrototypeId buildPowerShelf(BuildContext& ctx) {
  const Dimensions& dims = ctx.dims;
  const double w = dims.meters("compute_tray.width"), d = dims.meters("compute_tray.depth");
  const double h = dims.number("nvl72_rack.power_shelf_height_u") * dims.rackUnit_m();
  const int psus = dims.count("nvl72_rack.psus_per_shelf");
  Prototype p;
  p.name = "power shelf";
  p.component = component::POWER_SHELF;
  p.lod = proxyLod(looks::DARK_STEEL, TRAY_OPEN_PX);
  p.lod.proxyFaces = ProxyFaces::Ends;  // in its slot between trays: only its front and back show
  addChassis(p, ctx, w, h, d, true, looks::DARK_STEEL);
  for (int i = 0; i < psus; ++i) {
    const double cell = w / psus;
    p.parts.push_back(boxPart(ctx.meshes.box,
                              dvec3(-w / 2 + cell * (i + 0.5), h / 2, d / 2 + 0.002),
                              dvec3(cell * 0.9, h * 0.8, 0.004),
                              withPattern(looks::ALUMINIUM, Pattern::Perforation,
                                          dims.meters("surface_detail.bezel_hole_pitch")),
                              "power supply " + std::to_string(i)));
  }
  return ctx.scene.add(std::move(p));
}

void addCabinetFrame(Prototype& p, MeshId box, const dvec3& size, double cap_m) {
  const double W = size.x, H = size.y, D = size.z;
  const double post = CABINET_POST_M, panel = CABINET_PANEL_M, cap = cap_m;
  for (int sx = -1; sx <= 1; sx += 2) {
    for (int sz = -1; sz <= 1; sz += 2) {
      p.parts.push_back(
          boxPart(box, dvec3(sx * (W / 2 - panel - post / 2), H / 2, sz * (D / 2 - post / 2)),
                  dvec3(post, H, post), looks::DARK_STEEL, "rack post"));
    }
    p.parts.push_back(boxPart(box, dvec3(sx * (W / 2 - panel / 2), H / 2, 0), dvec3(panel, H, D),
                              looks::DARK_STEEL, "side panel"));
  }
  p.parts.push_back(
      boxPart(box, dvec3(0, cap / 2, 0), dvec3(W, cap, D), looks::DARK_STEEL, "base"));
  p.parts.push_back(
      boxPart(box, dvec3(0, H - cap / 2, 0), dvec3(W, cap, D), looks::DARK_STEEL, "top"));
}

PrototypeId buildNvl72Rack(BuildContext& ctx, const RackDesc& desc) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double W = dims.meters("nvl72_rack.width"), D = dims.meters("nvl72_rack.depth");
  const double H = dims.meters("nvl72_rack.height");
  const double U = dims.rackUnit_m();
  const double trayD = dims.meters("compute_tray.depth");
  const double trayW = dims.meters("compute_tray.width");
  const int computeTrays = dims.count("nvl72_rack.compute_trays");
  const int switchTrays = dims.count("nvl72_rack.switch_trays");
  const int shelves = dims.count("nvl72_rack.power_shelves");
  Prototype p;
  p.name = desc.hero ? "GB200 NVL72 rack (hero)" : "GB200 NVL72 rack";
  if (!desc.hero) p.component = component::RACK;
  p.lod = proxyLod(looks::DARK_STEEL, 60.0f);
  p.lod.closedInContext = true;  // in the rows behind the row station's hero
  // In a row its sides stand against its neighbours' (a CDU at one end, the leaf racks at the
  // other, all as high): its proxy's sides never show. Not the hero's: its proxy reaches out to
  // its pulled-out tray, past its neighbours' fronts.
  p.lod.proxyFaces = desc.hero ? ProxyFaces::Box : ProxyFaces::EndsAndTop;
  const double post = CABINET_POST_M, panel = CABINET_PANEL_M, cap = 0.05;
  addCabinetFrame(p, box, dvec3(W, H, D), cap);

  // Slots from the top: power shelves, compute trays, switch trays, compute trays, power.
  const PrototypeId compute = buildComputeTray(ctx, TrayDesc{.hero = false});
  const PrototypeId heroTray = desc.hero ? buildComputeTray(ctx, TrayDesc{.hero = true}) : compute;
  const PrototypeId sw = buildSwitchTray(ctx);
  const PrototypeId power = buildPowerShelf(ctx);
  const int upperCompute = (computeTrays + 1) / 2 + 1;  // 10 above the switches, 8 below
  const int totalU = shelves + computeTrays + switchTrays;
  const double stackTop = H - (H - totalU * U) / 2;
  double y = stackTop;
  const double trayZ = D / 2 - 0.02 - trayD / 2;
  // The front: every compute tray's scale-out fibres gather at its right into one bundle that
  // climbs to the raceway over the rack. Its thickness: the fibres' total section at the 60 %
  // fill of a loose bundle. The fibres belong to the rack, not the tray: a tray's proxy box is
  // its chassis, not the air its cables hang in.
  const PrototypeId trayFibres = buildScaleOutFibres(ctx);
  const double fibres = computeTrays * dims.count("compute_tray.nics");
  const double bundleD = dims.meters("osfp.fibre_diameter") * std::sqrt(fibres / 0.6);
  const double bundleX = trayFibreSideX_m(trayW), bundleZ = trayZ + trayD / 2 + 0.03;
  // From the hall the rack is its proxy box, whose front is the cables' front: the trays' LED
  // lines show just in front of it.
  const double proxyFrontZ =
      std::max({D / 2, bundleZ + bundleD / 2,
                trayZ + trayD / 2 + ctx.scene.prototype(trayFibres).bounds.max.z});
  int computeIndex = 0, switchIndex = 0, shelfIndex = 0;
  double lowestComputeY = y;
  std::vector<double> traySlotsY;  // the middle of every compute and switch tray's slot
  auto place = [&](PrototypeId id, const std::string& name, double pull) {
    y -= U;
    p.children.push_back(placeChild(id, dvec3(0, y, trayZ + pull), name));
  };
  auto placeTray = [&](PrototypeId id, const std::string& name, double pull) {
    place(id, name, pull);
    traySlotsY.push_back(y + U / 2);
  };
  auto placeCompute = [&]() {
    const bool hero = desc.hero && computeIndex == desc.heroTrayIndex;
    placeTray(hero ? heroTray : compute, "compute_tray" + std::to_string(computeIndex),
              hero ? desc.pullOut_m : 0.0);
    // The hero tray is pulled out for service, its fibres unplugged.
    if (!hero) {
      p.children.push_back(placeChild(trayFibres, dvec3(0, y, trayZ + trayD / 2),
                                      "scale_out_fibres" + std::to_string(computeIndex)));
      p.lod.farParts.push_back(trayLedLine(ctx.meshes.frontFace, trayW, U,
                                           dvec3(0, y, proxyFrontZ + 0.001), LED_LINE_FAR_H_M));
    }
    lowestComputeY = y;
    ++computeIndex;
  };
  const double spineTop = y - (shelves / 2) * U;
  for (int i = 0; i < shelves / 2; ++i)
    place(power, "power_shelf" + std::to_string(shelfIndex++), 0);
  for (int i = 0; i < std::min(upperCompute, computeTrays); ++i) placeCompute();
  for (int i = 0; i < switchTrays; ++i)
    placeTray(sw, "switch_tray" + std::to_string(switchIndex++), 0);
  while (computeIndex < computeTrays) placeCompute();
  const double spineBottom = y;
  while (shelfIndex < shelves) place(power, "power_shelf" + std::to_string(shelfIndex++), 0);
  // The rack units the stack leaves free above and below it (its 48U against 8 shelves and 27
  // trays) are closed by 1U blanking panels in the trays' front plane, as a rack is kept so that
  // hot air cannot come back round to the fronts: the bays read filled, not empty. They open
  // only near (the rack station), where they are seen: in the row's racks they would only draw
  // over the dark bays again.
  Prototype blanks;
  blanks.name = "blanking panels";
  blanks.lod.hasProxy = false;
  blanks.lod.hiddenWhenSmall = true;
  blanks.lod.openPixels = BLANKS_OPEN_PX;
  const double blankZ = trayZ + trayD / 2 - BLANK_PANEL_M / 2;
  for (const auto& [from, to] : {std::pair{stackTop, H - cap}, std::pair{cap, y}}) {
    for (double u = from; u + U <= to + 1e-9; u += U) {
      blanks.parts.push_back(boxPart(box, dvec3(0, u + U / 2, blankZ),
                                     dvec3(trayW, U - BLANK_GAP_M, BLANK_PANEL_M), looks::NIC,
                                     "1U blanking panel"));
    }
  }
  if (!blanks.parts.empty())
    p.children.push_back(placeChild(ctx.scene.add(std::move(blanks)), dvec3(0.0), "blanks"));
  // The stack's top, seen from above through the open front between the cap and the top shelf:
  // the shelves' and trays' proxies draw their ends alone (ProxyFaces::Ends). Just under the top
  // shelf's lid, which hides it when the shelf opens.
  const double sheet = 0.001;
  p.parts.push_back(boxPart(box, dvec3(0, stackTop - 1.5 * sheet - sheet / 2, trayZ),
                            dvec3(trayW - 2 * sheet, sheet, trayD - 0.006), looks::DARK_STEEL,
                            "tray stack top"));

  p.parts.push_back(tubePart(ctx.meshes.cylinderLow, dvec3(bundleX, lowestComputeY, bundleZ),
                             dvec3(bundleX, H, bundleZ), bundleD, looks::FIBRE_CABLE,
                             "scale-out fibre bundle"));

  // The back: the NVLink spine's cartridges either side of the DC busbar, and the coolant
  // manifolds with a quick disconnect at every tray.
  const double spineD = dims.meters("nvl72_rack.spine_depth");
  const double spineZ = -D / 2 + post + spineD / 2;
  const int cartridges = dims.count("nvl72_rack.spine_cartridges");
  const double busbarW = dims.meters("nvl72_rack.busbar_width");
  const double spineH = spineTop - spineBottom;
  const double cartridgeW = spineCartridgeX_m(dims, trayW, 0).y;
  const PrototypeId cartridge = buildSpineCartridge(ctx, cartridgeW * 0.94, spineH, spineD);
  for (int i = 0; i < cartridges; ++i) {
    const double x = spineCartridgeX_m(dims, trayW, i).x;
    p.children.push_back(placeChild(cartridge, dvec3(x, spineBottom, spineZ),
                                    "spine_cartridge" + std::to_string(i)));
  }
  p.parts.push_back(boxPart(box, dvec3(0, H / 2, spineZ), dvec3(busbarW, H - 2 * cap, 0.012),
                            looks::COPPER, "DC busbar"));
  const double manifold = dims.meters("nvl72_rack.manifold_diameter");
  std::vector<double> manifoldSlotsY;
  for (double slot : traySlotsY) manifoldSlotsY.push_back(slot - cap);
  const PrototypeId couplings = buildManifoldCouplings(ctx, manifold, manifoldSlotsY);
  for (int k = 0; k < 2; ++k) {
    const double x = (k == 0 ? -1 : 1) * (W / 2 - panel - post - manifold / 2 - 0.005);
    const dvec3 base(x, cap, -D / 2 + post + manifold);
    p.parts.push_back(tubePart(ctx.meshes.cylinder, base, dvec3(x, H - cap, base.z), manifold,
                               k == 0 ? looks::COOLANT_SUPPLY : looks::COOLANT_RETURN,
                               k == 0 ? "coolant supply manifold" : "coolant return manifold"));
    p.children.push_back(
        placeChild(couplings, base, k == 0 ? "supply_couplings" : "return_couplings"));
  }
  // Closed, its back still reads: the manifolds and the busbar as strips just behind the proxy's
  // back face (the rows behind the row station's hero turn their backs to it), each the unit
  // box's front face turned to -Z, so that from the front nothing of them is drawn.
  static const glm::dmat4 TURNED = glm::rotate(glm::dmat4(1.0), M_PI, dvec3(0, 1, 0));
  auto backStrip = [&](double x, double width, Look look, const char* name) {
    Part strip = boxPart(ctx.meshes.frontFace, dvec3(x, H / 2, -D / 2 - 0.001),
                         dvec3(width, H - 2 * cap, 0.001), look, name);
    strip.local = strip.local * TURNED;
    return strip;
  };
  p.lod.farParts.push_back(backStrip(0, busbarW, looks::COPPER, "DC busbar (far)"));
  for (int k = 0; k < 2; ++k) {
    const double x = (k == 0 ? -1 : 1) * (W / 2 - panel - post - manifold / 2 - 0.005);
    p.lod.farParts.push_back(backStrip(x, manifold,
                                       k == 0 ? looks::COOLANT_SUPPLY : looks::COOLANT_RETURN,
                                       k == 0 ? "coolant supply (far)" : "coolant return (far)"));
  }
  return ctx.scene.add(std::move(p));
}

namespace {

// A switch's proxy (and the top of a packed stack of them) without edge lines: switches packed 1U
// apart would be all seams, a grey face.
constexpr Look SWITCH_FAR = [] {
  Look far = looks::NIC;
  far.detail = 0;
  return far;
}();

// A 1U InfiniBand switch (the modelled leaves and spines, reference A.9: QM9700): a black
// chassis with its OSFP cages in rows across the front, each row its own prototype (see
// buildOsfpCageRow); the strip above the rows is where a PFC pause lights (world/live/traffic).
// `faces`: its proxy's (ProxyFaces), as its rack stacks it.
PrototypeId buildFabricSwitch(BuildContext& ctx, double height_m, ProxyFaces faces) {
  const Dimensions& dims = ctx.dims;
  const double swW = dims.meters("fabric_switch.width"), swD = dims.meters("fabric_switch.depth");
  const int rows = dims.count("fabric_switch.cage_rows");
  const int perRow = (dims.count("fabric_switch.osfp_cages") + rows - 1) / rows;
  const double rowH = dims.meters("osfp.cage_height") + 0.002;
  Prototype sw;
  sw.name = "InfiniBand leaf switch";
  sw.component = component::LEAF_SWITCH;
  const Look far = SWITCH_FAR;
  sw.lod = proxyLod(far, 60.0f);
  sw.lod.proxyFaces = faces;
  if (faces == ProxyFaces::Ends) {
    // Packed, the 2 mm between one chassis and the next shows a sliver of the lower one's top,
    // lit: a broken seam across the stack's front. Its proxy has no top; this strip stands for
    // that sliver (the unit box's +Z face turned up).
    static const glm::dmat4 UP = glm::rotate(glm::dmat4(1.0), -M_PI / 2, dvec3(1, 0, 0));
    const double chassisTop = height_m * 0.975, sliver = 0.01;
    Part seam = boxPart(ctx.meshes.frontFace, dvec3(0, chassisTop - 0.0005, swD / 2 - sliver / 2),
                        dvec3(swW, 0.001, sliver), far, "top seam");
    seam.local = seam.local * UP;
    sw.lod.farParts.push_back(seam);
  }
  const double chassisH = height_m * 0.95;
  sw.parts.push_back(boxPart(ctx.meshes.box, dvec3(0, height_m / 2, 0), dvec3(swW, chassisH, swD),
                             looks::NIC, "switch chassis"));
  const PrototypeId row = buildOsfpCageRow(ctx, perRow);
  // Rows stacked from the chassis' foot with 1.5 mm between them (belly-to-belly cages).
  const double foot = height_m * 0.025 + 0.001;
  for (int r = 0; r < rows; ++r) {
    const double y = foot + rowH / 2 + r * (rowH + 0.0015);
    sw.children.push_back(placeChild(row, dvec3(0, y, swD / 2), "cage_row" + std::to_string(r)));
  }
  return ctx.scene.add(std::move(sw));
}

}  // namespace

int networkRacksFor(const Dimensions& dims, int switchCount) {
  const double U = dims.number("network_rack.switch_height_u") * dims.rackUnit_m();
  const int perRack = int(std::floor((dims.meters("network_rack.height") - 0.3) / U));
  return std::max(1, (switchCount + perRack - 1) / perRack);
}

PrototypeId buildNetworkRack(BuildContext& ctx, int switchCount) {
  std::vector<std::string> names;
  for (int i = 0; i < switchCount; ++i) names.push_back("switch" + std::to_string(i));
  return buildNetworkRack(ctx, names, "network rack", rowTrayUnderside_m(ctx.dims));
}

glm::dvec2 networkRiser_m(const Dimensions& dims) {
  return {dims.meters("network_rack.width") / 2 - NETWORK_RISER_INSET_M.x,
          dims.meters("network_rack.depth") / 2 - NETWORK_RISER_INSET_M.y};
}

PrototypeId buildNetworkRack(BuildContext& ctx, const std::vector<std::string>& switches,
                             const std::string& title, double riserTop_m) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double W = dims.meters("network_rack.width"), D = dims.meters("network_rack.depth");
  const double H = dims.meters("network_rack.height");
  const double U = dims.number("network_rack.switch_height_u") * dims.rackUnit_m();
  const double swD = dims.meters("fabric_switch.depth");

  Prototype p;
  p.name = title;
  p.component = component::NETWORK_RACK;
  p.lod = proxyLod(looks::NIC, 120.0f);
  p.parts.push_back(boxPart(box, dvec3(-W / 2 + 0.01, H / 2, 0), dvec3(0.02, H, D),
                            looks::DARK_STEEL, "side panel"));
  p.parts.push_back(boxPart(box, dvec3(W / 2 - 0.01, H / 2, 0), dvec3(0.02, H, D),
                            looks::DARK_STEEL, "side panel"));
  p.parts.push_back(
      boxPart(box, dvec3(0, H - 0.025, 0), dvec3(W, 0.05, D), looks::DARK_STEEL, "top"));
  p.parts.push_back(boxPart(box, dvec3(0, 0.025, 0), dvec3(W, 0.05, D), looks::DARK_STEEL, "base"));
  p.parts.push_back(boxPart(box, dvec3(0, H / 2, -D / 2 + 0.01), dvec3(W, H, 0.02),
                            looks::DARK_STEEL, "back panel"));
  // A 1U gap between switches while the stack fits (air and cabling), else packed.
  const int count = int(switches.size());
  const bool packed = 0.2 + (count + 1) * 2 * U > H - 0.1;
  const double pitch = packed ? U : 2 * U;
  // Between the side panels only a switch's front and back show, and its top through the gap
  // above it; packed, the top of the stack alone (drawn below).
  const PrototypeId swId =
      buildFabricSwitch(ctx, U, packed ? ProxyFaces::Ends : ProxyFaces::EndsAndTop);
  const double swZ = D / 2 - 0.02 - swD / 2;
  for (int i = 0; i < count; ++i) {
    const double y = H - 0.2 - (i + 1) * pitch;
    p.children.push_back(placeChild(swId, dvec3(0, y, swZ), switches[size_t(i)]));
  }
  if (packed && count > 0) {
    // The stack's top, just under the top switch's chassis top (buildFabricSwitch: 95 % of its
    // unit, centred), which hides it when the switch opens.
    const double top = H - 0.2 - pitch + 0.975 * U;
    const double swW = dims.meters("fabric_switch.width");
    p.parts.push_back(boxPart(box, dvec3(0, top - 0.002, swZ),
                              dvec3(swW - 0.002, 0.001, swD - 0.006), SWITCH_FAR,
                              "switch stack top"));
  }
  const glm::dvec2 riser = networkRiser_m(dims);
  p.parts.push_back(tubePart(
      ctx.meshes.cylinderLow, dvec3(riser.x, std::max(0.1, H - 0.2 - (count + 1) * pitch), riser.y),
      dvec3(riser.x, riserTop_m, riser.y), NETWORK_RISER_M, looks::FIBER, "fibre bundle"));
  p.parts.push_back(boxPart(box, dvec3(riser.x, H + GROMMET_M.y / 2, riser.y),
                            dvec3(GROMMET_M.x, GROMMET_M.y, GROMMET_M.x), looks::NIC,
                            "roof brush grommet"));
  return ctx.scene.add(std::move(p));
}

PrototypeId buildCdu(BuildContext& ctx) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double W = dims.meters("cdu.width"), D = dims.meters("cdu.depth"),
               H = dims.meters("cdu.height");
  Prototype p;
  p.name = "coolant distribution unit";
  p.component = component::CDU;
  p.lod = proxyLod(looks::WHITE, 30.0f);
  p.parts.push_back(boxPart(box, dvec3(0, H / 2, 0), dvec3(W, H, D), looks::WHITE, "CDU cabinet"));
  p.parts.push_back(boxPart(box, dvec3(0, H * 0.75, D / 2 + 0.005), dvec3(0.25, 0.15, 0.01),
                            Look{0.1f, 0.5f, 0.9f, 0.8f, 0.2f}, "CDU display"));
  const double pipe = dims.meters("nvl72_rack.manifold_diameter") * 2;
  for (int k = 0; k < 2; ++k) {
    const double x = (k == 0 ? -0.15 : 0.15);
    p.parts.push_back(tubePart(ctx.meshes.cylinder, dvec3(x, H, -0.2), dvec3(x, H + 0.5, -0.2),
                               pipe, k == 0 ? looks::COOLANT_SUPPLY : looks::COOLANT_RETURN,
                               k == 0 ? "secondary supply" : "secondary return"));
  }
  return ctx.scene.add(std::move(p));
}

double rowLength_m(const Dimensions& dims, int rackCount, const SystemLayout& system) {
  const int cabinets = (rackCount + system.domainsPerCabinet - 1) / system.domainsPerCabinet;
  const int leaves = std::max(1, system.fabric.leavesPerRow);
  return system.fabric.cdusPerRow * dims.meters("cdu.width") +
         cabinets * cabinetSize_m(dims, system).x +
         networkRacksFor(dims, leaves) * dims.meters("network_rack.width");
}

std::vector<std::string> leafSwitchNames(const Dimensions& dims, const SystemLayout& system) {
  const FabricCounts& f = system.fabric;
  std::vector<std::string> names;
  if (f.leavesPerRow == 0) {  // no engine: the catalog's stack
    for (int i = 0; i < dims.count("network_rack.switches"); ++i)
      names.push_back("switch" + std::to_string(i));
    return names;
  }
  for (int j = 0; j < f.leavesPerRow; ++j)
    names.push_back("leaf" + std::to_string(j) + "_rail" +
                    std::to_string(j % std::max(1, f.rails)));
  return names;
}

PrototypeId buildRow(BuildContext& ctx, const RowDesc& desc) {
  const Dimensions& dims = ctx.dims;
  const SystemLayout& sys = desc.system;
  const glm::dvec3 cabinet = cabinetSize_m(dims, sys);
  const double rackW = cabinet.x, rackD = cabinet.z, H = cabinet.y;
  const double cduW = dims.meters("cdu.width"), netW = dims.meters("network_rack.width");
  const double length = rowLength_m(dims, desc.rackCount, sys);
  Prototype p;
  p.name = desc.hero ? "row (hero scalable unit)" : "row (scalable unit)";
  p.lod = proxyLod(looks::DARK_STEEL, 20.0f);
  double x = -length / 2;
  // In-row, the CDU's front lines up with the racks' on the cold aisle; its extra depth goes to
  // the hot aisle side (centred, it would stand proud of the rack fronts).
  const double cduZ = 0.5 * (rackD - dims.meters("cdu.depth"));
  const PrototypeId cdu = buildCdu(ctx);
  for (int i = 0; i < sys.fabric.cdusPerRow; ++i) {
    p.children.push_back(placeChild(cdu, dvec3(x + cduW / 2, 0, cduZ),
                                    i == 0 ? std::string("cdu") : "cdu" + std::to_string(i)));
    x += cduW;
  }
  if (sys.chassis()) {
    // Cabinets of HGX systems; each system is an NVLink domain, so the row's "rack<k>".
    const PrototypeId frame = buildHgxCabinet(ctx, sys);
    const PrototypeId system = buildHgxSystem(ctx, sys, false);
    const PrototypeId heroSystem = desc.hero ? buildHgxSystem(ctx, sys, true) : system;
    const std::vector<double> slots = hgxSlotHeights_m(dims, sys);
    const double sysD = dims.meters(sys.systemId + ".depth");
    const double sysZ = rackD / 2 - HGX_FRONT_INSET_M - sysD / 2;
    for (int k = 0; k < desc.rackCount; ++k) {
      const int c = k / sys.domainsPerCabinet, slot = k % sys.domainsPerCabinet;
      const double cx = x + rackW * (c + 0.5);
      // "rack_cabinet<c>": the rack station's studio keeps the row's "rack" siblings, cabinets and
      // systems alike; not "rack<n>", which names an NVLink domain (RackMap, the overlays).
      if (slot == 0)
        p.children.push_back(
            placeChild(frame, dvec3(cx, 0, 0), "rack_cabinet" + std::to_string(c)));
      const bool hero = desc.hero && k == desc.heroRackIndex;
      // The hero system is pulled out of its cabinet for service, as the NVL72's hero tray is.
      p.children.push_back(placeChild(hero ? heroSystem : system,
                                      dvec3(cx, slots[size_t(slot)], sysZ + (hero ? 0.5 : 0.0)),
                                      "rack" + std::to_string(k)));
    }
    x += rackW * ((desc.rackCount + sys.domainsPerCabinet - 1) / sys.domainsPerCabinet);
  } else {
    const PrototypeId rack = buildNvl72Rack(ctx, RackDesc{.hero = false});
    const PrototypeId heroRack = desc.hero ? buildNvl72Rack(ctx, RackDesc{.hero = true}) : rack;
    for (int i = 0; i < desc.rackCount; ++i) {
      const bool hero = desc.hero && i == desc.heroRackIndex;
      p.children.push_back(placeChild(hero ? heroRack : rack, dvec3(x + rackW / 2, 0, 0),
                                      "rack" + std::to_string(i)));
      x += rackW;
    }
  }
  // The leaf switches the row's NICs land on, in as many network racks as they need.
  const std::vector<std::string> leaves = leafSwitchNames(dims, sys);
  const int leafRacks = networkRacksFor(dims, int(leaves.size()));
  const size_t perRack = (leaves.size() + size_t(leafRacks) - 1) / size_t(leafRacks);
  for (int r = 0; r < leafRacks; ++r) {
    const auto first = leaves.begin() + long(std::min(leaves.size(), r * perRack));
    const auto last = leaves.begin() + long(std::min(leaves.size(), (r + 1) * perRack));
    const PrototypeId leafRack = buildNetworkRack(ctx, std::vector<std::string>(first, last),
                                                  "network rack", rowTrayUnderside_m(dims));
    p.children.push_back(
        placeChild(leafRack, dvec3(x + netW / 2, 0, 0),
                   r == 0 ? std::string("leaf_rack") : "leaf_rack" + std::to_string(r)));
    x += netW;
  }
  // Overhead: the cable tray over the fronts, coolant pipes over the backs.
  const double trayY = dims.meters("row.cable_tray_height");
  const double trayW = dims.meters("row.cable_tray_width");
  p.parts.push_back(boxPart(ctx.meshes.box, dvec3(0, trayY, ROW_TRAY_Z_M),
                            dvec3(length, ROW_TRAY_THICKNESS_M, trayW), looks::CABLE_TRAY,
                            "overhead cable tray"));
  const double pipe = dims.meters("nvl72_rack.manifold_diameter") * 3;
  for (int k = 0; k < 2; ++k) {
    const double z = -0.35 - 0.15 * k, y = H + 0.3 + 0.15 * k;
    p.parts.push_back(tubePart(ctx.meshes.cylinder, dvec3(-length / 2, y, z),
                               dvec3(length / 2, y, z), pipe,
                               k == 0 ? looks::COOLANT_SUPPLY : looks::COOLANT_RETURN,
                               k == 0 ? "row coolant supply" : "row coolant return"));
  }
  return ctx.scene.add(std::move(p));
}

}  // namespace world
