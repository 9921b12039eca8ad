// 8-GPU HGX systems (DGX H100, HGX H200, DGX B200): the baseboard with its SXM GPUs and NVSwitch
// chips, the chassis round it, and the 48U cabinet that holds several. Sizes from the catalog's
// dimensions.<system id>, hgx_baseboard, sxm_module, nvswitch_package and hgx_rack; counts from
// the system layout (the engine's cluster). "Black box, lit from within": dark anodised steel,
// vented bezels and one green LED line per system.
#include <algorithm>
#include <cmath>

#include "world/build/builders.h"

namespace world {
namespace {

using glm::dvec3;

// The front bezel: a recessed black grille of vent slats between two frame rails, with the
// status LED line along its top (the visual brief: black bezels, one green LED line per tray).
void addBezel(Prototype& p, MeshId box, double w, double h, double z) {
  const double rail = 0.012;
  p.parts.push_back(boxPart(box, dvec3(0, h / 2, z - 0.004), dvec3(w, h * 0.98, 0.004), looks::NIC,
                            "bezel recess"));
  for (int s = -1; s <= 1; s += 2) {
    p.parts.push_back(boxPart(box, dvec3(s * (w / 2 - rail / 2), h / 2, z), dvec3(rail, h, 0.006),
                              looks::DARK_STEEL, "bezel rail"));
  }
  // Vent slats every ~25 mm, each a bar standing proud of the recess (finer ones alias to noise
  // at rack distance).
  const int slats = std::max(4, int(std::floor(h / 0.025)));
  for (int i = 1; i < slats - 1; ++i) {
    const double y = h * (i + 0.5) / slats;
    p.parts.push_back(boxPart(box, dvec3(0, y, z), dvec3(w - 2 * rail, h / slats * 0.45, 0.005),
                              looks::DARK_STEEL, "bezel vent slat"));
  }
  p.parts.push_back(boxPart(box, dvec3(0, h - 0.006, z + 0.003), dvec3(w * 0.6, 0.0025, 0.002),
                            looks::LED, "status LED line"));
}

// One SXM GPU's place on the baseboard: its module board and, closed, its air heatsink's fins.
void addSxmModule(Prototype& p, const BuildContext& ctx, const dvec3& at, double heatsink_m,
                  bool open) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double mw = dims.meters("sxm_module.width"), md = dims.meters("sxm_module.depth");
  p.parts.push_back(
      boxPart(box, at + dvec3(0, 0.001, 0), dvec3(mw, 0.002, md), looks::PCB, "SXM module board"));
  if (open) return;  // the hero GPU's heatsink is off, so its package can be seen
  const double base = 0.006, finH = heatsink_m - base;
  p.parts.push_back(boxPart(box, at + dvec3(0, 0.008 + base / 2, 0), dvec3(mw, base, md),
                            looks::COPPER, "heatsink base (vapour chamber)"));
  const int fins = int(std::floor(mw / 0.004));
  for (int i = 0; i < fins; ++i) {
    const double x = -mw / 2 + mw * (i + 0.5) / fins;
    p.parts.push_back(boxPart(box, at + dvec3(x, 0.008 + base + finH / 2, 0),
                              dvec3(0.0012, finH, md), looks::ALUMINIUM, "heatsink fin"));
  }
}

}  // namespace

