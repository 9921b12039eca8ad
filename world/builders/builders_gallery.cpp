// The chapter-5 gallery: other ways to multiply matrices, at true scale on a table in the hero
// hall: a TPU v5e board (MXU systolic arrays), a Sapphire Rapids Xeon (AMX tiles), an H100.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "world/builders/builders.h"
#include "world/scene/procedural_textures.h"

namespace world {
namespace {

using glm::dvec3;

// Processing elements per cell edge of an MXU's drawing: a 128 x 128 array shows as 16 x 16 cells
// of 8 x 8 multiply-accumulators each, the finest grid that reads at the station's distance.
constexpr int PES_PER_CELL_EDGE = 8;
// A cell opens (its 16 x 16 grid drawn) above this projected radius of the MXU: about 3 px a cell.
constexpr float MXU_OPEN_PX = 24.0f;
// The luminous outline round each MXU and the gaps between cells, as fractions of the MXU edge.
constexpr double MXU_OUTLINE = 0.025;
constexpr double CELL_FILL = 0.55;
// Drawing sizes of the package (layout choices, not catalog figures): the organic substrate's
// thickness, the gap between the die and an HBM stack, the interposer's margin round them.
constexpr double SUBSTRATE_T_M = 0.0012;
constexpr double HBM_GAP_M = 0.0008;
constexpr double INTERPOSER_MARGIN_M = 0.0012;

// A look without the box's edge lines and contact darkening: a cell a few pixels wide would be
// all edge.
constexpr Look flat(Look look) {
  look.detail = 0;
  return look;
}

// One MXU in x-ray: a thin luminous outline round a 16 x 16 grid of glowing cells (each 8 x 8
// processing elements of the 128 x 128 systolic array); one prototype, its cells its parts.
PrototypeId buildMxu(BuildContext& ctx, double edge, double t) {
  const int dim = ctx.dims.count("tpu_v5e.mxu_dim");
  const int cells = std::max(1, dim / PES_PER_CELL_EDGE);
  const double inner = edge * (1.0 - 2.0 * MXU_OUTLINE), cell = inner / cells;
  const int pes = dim / cells;
  Prototype mxu;
  mxu.name = "MXU " + std::to_string(dim) + "x" + std::to_string(dim) + " systolic array";
  mxu.lod = proxyLod(looks::TENSOR, MXU_OPEN_PX);
  mxu.parts.push_back(boxPart(ctx.meshes.box, dvec3(0, t * 0.25, 0), dvec3(edge, t * 0.5, edge),
                              looks::SILICON, "MXU floor"));
  const double bar = edge * MXU_OUTLINE;
  for (int s = -1; s <= 1; s += 2) {
    mxu.parts.push_back(boxPart(ctx.meshes.box, dvec3(s * (edge - bar) / 2, t * 0.75, 0),
                                dvec3(bar, t * 1.5, edge), flat(looks::LED), "MXU outline"));
    mxu.parts.push_back(boxPart(ctx.meshes.box, dvec3(0, t * 0.75, s * (edge - bar) / 2),
                                dvec3(edge, t * 1.5, bar), flat(looks::LED), "MXU outline"));
  }
  const std::string cellName = std::to_string(pes) + "x" + std::to_string(pes) +
                               " MAC cells (bf16 multiply, f32 accumulate)";
  for (int r = 0; r < cells; ++r) {
    for (int c = 0; c < cells; ++c) {
      mxu.parts.push_back(boxPart(
          ctx.meshes.box,
          dvec3(-inner / 2 + cell * (c + 0.5), t * 0.75, -inner / 2 + cell * (r + 0.5)),
          dvec3(cell * CELL_FILL, t * 0.5, cell * CELL_FILL), flat(looks::TENSOR), cellName));
    }
  }
  return ctx.scene.add(std::move(mxu));
}

// An HBM2e stack at true size: the base logic die under the DRAM dies, seen from above.
PrototypeId buildHbm2eStack(BuildContext& ctx) {
  const Dimensions& dims = ctx.dims;
  const double w = dims.meters("tpu_v5e.hbm_stack_width"),
               d = dims.meters("tpu_v5e.hbm_stack_depth");
  const double h = dims.meters("tpu_v5e.hbm_stack_height");
  Prototype p;
  p.name = "HBM2e stack";
  p.lod = proxyLod(looks::DRAM, 20.0f);
  p.parts.push_back(boxPart(ctx.meshes.box, dvec3(0, h * 0.05, 0), dvec3(w, h * 0.1, d),
                            looks::BASE_DIE, "HBM2e base die"));
  p.parts.push_back(boxPart(ctx.meshes.box, dvec3(0, h * 0.55, 0),
                            dvec3(w * 0.98, h * 0.9, d * 0.98), looks::DRAM, "HBM2e DRAM dies"));
  return ctx.scene.add(std::move(p));
}

// The TPU v5e die's blocks round its MXUs, in dark finishes: VMEM (SRAM), the vector unit,
// the scalar unit with its SMEM, HBM PHYs on the edges facing the stacks (±x), ICI on the others.
void addTpuDieBlocks(Prototype& p, const Dimensions& dims, MeshId box, double die, double top,
                     double relief) {
  const Look sram =
      withPattern(looks::SRAM, Pattern::SramArray, dims.meters("surface_detail.sram_macro_pitch"));
  const double y = top + relief / 2;
  p.parts.push_back(boxPart(box, dvec3(-die * 0.33, y, -die * 0.08),
                            dvec3(die * 0.16, relief, die * 0.62), sram, "vector memory (VMEM)"));
  p.parts.push_back(boxPart(box, dvec3(die * 0.05, y, die * 0.3),
                            dvec3(die * 0.6, relief, die * 0.14), looks::LOGIC,
                            "vector unit (VPU)"));
  p.parts.push_back(boxPart(box, dvec3(die * 0.33, y, -die * 0.2),
                            dvec3(die * 0.14, relief, die * 0.2), looks::LOGIC, "scalar unit"));
  p.parts.push_back(boxPart(box, dvec3(die * 0.33, y, die * 0.05),
                            dvec3(die * 0.14, relief, die * 0.2), sram, "scalar memory (SMEM)"));
  for (int s = -1; s <= 1; s += 2) {
    p.parts.push_back(boxPart(box, dvec3(s * die * 0.465, y, 0),
                              dvec3(die * 0.05, relief, die * 0.8), looks::PHY, "HBM2e PHY"));
    p.parts.push_back(boxPart(box, dvec3(0, y, s * die * 0.465),
                              dvec3(die * 0.7, relief, die * 0.05), looks::IO, "ICI links"));
  }
}

// A TPU v5e package: dark organic substrate, an interposer carrying the die and its HBM2e stacks
// one each side (±x). `hero`: the die in x-ray (its MXUs as the children "mxu<i>" that the
// systolic wave looks up), else a plain mirror-dark die.
PrototypeId buildTpuPackage(BuildContext& ctx, bool hero, PrototypeId hbm) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double pkg = dims.meters("tpu_v5e.package_size"), die = dims.meters("tpu_v5e.die_size");
  const double dieT = dims.meters("tpu_v5e.die_thickness");
  const double ipT = dims.meters("b200_package.interposer_thickness");
  const int stacks = dims.count("tpu_v5e.hbm_stacks");
  const double hbmW = dims.meters("tpu_v5e.hbm_stack_width"),
               hbmD = dims.meters("tpu_v5e.hbm_stack_depth");
  Prototype p;
  p.name = hero ? "TPU v5e package (x-ray)" : "TPU v5e package";
  p.lod = proxyLod(looks::SUBSTRATE, 30.0f);
  p.parts.push_back(boxPart(box, dvec3(0, SUBSTRATE_T_M / 2, 0), dvec3(pkg, SUBSTRATE_T_M, pkg),
                            looks::SUBSTRATE, "package substrate"));
  // Stacks alternate sides; a side holds as many as fit along the die's edge.
  const int perSide = std::max(1, (stacks + 1) / 2);
  const double ipW = die + 2 * (HBM_GAP_M + hbmW + INTERPOSER_MARGIN_M);
  const double ipD = std::max(die, perSide * (hbmD + HBM_GAP_M)) + 2 * INTERPOSER_MARGIN_M;
  p.parts.push_back(boxPart(box, dvec3(0, SUBSTRATE_T_M + ipT / 2, 0), dvec3(ipW, ipT, ipD),
                            looks::SILICON_LIGHT, "silicon interposer"));
  if (hero) addPackageDressing(ctx, p, dvec3(pkg, SUBSTRATE_T_M, pkg), glm::dvec2(ipW, ipD));
  const double top = SUBSTRATE_T_M + ipT;
  for (int i = 0; i < stacks; ++i) {
    const int side = i % 2, k = i / 2;
    const int onSide = (stacks - side + 1) / 2;
    const double cx = (side == 0 ? -1 : 1) * (die / 2 + HBM_GAP_M + hbmW / 2);
    const double cz = (k - (onSide - 1) / 2.0) * (hbmD + HBM_GAP_M);
    p.children.push_back(placeChild(hbm, dvec3(cx, top, cz), "hbm" + std::to_string(i)));
  }
  p.parts.push_back(
      boxPart(box, dvec3(0, top + dieT / 2, 0), dvec3(die, dieT, die), looks::SILICON, "TPU die"));
  if (!hero) return ctx.scene.add(std::move(p));

