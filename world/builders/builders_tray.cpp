// The GB200 compute tray: its front (E1.S bays, grille, OSFP and BlueField-3 cages, the LED line,
// the scale-out fibres), and with the lid off its dense interior (visual brief, "tray"): drives,
// NICs and DPUs at the front, 2 superchips under cold plates with their coolant tubes bending
// back to the quick disconnects, the power distribution board and the NVLink spine connectors at
// the rear.
#include <algorithm>
#include <cmath>

#include "world/builders/builders.h"
#include "world/scene/procedural_textures.h"

namespace world {
namespace {

using glm::dvec3;

// A tray's scale-out fibres show only near, a little after the tray opens (a few pixels a cable);
// smaller, nothing stands for them (LodDesc::hiddenWhenSmall).
constexpr float FIBRES_OPEN_PX = 60.0f;

// A compute tray's LED line: left of centre, near its foot (shares of the tray's width and
// height; a layout choice), a 2.5 mm light pipe.
constexpr double LED_LINE_X = -0.12, LED_LINE_WIDTH = 0.66, LED_LINE_Y = 0.12;
constexpr double LED_LINE_H_M = 0.0025, LED_LINE_D_M = 0.001;
// The bezel (grille, carriers, cages) stands this far proud of the front panel.
constexpr double BEZEL_T_M = 0.003;

// Front layout, metres from the tray's left edge or centre (layout choices, not catalog figures):
// the E1.S bays at the far left, the grille, then the NIC and DPU cages to the right.
constexpr double E1S_LEFT_M = 0.010, E1S_GAP_M = 0.001;
constexpr double GRILLE_LEFT_M = 0.075, GRILLE_RIGHT_X_M = -0.02;
constexpr double NIC_ROW_X_M = 0.035, DPU_GAP_M = 0.005;
// Coolant: the quick disconnects this far either side of the tray's centre (outboard of the spine
// connectors); the supply and return headers run across the tray this far in front of the rear
// wall, in front of the power board; the headers and the hoses to the quick disconnects are this
// many times a plate's tube thick.
constexpr double QD_X_M = 0.197, QD_IN_M = 0.03;
constexpr double SUPPLY_HEADER_IN_M = 0.175, RETURN_HEADER_IN_M = 0.155;
constexpr double HEADER_SCALE = 1.5;

// The x of every front NIC cage (the ConnectX-7 row, `nics` cages centred on NIC_ROW_X_M).
double nicPortX(const Dimensions& dims, int nics, int i) {
  const double pitch = dims.meters("osfp.cage_pitch");
  return NIC_ROW_X_M + (i - (nics - 1) / 2.0) * pitch;
}

// The centre x of BlueField-3 `k`'s two ports, right of the NIC row.
double dpuPortsX(const Dimensions& dims, int k) {
  const double pitch = dims.meters("osfp.cage_pitch");
  const double nicRight = NIC_ROW_X_M + dims.count("compute_tray.nics") * pitch / 2;
  return nicRight + DPU_GAP_M + (k + 0.5) * (2 * pitch + DPU_GAP_M);
}

}  // namespace

PrototypeId buildScaleOutFibres(BuildContext& ctx) {
  const Dimensions& dims = ctx.dims;
  const double trayW = dims.meters("compute_tray.width");
  const double trayH = dims.number("compute_tray.height_u") * dims.rackUnit_m();
  const int nics = dims.count("compute_tray.nics");
  const double cw = dims.meters("osfp.cage_width"), ch = dims.meters("osfp.cage_height");
  const double out = dims.meters("osfp.module_protrusion");
  const double fibre = dims.meters("osfp.fibre_diameter");
  Prototype p;
  p.name = "scale-out fibres";
  p.lod = proxyLod(looks::FIBER, FIBRES_OPEN_PX);
  p.lod.hasProxy = false;
  p.lod.hiddenWhenSmall = true;
  const double side = trayFibreSideX_m(trayW);
  // Out of the cages on the bezel's face.
  const double z0 = BEZEL_T_M;
  for (int i = 0; i < nics; ++i) {
    const double x = nicPortX(dims, nics, i);
    p.parts.push_back(boxPart(ctx.meshes.box, dvec3(x, trayH / 2, z0 + out / 2),
                              dvec3(0.9 * cw, 0.9 * ch, out), looks::ALUMINIUM,
                              "OSFP transceiver " + std::to_string(i)));
    // Out of the boot, then down and across to the side channel, each a little lower than the
    // last so that the cables fan instead of lying on one another.
    const dvec3 boot(x, trayH / 2, z0 + out);
    const dvec3 bend(x + 0.01, trayH / 2 - 0.006, z0 + out + 0.012);
    const dvec3 edge(side, trayH * (0.30 - 0.05 * i), z0 + out + 0.016 + 0.003 * i);
    p.parts.push_back(
        tubePart(ctx.meshes.cylinderLow, boot, bend, fibre, looks::FIBRE_CABLE, "fibre boot"));
    p.parts.push_back(
        tubePart(ctx.meshes.cylinderLow, bend, edge, fibre, looks::FIBRE_CABLE, "scale-out fibre"));
  }
  return ctx.scene.add(std::move(p));
}

namespace {

// The front: E1.S drive carriers with an activity LED each, the intake grille, the NIC and DPU
// cage rows and the LED line, on the bezel plane `z`.
void addTrayFront(BuildContext& ctx, Prototype& p, double w, double h, double z) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double e1sT = dims.meters("e1s.thickness"), e1sW = dims.meters("e1s.width");
  for (int i = 0; i < dims.count("compute_tray.e1s_drives"); ++i) {
    const double x = -w / 2 + E1S_LEFT_M + (e1sT + E1S_GAP_M) * (i + 0.5);
    p.parts.push_back(boxPart(box, dvec3(x, h / 2 + 0.002, z + 0.0015), dvec3(e1sT, e1sW, 0.003),
                              looks::DARK_STEEL, "E1.S drive carrier " + std::to_string(i)));
    p.parts.push_back(boxPart(box, dvec3(x, h / 2 + 0.002 + e1sW / 2 - 0.003, z + 0.0032),
                              dvec3(0.002, 0.002, 0.0005), looks::LED, "drive activity LED"));
  }
  const double holePitch = dims.meters("surface_detail.bezel_hole_pitch");
  const double grilleL = -w / 2 + GRILLE_LEFT_M;
  p.parts.push_back(boxPart(box, dvec3(0.5 * (grilleL + GRILLE_RIGHT_X_M), h / 2, z + 0.0015),
                            dvec3(GRILLE_RIGHT_X_M - grilleL, h * 0.8, 0.003),
                            withPattern(looks::NIC, Pattern::Perforation, holePitch),
                            "bezel grille"));
  const int nics = dims.count("compute_tray.nics");
  p.children.push_back(
      placeChild(buildOsfpCageRow(ctx, nics), dvec3(NIC_ROW_X_M, h / 2, z), "nic_cages"));
  // Each BlueField-3 shows its two ports.
  const PrototypeId dpuCages = buildOsfpCageRow(ctx, 2);
  for (int k = 0; k < dims.count("compute_tray.dpus"); ++k) {
    p.children.push_back(placeChild(dpuCages, dvec3(dpuPortsX(dims, k), h / 2, z),
                                    "bluefield3_ports" + std::to_string(k)));
  }
  // In front of the grille (3 mm deep).
  p.parts.push_back(trayLedLine(box, w, h, dvec3(0, 0, z + 0.0035), LED_LINE_H_M));
  // From the row, where the tray is its proxy box, the line still shows, just in front of it.
  // Only its front face: a far line is only ever seen from the aisle (2 triangles, not 12).
  p.lod.farParts.push_back(
      trayLedLine(ctx.meshes.frontFace, w, h, dvec3(0, 0, z + 0.0055), LED_LINE_FAR_H_M));
}

// The z (tray frame) of the supply or return header, `trayD` deep.
double headerZ(double trayD, bool supply) {
  return -trayD / 2 + (supply ? SUPPLY_HEADER_IN_M : RETURN_HEADER_IN_M);
}

// How far across the tray the headers must reach: the supply header from its quick disconnect
// (left) to the rightmost supply fitting, the return from the leftmost return fitting (right).
struct HeaderReach {
  double supplyMaxX = -1e9, returnMinX = 1e9;
};

// A cold plate's fittings and tubes (the catalog's b200_cold_plate figures: the same plate the
// package station lifts off).
struct Plumbing {
  double fittingD, fittingH, tubeD;
  explicit Plumbing(const Dimensions& dims)
      : fittingD(dims.meters("b200_cold_plate.fitting_diameter")),
        fittingH(dims.meters("b200_cold_plate.fitting_height")),
        tubeD(dims.meters("b200_cold_plate.tube_diameter")) {}
};

// A cold plate on a package whose top is at `at`: a copper base of `size`, a supply and a return
// fitting at its rear edge `fittingX` of its width either side of its centre (blue and red
// collars: the only coolant colour; the hoses are black EPDM), and hoses from them that rise to
// `runY`, run back and drop onto the header (visual brief, tray defect 2). `prefix` names the
// plate ("B200" or "Grace").
void addCooledPlate(BuildContext& ctx, Prototype& p, const Plumbing& pl, const std::string& prefix,
                    const dvec3& at, const dvec3& size, double fittingX, double runY, double trayD,
                    double headerY, HeaderReach& reach) {
  p.parts.push_back(boxPart(ctx.meshes.box, at + dvec3(0, size.y / 2, 0), size,
                            looks::COLD_PLATE_COPPER, prefix + " cold plate"));
  const std::string tube = prefix == "B200" ? "coolant " : prefix + " coolant ";
  for (int k = 0; k < 2; ++k) {
    const bool supply = k == 0;
    const double x = at.x + (supply ? -fittingX : fittingX) * size.x;
    const dvec3 fitting(x, at.y + size.y, at.z - 0.35 * size.z);
    if (supply)
      reach.supplyMaxX = std::max(reach.supplyMaxX, x);
    else
      reach.returnMinX = std::min(reach.returnMinX, x);
    const dvec3 fittingTop = fitting + dvec3(0, pl.fittingH, 0);
    p.parts.push_back(tubePart(ctx.meshes.cylinderLow, fitting, fittingTop, pl.fittingD,
                               supply ? looks::COOLANT_SUPPLY : looks::COOLANT_RETURN,
                               prefix + " plate fitting"));
    const dvec3 rise(x, runY, fitting.z), runEnd(x, runY, headerZ(trayD, supply));
    p.parts.push_back(
        tubePart(ctx.meshes.cylinderLow, fittingTop, rise, pl.tubeD, looks::HOSE, tube + "riser"));
    p.parts.push_back(tubePart(ctx.meshes.cylinderLow, rise, runEnd, pl.tubeD, looks::HOSE,
                               tube + (supply ? "supply tube" : "return tube")));
    if (std::abs(runY - headerY) > pl.tubeD / 2) {
      p.parts.push_back(tubePart(ctx.meshes.cylinderLow, runEnd, dvec3(x, headerY, runEnd.z),
                                 pl.tubeD, looks::HOSE, tube + "drop"));
    }
  }
}

// The supply and return headers at `y`: from each quick disconnect across to the farthest plate
// fitting on it, and the hose back to the quick disconnect itself.
void addHeaders(BuildContext& ctx, Prototype& p, const Plumbing& pl, double trayD, double y,
                const HeaderReach& r) {
  const double headerD = HEADER_SCALE * pl.tubeD;
  for (int k = 0; k < 2; ++k) {
    const bool supply = k == 0;
    const double qdX = supply ? -QD_X_M : QD_X_M, z = headerZ(trayD, supply);
    // Half a hose past the last fitting's run: it tees into the header, not onto its end.
    const double reach = supply ? r.supplyMaxX + pl.tubeD / 2 : r.returnMinX - pl.tubeD / 2;
    p.parts.push_back(tubePart(ctx.meshes.cylinderLow, dvec3(qdX, y, z), dvec3(reach, y, z),
                               headerD, looks::HOSE,
                               supply ? "coolant supply header" : "coolant return header"));
    p.parts.push_back(tubePart(ctx.meshes.cylinderLow, dvec3(qdX, y, z),
                               dvec3(qdX, y, -trayD / 2 + QD_IN_M), headerD, looks::HOSE,
                               "coolant hose"));
  }
}

// The front third inside: the drives behind their carriers, the NIC board with a liquid-cooled
// ConnectX-7 per port, the BlueField-3 cards with their heat sinks.
void addFrontInterior(BuildContext& ctx, Prototype& p, double w, double h, double d, double top) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double e1sT = dims.meters("e1s.thickness"), e1sW = dims.meters("e1s.width");
  const double e1sL = dims.meters("e1s.length");
  for (int i = 0; i < dims.count("compute_tray.e1s_drives"); ++i) {
    const double x = -w / 2 + E1S_LEFT_M + (e1sT + E1S_GAP_M) * (i + 0.5);
    p.parts.push_back(boxPart(box, dvec3(x, h / 2 + 0.002, d / 2 - 0.003 - e1sL / 2),
                              dvec3(e1sT * 0.95, e1sW, e1sL), looks::NICKEL,
                              "E1.S NVMe drive " + std::to_string(i)));
  }
  const int nics = dims.count("compute_tray.nics");
  const double pitch = dims.meters("osfp.cage_pitch"),
               asic = dims.meters("compute_tray.nic_asic_size");
  const double cageL = 0.08;  // the cages' depth behind the face (an OSFP cage is about 80 mm)
  const double boardD = cageL + asic + 0.03, boardZ = d / 2 - 0.003 - boardD / 2;
  const double boardT = dims.meters("compute_tray.board_thickness");
  p.parts.push_back(boxPart(box, dvec3(NIC_ROW_X_M, top + boardT / 2, boardZ),
                            dvec3(nics * pitch, boardT, boardD), looks::PCB, "NIC board"));
  p.parts.push_back(boxPart(box, dvec3(NIC_ROW_X_M, h / 2, d / 2 - 0.003 - cageL / 2),
                            dvec3(nics * pitch, dims.meters("osfp.cage_height") + 0.002, cageL),
                            looks::STEEL, "OSFP cage bodies"));
  for (int i = 0; i < nics; ++i) {
    const double z = d / 2 - 0.003 - cageL - 0.01 - asic / 2;
    p.parts.push_back(boxPart(box, dvec3(nicPortX(dims, nics, i), top + boardT + 0.002, z),
                              dvec3(0.9 * pitch, 0.004, asic), looks::COLD_PLATE_COPPER,
                              "ConnectX-7 400G OSFP " + std::to_string(i)));
  }
  // The fan wall behind the front I/O, right of the drives: 40 x 40 x 28 mm fans on the chassis
  // pan (1 mm), facing the front, each a dark housing with its hub.
  const int fans = dims.count("compute_tray.fans");
  const double fan = dims.meters("compute_tray.fan_size"), fanD = 0.7 * fan;
  const double fanZ = d / 2 - 0.003 - 0.15 - fanD / 2, fanLeft = -w / 2 + GRILLE_LEFT_M;
  const double fanPitch = (w / 2 - 0.006 - fanLeft) / fans;
  for (int i = 0; i < fans; ++i) {
    const double x = fanLeft + fanPitch * (i + 0.5);
    p.parts.push_back(boxPart(box, dvec3(x, 0.001 + fan / 2, fanZ),
                              dvec3(0.97 * fanPitch, fan, fanD), looks::CABLE_JACKET,
                              "fan " + std::to_string(i)));
    p.parts.push_back(tubePart(ctx.meshes.cylinderLow, dvec3(x, 0.001 + fan / 2, fanZ + fanD / 2),
                               dvec3(x, 0.001 + fan / 2, fanZ + fanD / 2 + 0.001), 0.4 * fan,
                               looks::DARK_STEEL, "fan hub"));
  }
  for (int k = 0; k < dims.count("compute_tray.dpus"); ++k) {
    const double x = dpuPortsX(dims, k), cardD = 0.13, z = d / 2 - 0.003 - cardD / 2;
    p.parts.push_back(boxPart(box, dvec3(x, top + 0.012, z), dvec3(0.05, boardT, cardD), looks::PCB,
                              "BlueField-3 card " + std::to_string(k)));
    p.parts.push_back(boxPart(box, dvec3(x, top + 0.012 + boardT + 0.006, z - 0.02),
                              dvec3(0.044, 0.012, 0.05), looks::NICKEL,
                              "BlueField-3 DPU " + std::to_string(k)));
  }
}

