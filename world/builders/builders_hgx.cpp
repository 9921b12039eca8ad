// 8-GPU HGX systems (DGX H100, HGX H200, DGX B200): the baseboard with its SXM GPUs and NVSwitch
// chips, the chassis round it, and the 48U cabinet that holds several. Sizes from the catalog's
// dimensions.<system id>, hgx_baseboard, sxm_module, nvswitch_package and hgx_rack; counts from
// the system layout (the engine's cluster). "Black box, lit from within": dark anodised steel,
// vented bezels and one green LED line per system.
#include <algorithm>
#include <cmath>

#include "world/builders/builders.h"
#include "world/scene/procedural_textures.h"

namespace world {
namespace {

using glm::dvec3;

// The grille's dark back (an open chassis's recess, a closed one's body) stands this far behind
// the bezel's plane, so the vent slats stand proud of it (metres; a drawing size).
constexpr double BEZEL_BACK_M = 0.002;

// The front bezel: a recessed black grille of vent slats between two frame rails, with the
// status LED line along its top (the visual brief: black bezels, one green LED line per tray).
// `recess`: draw the grille's dark back (an open chassis has no front wall behind it; a closed
// one's body ends there and is that back itself, so no slab is stacked on another).
void addBezel(Prototype& p, MeshId box, double w, double h, double z, bool recess) {
  const double rail = 0.012;
  if (recess) {
    p.parts.push_back(boxPart(box, dvec3(0, h / 2, z - BEZEL_BACK_M - 0.002),
                              dvec3(w, h * 0.98, 0.004), looks::NIC, "bezel recess"));
  }
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

// One SXM GPU's air heatsink, standing on its origin: a copper vapour-chamber base under
// aluminium fins at a 4 mm pitch. A prototype of its own with a proxy: from the rack the 1.2 mm
// fins are a third of a pixel wide and closer than two pixels apart (drawn, they were most of a
// DGX rack's triangles and its fragment work), so there it is the block it reads as, and its
// fins open from the tray station in.
PrototypeId buildSxmHeatsink(BuildContext& ctx, double heatsink_m) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double mw = dims.meters("sxm_module.width"), md = dims.meters("sxm_module.depth");
  const double base = 0.006, finH = heatsink_m - base;
  Prototype p;
  p.name = "SXM air heatsink";
  p.lod = proxyLod(looks::ALUMINIUM, 60.0f);
  p.parts.push_back(boxPart(box, dvec3(0, base / 2, 0), dvec3(mw, base, md), looks::COPPER,
                            "heatsink base (vapour chamber)"));
  const int fins = int(std::floor(mw / 0.004));
  for (int i = 0; i < fins; ++i) {
    const double x = -mw / 2 + mw * (i + 0.5) / fins;
    p.parts.push_back(boxPart(box, dvec3(x, base + finH / 2, 0), dvec3(0.0012, finH, md),
                              looks::ALUMINIUM, "heatsink fin"));
  }
  return ctx.scene.add(std::move(p));
}

// The chassis's rear: power supplies across the lower part, a ConnectX-7 OSFP cage per GPU above
// them (the rack_back station's view, open or closed).
void addRear(Prototype& p, MeshId box, const SystemLayout& layout, double w, double d,
             double gpuFloor) {
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
}

}  // namespace

PrototypeId buildHgxBaseboard(BuildContext& ctx, const SystemLayout& layout, bool hero) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double bw = dims.meters("hgx_baseboard.width"), bd = dims.meters("hgx_baseboard.depth");
  const double bt = dims.meters("hgx_baseboard.thickness");
  const double mw = dims.meters("sxm_module.width"), md = dims.meters("sxm_module.depth");
  const double heatsink = dims.meters(layout.systemId + ".heatsink_height");
  const PrototypeId cooler = buildSxmHeatsink(ctx, heatsink);
  Prototype p;
  p.name = "HGX " + layout.gpuName + " baseboard (" + std::to_string(layout.gpusPerDomain) +
           " SXM GPUs, " + std::to_string(layout.nvswitchChips) + " NVSwitch)";
  p.lod = proxyLod(looks::ALUMINIUM, 60.0f);
  p.parts.push_back(
      boxPart(box, dvec3(0, bt / 2, 0), dvec3(bw, bt, bd),
              withPattern(looks::PCB, Pattern::Pcb, dims.meters("surface_detail.pcb_trace_pitch")),
              "HGX baseboard"));
  const PrototypeId package = layout.package == GpuPackage::B200
                                  ? buildB200Package(ctx, PackageDesc{.hero = false})
                                  : buildH100Package(ctx);
  const PrototypeId heroPackage =
      hero && layout.package == GpuPackage::B200
          ? buildB200Package(ctx, PackageDesc{.hero = true, .coldPlate = false})
          : package;
  // GPUs in two rows along the airflow (front +Z), the NVSwitch chips in a line behind them.
  const int gpus = layout.gpusPerDomain, perRow = (gpus + 1) / 2;
  const double pitchX = bw / perRow;
  const double rowZ[2] = {bd / 2 - md * 0.75, bd / 2 - md * 2.0};
  for (int g = 0; g < gpus; ++g) {
    const int row = g / perRow, col = g % perRow;
    const dvec3 at(-bw / 2 + pitchX * (col + 0.5), bt, rowZ[row]);
    const bool open = hero && g == 0;
    p.parts.push_back(boxPart(box, at + dvec3(0, 0.001, 0), dvec3(mw, 0.002, md), looks::PCB,
                              "SXM module board"));
    // The hero GPU's heatsink is off, so its package can be seen.
    if (!open) {
      p.children.push_back(
          placeChild(cooler, at + dvec3(0, 0.008, 0), "heatsink" + std::to_string(g)));
    }
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
  // The GPU tray fills the upper part (the HGX board on its sled), the CPU tray, fans and
  // power supplies the lower: the DGX layout. The split is where the heatsinks end.
  const double heatsink = dims.meters(id + ".heatsink_height");
  const double gpuFloor = h - heatsink - 0.03;
  const double frontZ = d / 2 - 0.02;
  Prototype p;
  p.name = layout.systemName + (hero ? " (hero, open)" : "");
  p.lod = proxyLod(looks::DARK_STEEL, 60.0f);
  if (!hero) {
    // Closed, in its cabinet: one body from the rear panel to the grille's back, the bezel in
    // front, the rear's supplies and cages. Its insides are drawn in the hero alone, the one
    // system open (every station that looks in looks at it): behind a lid, sides and bezel they
    // were hidden work, 3,900 triangles a system, at the rack station.
    const double back = -d / 2 + 0.002, front = d / 2 - BEZEL_BACK_M;
    p.parts.push_back(boxPart(box, dvec3(0, h / 2, 0.5 * (back + front)), dvec3(w, h, front - back),
                              looks::DARK_STEEL, "chassis"));
    addRear(p, box, layout, w, d, gpuFloor);
    addBezel(p, box, w, h, d / 2, false);
    return ctx.scene.add(std::move(p));
  }
  // Open (the hero, pulled out): pan, sides, no lid, a sled between the GPU tray and the CPU tray.
  p.parts.push_back(
      boxPart(box, dvec3(0, sheet / 2, 0), dvec3(w, sheet, d), looks::DARK_STEEL, "chassis pan"));
  for (int s = -1; s <= 1; s += 2) {
    p.parts.push_back(boxPart(box, dvec3(s * (w / 2 - sheet / 2), h / 2, 0), dvec3(sheet, h, d),
                              looks::DARK_STEEL, "chassis side"));
  }
  p.parts.push_back(boxPart(box, dvec3(0, gpuFloor - sheet / 2, 0), dvec3(w - 2 * sheet, sheet, d),
                            looks::DARK_STEEL, "GPU tray sled"));
  const double bd = dims.meters("hgx_baseboard.depth");
  const PrototypeId board = buildHgxBaseboard(ctx, layout, hero);
  p.children.push_back(
      placeChild(board, dvec3(0, gpuFloor, frontZ - 0.08 - bd / 2), "compute_tray0"));
  // CPU tray: the host board with 2 CPUs, their DIMMs, and the NICs at the back.
  const double cpuY = 0.02;
  p.parts.push_back(
      boxPart(box, dvec3(0, cpuY, 0.05), dvec3(w * 0.9, 0.002, d * 0.6),
              withPattern(looks::PCB, Pattern::Pcb, dims.meters("surface_detail.pcb_trace_pitch")),
              "host board"));
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
  // Fans across the front behind the bezel.
  const int fans = 6;
  const double fanD = std::min(w / fans * 0.85, gpuFloor * 0.8);
  for (int i = 0; i < fans; ++i) {
    const double x = -w / 2 + w * (i + 0.5) / fans;
    p.parts.push_back(tubePart(ctx.meshes.cylinder, dvec3(x, gpuFloor * 0.5, frontZ - 0.09),
                               dvec3(x, gpuFloor * 0.5, frontZ - 0.03), fanD, looks::NIC,
                               "fan " + std::to_string(i)));
  }
  addRear(p, box, layout, w, d, gpuFloor);
  addBezel(p, box, w, h, frontZ + 0.02, true);
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
  // Blanking panels over the units no system fills (the unit between two systems, the space
  // above the top one), flush with the bezels between the front posts: the front reads as a
  // stack of systems, not shelves with lids showing between them.
  const double sysH = dims.meters(layout.systemId + ".height");
  const double frontZ = D / 2 - HGX_FRONT_INSET_M,
               blankW = W - 2 * (CABINET_PANEL_M + CABINET_POST_M);
  double below = cap;
  std::vector<double> slots = hgxSlotHeights_m(dims, layout);
  std::sort(slots.begin(), slots.end());
  slots.push_back(H - cap);  // the space above the top system ends under the top
  for (size_t i = 0; i < slots.size(); ++i) {
    const double gap = slots[i] - below;
    if (gap > 0.005) {
      p.parts.push_back(boxPart(box, dvec3(0, below + gap / 2, frontZ - 0.001),
                                dvec3(blankW, gap, 0.002), looks::DARK_STEEL, "blanking panel"));
    }
    below = slots[i] + sysH;
  }
  // The cabinet's own LED strip at the top.
  p.parts.push_back(boxPart(box, dvec3(0, H - cap - 0.02, D / 2 - 0.01),
                            dvec3(W * 0.8, 0.004, 0.004), looks::LED, "cabinet LED strip"));
  return ctx.scene.add(std::move(p));
}

std::vector<double> hgxSlotHeights_m(const Dimensions& dims, const SystemLayout& layout) {
  // Systems stacked from the bottom, one unit apart (top-of-rack space left for cabling and
  // PDUs), listed from the top: a cabinet's first system (the hero, pulled out) is its top one,
  // at chest height, where the rack station looks.
  const double U = dims.rackUnit_m();
  const double h = dims.number(layout.systemId + ".height_u") * U;
  std::vector<double> y;
  for (int i = layout.domainsPerCabinet - 1; i >= 0; --i) y.push_back(0.1 + i * (h + U));
  return y;
}

}  // namespace world
