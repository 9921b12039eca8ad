// The chapter-5 gallery: other ways to multiply matrices, at true scale on a table in the hero
// hall: a TPU v5e board (MXU systolic arrays), a Sapphire Rapids Xeon (AMX tiles), an H100.
#include <algorithm>
#include <cmath>

#include "world/build/builders.h"
#include "world/scene/procedural_textures.h"

namespace world {
namespace {

using glm::dvec3;

// Processing elements per tile edge when a systolic array is split into LOD tiles.
constexpr int CELLS_PER_TILE_EDGE = 8;

PrototypeId buildMxu(BuildContext& ctx, double edge, double t) {
  const int dim = ctx.dims.count("tpu_v5e.mxu_dim");
  const int cellsPerTile = std::min(dim, CELLS_PER_TILE_EDGE);
  const int tiles = std::max(1, dim / cellsPerTile);
  const double tileEdge = edge / tiles, cell = tileEdge / cellsPerTile;
  Prototype tile;
  tile.name = "systolic array tile";
  tile.lod = proxyLod(looks::TENSOR, 40.0f);
  for (int r = 0; r < cellsPerTile; ++r) {
    for (int c = 0; c < cellsPerTile; ++c) {
      tile.parts.push_back(
          boxPart(ctx.meshes.box,
                  dvec3(-tileEdge / 2 + cell * (c + 0.5), t / 2, -tileEdge / 2 + cell * (r + 0.5)),
                  dvec3(cell * 0.8, t, cell * 0.8), looks::TENSOR,
                  "MAC cell (bf16 multiply, f32 accumulate)"));
    }
  }
  const PrototypeId tileId = ctx.scene.add(std::move(tile));
  Prototype mxu;
  mxu.name = "MXU " + std::to_string(dim) + "x" + std::to_string(dim) + " systolic array";
  mxu.lod = proxyLod(looks::TENSOR, 20.0f);
  mxu.parts.push_back(boxPart(ctx.meshes.box, dvec3(0, t * 0.25, 0),
                              dvec3(edge * 1.04, t * 0.5, edge * 1.04), looks::SILICON_LIGHT,
                              "MXU frame"));
  for (int r = 0; r < tiles; ++r) {
    for (int c = 0; c < tiles; ++c) {
      mxu.children.push_back(placeChild(
          tileId,
          dvec3(-edge / 2 + tileEdge * (c + 0.5), t * 0.5, -edge / 2 + tileEdge * (r + 0.5)),
          "tile" + std::to_string(r * tiles + c)));
    }
  }
  return ctx.scene.add(std::move(mxu));
}

}  // namespace

PrototypeId buildTpuBoard(BuildContext& ctx) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double bw = dims.meters("tpu_v5e.board_width"), bd = dims.meters("tpu_v5e.board_depth");
  const double bt = dims.meters("tpu_v5e.board_thickness");
  const double pkg = dims.meters("tpu_v5e.package_size"), die = dims.meters("tpu_v5e.die_size");
  const double dieT = dims.meters("tpu_v5e.die_thickness");
  const int chips = dims.count("tpu_v5e.chips_per_board");
  const int mxus = dims.count("tpu_v5e.mxu_count");
  const double mxuEdge = dims.meters("tpu_v5e.mxu_edge");
  const double relief = dieT * 0.04;

  Prototype heroDie;
  heroDie.name = "TPU v5e die";
  heroDie.lod = proxyLod(looks::SILICON, 30.0f);
  heroDie.parts.push_back(
      boxPart(box, dvec3(0, dieT / 2, 0), dvec3(die, dieT, die), looks::SILICON, "TPU die"));
  const PrototypeId mxu = buildMxu(ctx, mxuEdge, relief);
  const auto cols = static_cast<int>(std::ceil(std::sqrt(double(mxus))));
  const double pitch = mxuEdge * 1.15;
  for (int i = 0; i < mxus; ++i) {
    const int c = i % cols, r = i / cols;
    heroDie.children.push_back(placeChild(
        mxu,
        dvec3((c - (cols - 1) / 2.0) * pitch, dieT, (r - (cols - 1) / 2.0) * pitch - die * 0.1),
        "mxu" + std::to_string(i)));
  }
  heroDie.parts.push_back(boxPart(box, dvec3(0, dieT + relief / 2, die * 0.33),
                                  dvec3(die * 0.7, relief, die * 0.12), looks::LANE,
                                  "vector unit"));
  heroDie.parts.push_back(boxPart(box, dvec3(-die * 0.38, dieT + relief / 2, 0),
                                  dvec3(die * 0.12, relief, die * 0.6), looks::SRAM,
                                  "vector memory (VMEM)"));
  heroDie.parts.push_back(boxPart(box, dvec3(die * 0.38, dieT + relief / 2, 0),
                                  dvec3(die * 0.12, relief, die * 0.3), looks::SCHEDULER,
                                  "scalar unit"));
  const PrototypeId heroDieId = ctx.scene.add(std::move(heroDie));