// The rear: the power distribution board with its DC-DC bricks, the busbar clip between the
// quick disconnects, and an NVLink connector facing each spine cartridge.
void addRearInterior(BuildContext& ctx, Prototype& p, double w, double h, double d, double top) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const int bricks = dims.count("compute_tray.power_bricks");
  const double bl = dims.meters("dc_dc_brick.length"), bw = dims.meters("dc_dc_brick.width");
  const double bh = dims.meters("dc_dc_brick.height");
  const double boardT = dims.meters("compute_tray.board_thickness");
  const double pdbW = bricks * (bw + 0.006) + 0.01, pdbD = bl + 0.03;
  const double pdbZ = -d / 2 + 0.05 + pdbD / 2;
  p.parts.push_back(boxPart(box, dvec3(0, top + boardT / 2 + 0.002, pdbZ),
                            dvec3(pdbW, boardT, pdbD), looks::PCB, "power distribution board"));
  for (int i = 0; i < bricks; ++i) {
    const double x = -pdbW / 2 + 0.005 + (bw + 0.006) * (i + 0.5) + 0.003;
    p.parts.push_back(boxPart(box, dvec3(x, top + boardT + 0.002 + bh / 2, pdbZ), dvec3(bw, bh, bl),
                              looks::NIC, "48 V DC-DC converter " + std::to_string(i)));
  }
  p.parts.push_back(boxPart(box, dvec3(0, h / 2, -d / 2 + 0.02), dvec3(0.04, 0.028, 0.03),
                            looks::COPPER, "busbar clip"));
  const int cartridges = dims.count("nvl72_rack.spine_cartridges");
  for (int i = 0; i < cartridges; ++i) {
    const glm::dvec2 c = spineCartridgeX_m(dims, w, i);
    p.parts.push_back(boxPart(box, dvec3(c.x, h / 2, -d / 2 + 0.02), dvec3(0.8 * c.y, 0.03, 0.03),
                              looks::CABLE_JACKET, "NVLink spine connector " + std::to_string(i)));
  }
}

}  // namespace