PrototypeId buildHgxBaseboard(BuildContext& ctx, const SystemLayout& layout, bool hero) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double bw = dims.meters("hgx_baseboard.width"), bd = dims.meters("hgx_baseboard.depth");
  const double bt = dims.meters("hgx_baseboard.thickness");
  const double md = dims.meters("sxm_module.depth");
  const double heatsink = dims.meters(layout.systemId + ".heatsink_height");
  Prototype p;
  p.name = "HGX " + layout.gpuName + " baseboard (" + std::to_string(layout.gpusPerDomain) +
           " SXM GPUs, " + std::to_string(layout.nvswitchChips) + " NVSwitch)";
  p.lod = proxyLod(looks::ALUMINIUM, 60.0f);
  p.parts.push_back(
      boxPart(box, dvec3(0, bt / 2, 0), dvec3(bw, bt, bd), looks::PCB, "HGX baseboard"));
  const PrototypeId package = layout.package == GpuPackage::B200
                                  ? buildB200Package(ctx, PackageDesc{.hero = false})
                                  : buildH100Package(ctx);
  const PrototypeId heroPackage = hero && layout.package == GpuPackage::B200
                                      ? buildB200Package(ctx, PackageDesc{.hero = true})
                                      : package;
  // GPUs in two rows along the airflow (front +Z), the NVSwitch chips in a line behind them.
  const int gpus = layout.gpusPerDomain, perRow = (gpus + 1) / 2;
  const double pitchX = bw / perRow;
  const double rowZ[2] = {bd / 2 - md * 0.75, bd / 2 - md * 2.0};
  for (int g = 0; g < gpus; ++g) {
    const int row = g / perRow, col = g % perRow;
    const dvec3 at(-bw / 2 + pitchX * (col + 0.5), bt, rowZ[row]);
    const bool open = hero && g == 0;
    addSxmModule(p, ctx, at, heatsink, open);
    // The package stands on its module board; its long side across the module.
    p.children.push_back(placeChild(open ? heroPackage : package, at + dvec3(0, 0.002, 0),
                                    "baseboard0_gpu" + std::to_string(g)));
  }
  const double ns = dims.meters("nvswitch_package.size");
  const int chips = layout.nvswitchChips;
  const double switchZ = rowZ[1] - md / 2 - ns;
  for (int i = 0; i < chips; ++i) {
    const double x = -bw / 2 + bw * (i + 0.5) / std::max(1, chips);
    p.parts.push_back(boxPart(box, dvec3(x, bt + 0.001, switchZ), dvec3(ns, 0.002, ns),
                              looks::SUBSTRATE, "NVSwitch package " + std::to_string(i)));
    p.parts.push_back(boxPart(box, dvec3(x, bt + 0.0025, switchZ),
                              dvec3(ns * 0.45, 0.001, ns * 0.45), looks::SILICON,
                              "NVSwitch die " + std::to_string(i)));
    p.parts.push_back(boxPart(box, dvec3(x, bt + 0.003 + heatsink * 0.2, switchZ),
                              dvec3(ns * 1.1, heatsink * 0.4, ns * 1.1), looks::ALUMINIUM,
                              "NVSwitch heatsink " + std::to_string(i)));
  }
  // The baseboard's NVLink traces between GPUs and switches: copper bands under the modules.
  p.parts.push_back(boxPart(box, dvec3(0, bt + 0.0003, 0.5 * (rowZ[1] + switchZ)),
                            dvec3(bw * 0.9, 0.0006, rowZ[1] - switchZ), looks::IO,
                            "NVLink traces"));
  return ctx.scene.add(std::move(p));
}