  Prototype p;
  p.name = "TPU v5e board";
  p.lod = proxyLod(looks::PCB, 30.0f);
  p.parts.push_back(boxPart(box, dvec3(0, bt / 2, 0), dvec3(bw, bt, bd), looks::PCB, "TPU board"));
  const double pkgT = 0.002;
  for (int i = 0; i < chips; ++i) {
    const double x = -bw / 2 + bw * (i + 0.5) / chips;
    p.parts.push_back(boxPart(box, dvec3(x, bt + pkgT / 2, 0), dvec3(pkg, pkgT, pkg),
                              looks::SUBSTRATE, "TPU package " + std::to_string(i)));
    if (i == 0) {
      p.children.push_back(placeChild(heroDieId, dvec3(x, bt + pkgT, 0), "chip0_die"));
    } else {
      p.parts.push_back(boxPart(box, dvec3(x, bt + pkgT + dieT / 2, 0), dvec3(die, dieT, die),
                                looks::SILICON, "TPU die " + std::to_string(i)));
    }
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
  const int regs = dims.count("xeon_spr.amx_tile_registers");
  const int rows = dims.count("xeon_spr.amx_tile_rows");
  const double dieT = dims.meters("xeon_spr.die_thickness");
  const double relief = dieT * 0.04;
  const int rowBytes = dims.count("xeon_spr.amx_tile_row_bytes");

  // Core cell size from the tile's core grid.
  int gridCols = 1;
  while (gridCols * gridCols < cores) ++gridCols;
  const int gridRows = (cores + gridCols - 1) / gridCols;
  const double cellW = tileW / gridCols, cellD = tileW / gridRows;

  // AMX: 8 tile registers (TMM0-7) of 16 rows x 64 bytes, and the TMUL array.
  const double amxW = cellW * 0.4, amxD = cellD * 0.5;
  Prototype amx;
  amx.name = "AMX unit";
  amx.lod = proxyLod(looks::TENSOR, 40.0f);
  const double regD = amxD * 0.6 / regs;
  for (int t = 0; t < regs; ++t) {
    const double z = -amxD / 2 + regD * (t + 0.5);
    for (int r = 0; r < rows; ++r) {
      const double rowW = amxW / rows;
      amx.parts.push_back(boxPart(box, dvec3(-amxW / 2 + rowW * (r + 0.5), relief, z),
                                  dvec3(rowW * 0.85, relief * (1.0 + 0.1 * t), regD * 0.8),
                                  looks::REGISTER,
                                  "TMM" + std::to_string(t) + " row " + std::to_string(r) + " (" +
                                      std::to_string(rowBytes) + " B)"));
    }
  }
  amx.parts.push_back(boxPart(box, dvec3(0, relief, amxD * 0.3),
                              dvec3(amxW, relief * 2, amxD * 0.35), looks::TENSOR,
                              "TMUL (tile matrix multiply unit)"));
  const PrototypeId amxId = ctx.scene.add(std::move(amx));

  Prototype core;
  core.name = "Golden Cove core";
  core.lod = proxyLod(looks::LOGIC, 40.0f);
  core.parts.push_back(boxPart(box, dvec3(0, relief / 4, 0),
                               dvec3(cellW * 0.9, relief / 2, cellD * 0.9), looks::LOGIC, "core"));
  core.parts.push_back(boxPart(
      box, dvec3(cellW * 0.25, relief / 2, -cellD * 0.2), dvec3(cellW * 0.35, relief, cellD * 0.4),
      withPattern(looks::SRAM, Pattern::SramArray, dims.meters("surface_detail.sram_macro_pitch")),
      "L2 cache"));
  core.children.push_back(placeChild(amxId, dvec3(-cellW * 0.2, 0, cellD * 0.1), "amx"));
  const PrototypeId coreId = ctx.scene.add(std::move(core));

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