double trayFibreSideX_m(double trayW) {
  return trayW / 2 + 0.035;
}

glm::dvec2 spineCartridgeX_m(const Dimensions& dims, double trayW, int i) {
  const int cartridges = dims.count("nvl72_rack.spine_cartridges");
  const double busbarW = dims.meters("nvl72_rack.busbar_width");
  // The spine spans 80 % of a tray's width, the busbar and a 10 mm gap each side at its centre.
  const double cartridgeW = (trayW * 0.8 - busbarW - 0.02) / cartridges;
  // Half the cartridges left of the busbar, half right.
  const double side = i < cartridges / 2 ? -1.0 : 1.0;
  const int k = i < cartridges / 2 ? i : i - cartridges / 2;
  return {side * (busbarW / 2 + 0.01 + cartridgeW * (k + 0.5)), cartridgeW};
}

Part trayLedLine(MeshId mesh, double trayW, double trayH, const glm::dvec3& foot, double height_m) {
  return boxPart(mesh, foot + dvec3(trayW * LED_LINE_X, trayH * LED_LINE_Y, 0),
                 dvec3(trayW * LED_LINE_WIDTH, height_m, LED_LINE_D_M), looks::LED_LINE,
                 "LED line");
}

PrototypeId buildComputeTray(BuildContext& ctx, const TrayDesc& desc) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double w = dims.meters("compute_tray.width"), d = dims.meters("compute_tray.depth");
  const double h = dims.number("compute_tray.height_u") * dims.rackUnit_m();
  Prototype p;
  p.name = desc.hero ? "compute tray (hero, open)" : "compute tray";
  if (!desc.hero) p.component = component::COMPUTE_TRAY;
  p.lod = proxyLod(looks::DARK_STEEL, TRAY_OPEN_PX);
  // In its slot only its front and back show; the hero, pulled out, shows every side.
  p.lod.proxyFaces = desc.hero ? ProxyFaces::Box : ProxyFaces::Ends;
  addChassis(p, ctx, w, h, d, !desc.hero, looks::DARK_STEEL);
  addTrayFront(ctx, p, w, h, d / 2);
  if (!desc.hero) return ctx.scene.add(std::move(p));

  // Interior: the board, 2 superchips (Grace + 2 Blackwell) under cold plates, their tubes.
  const double boardT = dims.meters("compute_tray.board_thickness");
  const double plateT = dims.meters("compute_tray.cold_plate_thickness");
  const double boardY = 0.004;
  p.parts.push_back(
      boxPart(box, dvec3(0, boardY + boardT / 2, -0.02), dvec3(w - 0.01, boardT, d - 0.08),
              withPattern(looks::PCB, Pattern::Pcb, dims.meters("surface_detail.pcb_trace_pitch")),
              "motherboard"));
  const double top = boardY + boardT;
  addFrontInterior(ctx, p, w, h, d, top);
  addRearInterior(ctx, p, w, h, d, top);
  const PrototypeId heroPackage = buildB200Package(ctx, PackageDesc{.hero = true});
  const PrototypeId package = buildB200Package(ctx, PackageDesc{.hero = false});
  const PrototypeId grace = buildGracePackage(ctx);
  const int superchips = dims.count("compute_tray.superchips");
  const int gpusPer = dims.count("compute_tray.gpus_per_superchip");
  const double subW = dims.meters("b200_package.substrate_width");
  const double subD = dims.meters("b200_package.substrate_depth");
  const double graceD = dims.meters("grace_cpu.package_depth");
  const double pkgH = dims.meters("b200_package.substrate_thickness") +
                      dims.meters("b200_package.interposer_thickness") +
                      dims.meters("gb100.die_thickness");
  const double gpuZ = 0.02, graceZ = gpuZ + subD / 2 + 0.02 + graceD / 2;
  // Each superchip on its own board (Grace and 2 Blackwell), mounted on the tray's carrier. Every
  // tube runs just over the GPUs' fittings, the Graces' back between their two GPUs' plates
  // (fittings near the plate's centre line), all inside the 1U.
  const double scTop = top + boardT;
  const Plumbing plumbing(dims);
  const double runY = scTop + pkgH + plateT + plumbing.fittingH + plumbing.tubeD / 2;
  const double plateW = dims.meters("b200_cold_plate.width");
  const double plateD = dims.meters("b200_cold_plate.depth");
  constexpr double GRACE_FITTING_X = 0.1;
  HeaderReach reach;
  for (int s = 0; s < superchips; ++s) {
    const double sx = -w / 2 + w * (s + 0.5) / superchips;
    const std::string sc = "superchip" + std::to_string(s);
    const double boardFront = graceZ + graceD / 2 + 0.02, boardBack = gpuZ - subD / 2 - 0.015;
    p.parts.push_back(boxPart(
        box, dvec3(sx, top + boardT / 2, 0.5 * (boardFront + boardBack)),
        dvec3(gpusPer * (subW + 0.004) + 0.012, boardT, boardFront - boardBack),
        withPattern(looks::PCB, Pattern::Pcb, dims.meters("surface_detail.pcb_trace_pitch")),
        "GB200 superchip board"));
    p.children.push_back(placeChild(grace, dvec3(sx, scTop, graceZ), sc + "_grace"));
    addCooledPlate(ctx, p, plumbing, "Grace", dvec3(sx, scTop + 0.004, graceZ),
                   dvec3(0.05, plateT, 0.05), GRACE_FITTING_X, runY, d, h / 2, reach);
    for (int g = 0; g < gpusPer; ++g) {
      const double gx = sx + (g - (gpusPer - 1) / 2.0) * (subW + 0.004);
      const bool hero = s == 0 && g == 0;
      const std::string name = sc + "_gpu" + std::to_string(g);
      p.children.push_back(placeChild(hero ? heroPackage : package, dvec3(gx, scTop, gpuZ), name));
      // The hero GPU's cold plate is off, so its dies can be seen.
      if (!hero) {
        addCooledPlate(ctx, p, plumbing, "B200", dvec3(gx, scTop + pkgH, gpuZ),
                       dvec3(plateW, plateT, plateD), B200_PLATE_FITTING_X, runY, d, h / 2, reach);
      }
    }
  }
  addHeaders(ctx, p, plumbing, d, h / 2, reach);
  for (int k = 0; k < 2; ++k) {
    const double x = (k == 0 ? -1 : 1) * QD_X_M;
    p.parts.push_back(
        tubePart(ctx.meshes.cylinder, dvec3(x, h / 2, -d / 2 + QD_IN_M), dvec3(x, h / 2, -d / 2),
                 0.02, k == 0 ? looks::COOLANT_SUPPLY : looks::COOLANT_RETURN, "quick-disconnect"));
  }
  return ctx.scene.add(std::move(p));
}

}  // namespace world