  const int mxus = dims.count("tpu_v5e.mxu_count");
  const double mxuEdge = dims.meters("tpu_v5e.mxu_edge");
  const double relief = dieT * 0.04;
  addTpuDieBlocks(p, dims, box, die, top + dieT, relief);
  const PrototypeId mxu = buildMxu(ctx, mxuEdge, relief);
  const auto cols = static_cast<int>(std::ceil(std::sqrt(double(mxus))));
  const double pitch = mxuEdge * 1.15;
  for (int i = 0; i < mxus; ++i) {
    const int c = i % cols, r = i / cols;
    p.children.push_back(placeChild(mxu,
                                    dvec3(die * 0.05 + (c - (cols - 1) / 2.0) * pitch, top + dieT,
                                          (r - (cols - 1) / 2.0) * pitch - die * 0.1),
                                    "mxu" + std::to_string(i)));
  }
  return ctx.scene.add(std::move(p));
}

// The Xeon core tile's drawing: block heights in multiples of the relief (a die's surface
// drawn in steps by unit kind: caches lowest, the AMX highest), the relief a share of the die's
// thickness; the mesh wires' width, the TMUL's multiply-accumulate array drawn as cells and the
// gaps between blocks, as shares of the core tile's width (layout choices, not catalog figures).
constexpr double CORE_RELIEF = 0.08;
constexpr double MESH_WIRE = 0.02;
constexpr int TMUL_DRAWN_CELLS = 8;
constexpr double BLOCK_GAP = 0.012;

// One Sapphire Rapids core tile of `w` x `d` (the mesh's unit): a Golden Cove core with its
// AVX-512 units and AMX (the tile registers TMM0-7 of 16 rows each and the TMUL), the 2 MB L2
// beside it (+X), and along the back (-Z) the CHA with the core's LLC slice and the mesh stop,
// whose wires run along the tile's back and right edges so that the tiles' wires make the mesh.
// The AMX lies at the front, towards the station's camera.
PrototypeId buildXeonCore(BuildContext& ctx, double w, double d, double relief) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const int regs = dims.count("xeon_spr.amx_tile_registers");
  const int rows = dims.count("xeon_spr.amx_tile_rows");
  const int rowBytes = dims.count("xeon_spr.amx_tile_row_bytes");
  const int fmas = dims.count("xeon_spr.avx512_fma_units");
  const double l2W = w * dims.number("xeon_spr.core_l2_width_fraction");
  const double meshD = d * dims.number("xeon_spr.core_mesh_depth_fraction");
  const double gap = w * BLOCK_GAP;
  // A cache's size as the vendor writes it: "48 KB", "2 MB", "1.875 MB".
  auto size = [&](const char* key) {
    const double bytes = dims.number(key);
    const bool mb = bytes >= 1024.0 * 1024.0;
    char text[32];
    std::snprintf(text, sizeof text, "%g %s", bytes / (mb ? 1024.0 * 1024.0 : 1024.0),
                  mb ? "MB" : "KB");
    return std::string(text);
  };
  const Look sram =
      withPattern(looks::SRAM, Pattern::SramArray, dims.meters("surface_detail.sram_macro_pitch"));