PrototypeId buildHgxSystem(BuildContext& ctx, const SystemLayout& layout, bool hero) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const std::string& id = layout.systemId;
  const double w = dims.meters(id + ".width"), d = dims.meters(id + ".depth");
  const double h = dims.meters(id + ".height");
  const double sheet = 0.0012;
  Prototype p;
  p.name = layout.systemName + (hero ? " (hero, open)" : "");
  p.lod = proxyLod(looks::DARK_STEEL, 60.0f);
  // Chassis: pan, sides, lid (off on the hero), a divider between the GPU tray and the CPU tray.
  p.parts.push_back(
      boxPart(box, dvec3(0, sheet / 2, 0), dvec3(w, sheet, d), looks::DARK_STEEL, "chassis pan"));
  for (int s = -1; s <= 1; s += 2) {
    p.parts.push_back(boxPart(box, dvec3(s * (w / 2 - sheet / 2), h / 2, 0), dvec3(sheet, h, d),
                              looks::DARK_STEEL, "chassis side"));
  }
  if (!hero) {
    p.parts.push_back(boxPart(box, dvec3(0, h - sheet / 2, 0), dvec3(w, sheet, d),
                              looks::DARK_STEEL, "chassis lid"));
  }
  // The GPU tray fills the upper part (the HGX board on its sled), the CPU tray, fans and
  // power supplies the lower: the DGX layout. The split is where the heatsinks end.
  const double heatsink = dims.meters(id + ".heatsink_height");
  const double gpuFloor = h - heatsink - 0.03;
  p.parts.push_back(boxPart(box, dvec3(0, gpuFloor - sheet / 2, 0), dvec3(w - 2 * sheet, sheet, d),
                            looks::DARK_STEEL, "GPU tray sled"));
  const double bd = dims.meters("hgx_baseboard.depth");
  const double frontZ = d / 2 - 0.02;
  const PrototypeId board = buildHgxBaseboard(ctx, layout, hero);
  p.children.push_back(
      placeChild(board, dvec3(0, gpuFloor, frontZ - 0.08 - bd / 2), "compute_tray0"));
  // CPU tray: the host board with 2 CPUs, their DIMMs, and the NICs at the back.
  const double cpuY = 0.02;
  p.parts.push_back(
      boxPart(box, dvec3(0, cpuY, 0.05), dvec3(w * 0.9, 0.002, d * 0.6), looks::PCB, "host board"));
  for (int c = 0; c < 2; ++c) {
    const double x = (c == 0 ? -1 : 1) * w * 0.2;
    p.parts.push_back(boxPart(box, dvec3(x, cpuY + 0.025, 0.1), dvec3(0.09, 0.05, 0.09),
                              looks::ALUMINIUM, "CPU heatsink " + std::to_string(c)));
    for (int k = 0; k < 8; ++k) {
      const double dx = x + (k < 4 ? -1 : 1) * (0.06 + 0.008 * (k % 4));
      p.parts.push_back(boxPart(box, dvec3(dx, cpuY + 0.018, 0.1), dvec3(0.0015, 0.032, 0.133),
                                looks::NIC, "DIMM"));
    }
  }
  // Fans across the front behind the bezel, power supplies and OSFP cages at the back.
  const int fans = 6;
  const double fanD = std::min(w / fans * 0.85, gpuFloor * 0.8);
  for (int i = 0; i < fans; ++i) {
    const double x = -w / 2 + w * (i + 0.5) / fans;
    p.parts.push_back(tubePart(ctx.meshes.cylinder, dvec3(x, gpuFloor * 0.5, frontZ - 0.09),
                               dvec3(x, gpuFloor * 0.5, frontZ - 0.03), fanD, looks::NIC,
                               "fan " + std::to_string(i)));
  }
  const int psus = 6;
  for (int i = 0; i < psus; ++i) {
    const double x = -w / 2 + w * (i + 0.5) / psus;
    p.parts.push_back(boxPart(box, dvec3(x, gpuFloor * 0.3, -d / 2 + 0.001),
                              dvec3(w / psus * 0.9, gpuFloor * 0.5, 0.002), looks::ALUMINIUM,
                              "power supply " + std::to_string(i)));
  }
  for (int i = 0; i < layout.gpusPerDomain; ++i) {
    const double x = -w * 0.42 + w * 0.84 * (i + 0.5) / layout.gpusPerDomain;
    p.parts.push_back(boxPart(box, dvec3(x, gpuFloor * 0.8, -d / 2 - 0.004),
                              dvec3(0.02, 0.014, 0.008), looks::STEEL,
                              "ConnectX-7 OSFP " + std::to_string(i)));
  }
  addBezel(p, box, w, h, frontZ + 0.02);
  return ctx.scene.add(std::move(p));
}

PrototypeId buildHgxCabinet(BuildContext& ctx, const SystemLayout& layout) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const glm::dvec3 size = cabinetSize_m(dims, layout);
  const double W = size.x, D = size.z, H = size.y;
  const double cap = 0.06;
  Prototype p;
  p.name =
      "48U cabinet (" + std::to_string(layout.domainsPerCabinet) + " x " + layout.systemName + ")";
  p.lod = proxyLod(looks::DARK_STEEL, 60.0f);
  addCabinetFrame(p, box, dvec3(W, H, D), cap);
  // Blanking panels over the empty units, with the cabinet's own LED strip at the top.
  p.parts.push_back(boxPart(box, dvec3(0, H - cap - 0.02, D / 2 - 0.01),
                            dvec3(W * 0.8, 0.004, 0.004), looks::LED, "cabinet LED strip"));
  return ctx.scene.add(std::move(p));
}

std::vector<double> hgxSlotHeights_m(const Dimensions& dims, const SystemLayout& layout) {
  // Systems from the bottom up, one unit apart (top-of-rack space left for cabling and PDUs).
  const double U = dims.rackUnit_m();
  const double h = dims.number(layout.systemId + ".height_u") * U;
  std::vector<double> y;
  for (int i = 0; i < layout.domainsPerCabinet; ++i) y.push_back(0.1 + i * (h + U));
  return y;
}

}  // namespace world