  Prototype core;
  core.name = "Golden Cove core tile";
  core.lod = proxyLod(looks::LOGIC, 40.0f);
  core.parts.push_back(
      boxPart(box, dvec3(0, relief / 4, 0), dvec3(w, relief / 2, d), looks::SILICON, "core tile"));
  // A block over x in [x0, x1], z in [z0, z1] (the tile's frame), `steps` reliefs high.
  auto block = [&](double x0, double x1, double z0, double z1, double steps, Look look,
                   std::string name) {
    const double h = relief * steps;
    core.parts.push_back(boxPart(box, dvec3((x0 + x1) / 2, relief / 2 + h / 2, (z0 + z1) / 2),
                                 dvec3(x1 - x0 - gap, h, z1 - z0 - gap), look, std::move(name)));
  };
  const double x0 = -w / 2, x1 = w / 2, z0 = -d / 2, z1 = d / 2;
  const double coreX1 = x1 - l2W, meshZ1 = z0 + meshD;
  // The back strip: the mesh stop at the corner its wires leave from, the CHA and LLC slice.
  const double stopX0 = x1 - meshD;
  block(stopX0, x1, z0, meshZ1, 1.5, looks::IO, "mesh stop (the core tile's node on the mesh)");
  block(x0, stopX0, z0, meshZ1, 1.0, sram,
        "CHA and LLC slice (" + size("xeon_spr.llc_slice_bytes") + " of the shared L3)");
  block(coreX1, x1, meshZ1, z1, 1.0, sram, "L2 cache (" + size("xeon_spr.l2_bytes") + ")");
  // The mesh wires: along the back edge and the right edge, met by the neighbours' wires.
  const double wire = w * MESH_WIRE, wireH = relief * 2.0;
  const Look meshWire = flat(looks::COPPER);
  core.parts.push_back(boxPart(box, dvec3(0, relief / 2 + wireH / 2, z0 + wire / 2),
                               dvec3(w, wireH, wire), meshWire, "mesh wires (east-west)"));
  core.parts.push_back(boxPart(box, dvec3(x1 - wire / 2, relief / 2 + wireH / 2, 0),
                               dvec3(wire, wireH, d), meshWire, "mesh wires (north-south)"));

  // The core itself, from the back: front end, out-of-order engine, execution, AMX in front.
  const double cw = coreX1 - x0, cd = z1 - meshZ1;
  const double amxD = (z1 - meshZ1) * dims.number("xeon_spr.core_amx_depth_fraction");
  const double amxZ0 = z1 - amxD;
  auto cx = [&](double u) { return x0 + cw * u; };
  auto cz = [&](double v) { return meshZ1 + cd * v; };
  const double frontV = 0.25, vectorV = (amxZ0 - meshZ1) / cd;
  block(cx(0.0), cx(0.2), cz(0.0), cz(frontV), 1.0, sram,
        "L1 instruction cache (" + size("xeon_spr.l1i_bytes") + ")");
  block(cx(0.2), cx(0.45), cz(0.0), cz(frontV), 1.5, looks::SCHEDULER,
        "front end: decoders and micro-op cache");
  block(cx(0.45), cx(1.0), cz(0.0), cz(frontV), 1.5, looks::LOGIC,
        "out-of-order engine: rename, reorder buffer, schedulers");
  block(cx(0.62), cx(1.0), cz(frontV), cz((frontV + vectorV) / 2), 1.5, looks::LANE,
        "integer execution units");
  block(cx(0.62), cx(1.0), cz((frontV + vectorV) / 2), cz(vectorV), 1.0, sram,
        "load/store and L1 data cache (" + size("xeon_spr.l1d_bytes") + ")");
  block(cx(0.0), cx(0.22), cz(frontV), cz(vectorV), 1.5, looks::REGISTER,
        "vector register file (zmm0-31, 512 bit)");
  for (int f = 0; f < fmas; ++f) {
    const double u0 = 0.22 + 0.4 * f / fmas, u1 = 0.22 + 0.4 * (f + 1) / fmas;
    block(cx(u0), cx(u1), cz(frontV), cz(vectorV), 2.0, looks::AVX512,
          f == 0 ? "AVX-512 FMA unit (ports 0+1)" : "AVX-512 FMA unit (port 5)");
  }

  // AMX: the tile registers TMM0-7 as 2 x 4 blocks of 16 rows of 64 bytes, the TMUL beside them.
  const double regsW = cw * 0.55, tmulX0 = x0 + regsW;
  const int regCols = std::max(1, regs / 2);
  const double regW = regsW / regCols, regD = amxD / 2;
  for (int t = 0; t < regs; ++t) {
    const double rx0 = x0 + regW * (t % regCols), rz0 = amxZ0 + regD * (t / regCols);
    const double rowD = (regD - 2 * gap) / rows;
    for (int r = 0; r < rows; ++r) {
      const double h = relief * 2.5;
      core.parts.push_back(
          boxPart(box, dvec3(rx0 + regW / 2, relief / 2 + h / 2, rz0 + gap + rowD * (r + 0.5)),
                  dvec3(regW - 2 * gap, h, rowD * 0.7), flat(looks::AMX_TILE),
                  "AMX tile register TMM" + std::to_string(t) + ", row " + std::to_string(r) +
                      " (" + std::to_string(rowBytes) + " B)"));
    }
  }
  block(tmulX0, coreX1, amxZ0, z1, 3.0, looks::INTEL_BLUE, "AMX TMUL (tile matrix multiply unit)");
  const double tmulW = coreX1 - tmulX0 - gap,
               cellPitch = std::min(tmulW, amxD - gap) / TMUL_DRAWN_CELLS;
  const glm::dvec2 tmulC((tmulX0 + coreX1) / 2, (amxZ0 + z1) / 2);
  for (int r = 0; r < TMUL_DRAWN_CELLS; ++r) {
    for (int c = 0; c < TMUL_DRAWN_CELLS; ++c) {
      const double h = relief * 0.5;
      core.parts.push_back(boxPart(box,
                                   dvec3(tmulC.x + cellPitch * (c - (TMUL_DRAWN_CELLS - 1) / 2.0),
                                         relief / 2 + relief * 3.0 + h / 2,
                                         tmulC.y + cellPitch * (r - (TMUL_DRAWN_CELLS - 1) / 2.0)),
                                   dvec3(cellPitch * CELL_FILL, h, cellPitch * CELL_FILL),
                                   flat(looks::INTEL_ENERGY_BLUE),
                                   "TMUL multiply-accumulate array (BF16, INT8)"));
    }
  }
  return ctx.scene.add(std::move(core));
}

}  // namespace

PrototypeId buildTpuBoard(BuildContext& ctx) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double bw = dims.meters("tpu_v5e.board_width"), bd = dims.meters("tpu_v5e.board_depth");
  const double bt = dims.meters("tpu_v5e.board_thickness");
  const int chips = dims.count("tpu_v5e.chips_per_board");
  const PrototypeId hbm = buildHbm2eStack(ctx);
  const PrototypeId hero = buildTpuPackage(ctx, true, hbm);
  const PrototypeId plain = buildTpuPackage(ctx, false, hbm);

  Prototype p;
  p.name = "TPU v5e board";
  p.lod = proxyLod(looks::PCB, 30.0f);
  p.parts.push_back(
      boxPart(box, dvec3(0, bt / 2, 0), dvec3(bw, bt, bd),
              withPattern(looks::PCB, Pattern::Pcb, dims.meters("surface_detail.pcb_trace_pitch")),
              "TPU board"));
  for (int i = 0; i < chips; ++i) {
    const double x = -bw / 2 + bw * (i + 0.5) / chips;
    p.children.push_back(
        placeChild(i == 0 ? hero : plain, dvec3(x, bt, 0), "chip" + std::to_string(i)));
  }
  return ctx.scene.add(std::move(p));
}

PrototypeId buildXeonPackage(BuildContext& ctx) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double pw = dims.meters("xeon_spr.package_width"),
               pd = dims.meters("xeon_spr.package_depth");
  const double pt = dims.meters("xeon_spr.substrate_thickness");
  const double tileW = dims.meters("xeon_spr.tile_width");
  const int tiles = dims.count("xeon_spr.compute_tiles");
  const int cores = dims.count("xeon_spr.cores_per_tile");
  const double dieT = dims.meters("xeon_spr.die_thickness");
  const double relief = dieT * CORE_RELIEF;

  // Core cell size from the tile's core grid.
  int gridCols = 1;
  while (gridCols * gridCols < cores) ++gridCols;
  const int gridRows = (cores + gridCols - 1) / gridCols;
  const double cellW = tileW / gridCols, cellD = tileW / gridRows;

  const PrototypeId coreId = buildXeonCore(ctx, cellW, cellD, relief);

  Prototype tile;
  tile.name = "compute tile";
  tile.lod = proxyLod(looks::SILICON, 30.0f);
  tile.parts.push_back(boxPart(box, dvec3(0, dieT / 2, 0), dvec3(tileW, dieT, tileW),
                               looks::SILICON, "compute tile die"));
  for (int i = 0; i < cores; ++i) {
    const int c = i % gridCols, r = i / gridCols;
    tile.children.push_back(placeChild(
        coreId, dvec3(-tileW / 2 + cellW * (c + 0.5), dieT, -tileW / 2 + cellD * (r + 0.5)),
        "core" + std::to_string(i)));
  }
  const PrototypeId tileId = ctx.scene.add(std::move(tile));

  Prototype p;
  p.name = "Xeon (Sapphire Rapids) package";
  p.lod = proxyLod(looks::SUBSTRATE, 30.0f);
  p.parts.push_back(
      boxPart(box, dvec3(0, pt / 2, 0), dvec3(pw, pt, pd), looks::SUBSTRATE, "LGA4677 substrate"));
  const int tileCols = std::max(1, tiles / 2);
  const double gap = 0.0005;
  for (int i = 0; i < tiles; ++i) {
    const int c = i % tileCols, r = i / tileCols;
    p.children.push_back(placeChild(
        tileId, dvec3((c - (tileCols - 1) / 2.0) * (tileW + gap), pt, (r - 0.5) * (tileW + gap)),
        "tile" + std::to_string(i)));
  }
  return ctx.scene.add(std::move(p));
}

PrototypeId buildGalleryTable(BuildContext& ctx) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double w = dims.meters("gallery.table_width"), d = dims.meters("gallery.table_depth");
  const double h = dims.meters("gallery.table_height");
  const double topT = 0.04;
  Prototype p;
  p.name = "gallery table";
  p.lod = proxyLod(looks::WOOD, 20.0f);
  p.parts.push_back(
      boxPart(box, dvec3(0, h - topT / 2, 0), dvec3(w, topT, d), looks::WOOD, "table top"));
  for (int sx = -1; sx <= 1; sx += 2) {
    for (int sz = -1; sz <= 1; sz += 2) {
      p.parts.push_back(boxPart(box,
                                dvec3(sx * (w / 2 - 0.05), (h - topT) / 2, sz * (d / 2 - 0.05)),
                                dvec3(0.05, h - topT, 0.05), looks::DARK_STEEL, "table leg"));
    }
  }
  p.children.push_back(placeChild(buildTpuBoard(ctx), dvec3(-w * 0.3, h, 0), "tpu"));
  p.children.push_back(placeChild(buildXeonPackage(ctx), dvec3(0, h, 0), "xeon"));
  p.children.push_back(placeChild(buildH100Package(ctx), dvec3(w * 0.3, h, 0), "h100"));
  return ctx.scene.add(std::move(p));
}

}  // namespace world
