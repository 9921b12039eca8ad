// Silicon: SM, GPU dies, HBM stacks, packages. Sizes from the catalog's "dimensions" section;
// floorplan fractions there are estimates read from die shots, marked as such.
#include <algorithm>
#include <cmath>

#include <glm/gtc/constants.hpp>

#include "world/builders/builders.h"
#include "world/scene/procedural_textures.h"

namespace world {
namespace {

using glm::dvec3;

// Relief of logic blocks above the die surface (metal stack, exaggerated enough to read).
constexpr double RELIEF_FRACTION_OF_DIE = 0.04;

// SRAM (L1/shared memory, L2) with its macros drawn as a texture: too many cells for geometry.
Look sramLook(const Dimensions& dims) {
  return withPattern(looks::SRAM, Pattern::SramArray,
                     dims.meters("surface_detail.sram_macro_pitch"));
}

// cols x rows for n cells in a w x d rectangle, cells as close to square as possible.
std::pair<int, int> squareGrid(int n, double w, double d) {
  int bestCols = n, bestRows = 1;
  double bestScore = 1e300;
  for (int cols = 1; cols <= n; ++cols) {
    if (n % cols) continue;
    const int rows = n / cols;
    const double aspect = (w / cols) / (d / rows);
    const double score = std::abs(std::log(aspect));
    if (score < bestScore) {
      bestScore = score;
      bestCols = cols;
      bestRows = rows;
    }
  }
  return {bestCols, bestRows};
}

// Adds a row of `n` equal boxes across [x0, x1] at depth band [z0, z1].
void addStrip(Prototype& p, MeshId mesh, int n, double x0, double x1, double z0, double z1,
              double height, double gapFraction, Look look, const std::string& name) {
  const double cell = (x1 - x0) / n;
  const double gap = cell * gapFraction;
  for (int i = 0; i < n; ++i) {
    const double cx = x0 + cell * (i + 0.5);
    p.parts.push_back(boxPart(mesh, dvec3(cx, height / 2, 0.5 * (z0 + z1)),
                              dvec3(cell - gap, height, (z1 - z0) * (1 - gapFraction)), look,
                              name + " " + std::to_string(i)));
  }
}

PrototypeId buildSubPartition(BuildContext& ctx, double w, double d, double t) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  Prototype p;
  p.name = "SM sub-partition";
  p.lod = proxyLod(looks::LOGIC, 120.0f);
  p.parts.push_back(
      boxPart(box, dvec3(0, t * 0.25, 0), dvec3(w, t * 0.5, d), looks::SILICON_LIGHT, "floor"));
  // Bands from the back (-Z) to the front (+Z), as fractions of the depth.
  const double bands[5] = {0.12, 0.22, 0.30, 0.26, 0.10};
  double z = -d / 2;
  auto band = [&](int i) {
    const double z0 = z, z1 = z + bands[i] * d;
    z = z1;
    return std::make_pair(z0 + 0.04 * (z1 - z0), z1 - 0.04 * (z1 - z0));
  };
  const double x0 = -w / 2 + 0.03 * w, x1 = w / 2 - 0.03 * w;
  auto [s0, s1] = band(0);
  p.parts.push_back(boxPart(box, dvec3(x0 + 0.3 * (x1 - x0), t, 0.5 * (s0 + s1)),
                            dvec3(0.58 * (x1 - x0), t, s1 - s0), looks::SCHEDULER,
                            "warp scheduler"));
  p.parts.push_back(boxPart(box, dvec3(x0 + 0.8 * (x1 - x0), t, 0.5 * (s0 + s1)),
                            dvec3(0.38 * (x1 - x0), t, s1 - s0), looks::SCHEDULER,
                            "dispatch unit"));
  auto [r0, r1] = band(1);
  const int regBytes = dims.count("sm.register_file_per_sm") / dims.count("sm.sub_partitions");
  addStrip(p, box, 4, x0, x1, r0, r1, 1.3 * t, 0.06,
           withPattern(looks::REGISTER, Pattern::SramArray,
                       dims.meters("surface_detail.sram_macro_pitch")),
           "register file bank (" + std::to_string(regBytes / 4 / 1024) + " KiB)");
  auto [l0, l1] = band(2);
  const int lanes = dims.count("sm.fp32_lanes_per_sub_partition");
  const int perRow = std::max(1, lanes / 2);
  const double mid = 0.5 * (l0 + l1);
  addStrip(p, box, perRow, x0, x1, l0, mid, 0.9 * t, 0.15, looks::LANE, "FP32 lane row 0");
  addStrip(p, box, lanes - perRow, x0, x1, mid, l1, 0.9 * t, 0.15, looks::LANE, "FP32 lane row 1");
  auto [t0, t1] = band(3);
  addStrip(p, box, dims.count("sm.tensor_cores_per_sub_partition"), x0, x1, t0, t1, 1.8 * t, 0.05,
           looks::TENSOR, "tensor core");
  auto [u0, u1] = band(4);
  p.parts.push_back(boxPart(box, dvec3(x0 + 0.3 * (x1 - x0), t * 0.5, 0.5 * (u0 + u1)),
                            dvec3(0.58 * (x1 - x0), t, u1 - u0), looks::SRAM, "LD/ST units"));
  p.parts.push_back(boxPart(box, dvec3(x0 + 0.8 * (x1 - x0), t * 0.5, 0.5 * (u0 + u1)),
                            dvec3(0.38 * (x1 - x0), t, u1 - u0), looks::IO, "SFU"));
  for (Part& part : p.parts) {  // everything stands on the floor
    if (part.name != "floor") part.local[3].y = 0.5 * t + 0.5 * part.local[1][1];
  }
  return ctx.scene.add(std::move(p));
}

struct DieLayout {
  double width, depth, thickness, relief;
  bool hbmOnZEdges;  // Blackwell: HBM rows above/below; Hopper: left/right
};

}  // namespace

std::vector<std::string> componentKeys() {
  std::vector<std::string> keys;
  for (const ComponentInfo& c : COMPONENTS) keys.emplace_back(c.key);
  return keys;
}

Footprint footprintAt(const glm::dvec2& center, const glm::dvec2& size) {
  return {center - size / 2.0, center + size / 2.0};
}

void addBoxUnder(BuildContext& ctx, Prototype& p, const glm::dvec3& center, const glm::dvec3& size,
                 Look look, const std::string& name, const std::vector<Footprint>& covers) {
  std::vector<FaceRect> holes;
  for (const Footprint& f : covers) {
    const glm::dvec2 lo = (f.min - glm::dvec2(center.x, center.z)) / glm::dvec2(size.x, size.z);
    const glm::dvec2 hi = (f.max - glm::dvec2(center.x, center.z)) / glm::dvec2(size.x, size.z);
    holes.push_back({float(lo.x), float(lo.y), float(hi.x), float(hi.y)});
  }
  MeshId top;
  ctx.library.add(makeUnitTopWithHoles(holes), &top);
  p.parts.push_back(boxPart(ctx.meshes.boxSides, center, size, look, name));
  p.parts.push_back(boxPart(top, center, size, look, name));
}

LodDesc proxyLod(Look look, float openPixels) {
  LodDesc lod;
  lod.hasProxy = true;
  lod.openPixels = openPixels;
  lod.proxyLook = look;
  return lod;
}

glm::dvec2 dieSize_m(const Dimensions& dims, const std::string& chip) {
  const double area = dims.squareMeters(chip + ".die_area");
  const double aspect = dims.number(chip + ".die_aspect_w_over_h");
  return {std::sqrt(area * aspect), std::sqrt(area / aspect)};
}

PrototypeId buildSm(BuildContext& ctx, double w, double d, double t) {
  const double l1Fraction = ctx.dims.number("sm.l1_height_fraction");
  const int subPartitions = ctx.dims.count("sm.sub_partitions");
  const double gap = 0.03 * std::min(w, d);
  const double l1Depth = d * l1Fraction;
  const double partsDepth = d - l1Depth;
  const auto [cols, rows] = squareGrid(subPartitions, w, partsDepth);
  const double cellW = w / cols, cellD = partsDepth / rows;
  const PrototypeId sub = buildSubPartition(ctx, cellW - gap, cellD - gap, t);
  Prototype p;
  p.name = "SM";
  p.lod = proxyLod(looks::LOGIC, 60.0f);
  const int l1KiB = ctx.dims.count("sm.l1_shared_per_sm") / 1024;
  p.parts.push_back(boxPart(ctx.meshes.box, dvec3(0, t * 0.6, d / 2 - l1Depth / 2),
                            dvec3(w - gap, 1.2 * t, l1Depth - gap), sramLook(ctx.dims),
                            "L1 / shared memory (" + std::to_string(l1KiB) + " KiB)"));
  for (int i = 0; i < subPartitions; ++i) {
    const int c = i % cols, r = i / cols;
    const dvec3 at(-w / 2 + cellW * (c + 0.5), 0, -d / 2 + cellD * (r + 0.5));
    p.children.push_back(placeChild(sub, at, "subpartition" + std::to_string(i)));
  }
  return ctx.scene.add(std::move(p));
}

PrototypeId buildDie(BuildContext& ctx, const std::string& chip, bool detailed) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const glm::dvec2 size = dieSize_m(dims, chip);
  const double thickness = dims.meters(chip + ".die_thickness");
  DieLayout L{size.x, size.y, thickness, thickness * RELIEF_FRACTION_OF_DIE, chip == "gb100"};
  const double slab = L.thickness - L.relief;
  const double top = slab;  // blocks stand on the slab
  const double phyBand = dims.number(chip + ".phy_band_fraction");
  const double ioBand = dims.number(chip + ".io_band_fraction");
  const int phys = dims.count(chip + ".hbm_phy_count");
  const int nvlinks = dims.count(chip + ".nvlink_port_count");

  Prototype die;
  die.name = chip + " die";
  die.lod = proxyLod(looks::SILICON, 40.0f);
  die.parts.push_back(
      boxPart(box, dvec3(0, slab / 2, 0), dvec3(L.width, slab, L.depth), looks::SILICON, "die"));
  auto block = [&](double cx, double cz, double w, double d, Look look, const std::string& name) {
    die.parts.push_back(
        boxPart(box, dvec3(cx, top + L.relief / 2, cz), dvec3(w, L.relief, d), look, name));
  };

  // HBM PHYs along two opposite edges, I/O (NVLink, PCIe / NV-HBI) along the other two.
  double coreX0 = -L.width / 2, coreX1 = L.width / 2, coreZ0 = -L.depth / 2, coreZ1 = L.depth / 2;
  const int physPerEdge = std::max(1, phys / 2);
  if (L.hbmOnZEdges) {
    const double pd = phyBand * L.depth, id = ioBand * L.width;
    for (int edge = 0; edge < 2; ++edge) {
      const double cz = edge == 0 ? -L.depth / 2 + pd / 2 : L.depth / 2 - pd / 2;
      const double cell = (L.width - 2 * id) / physPerEdge;
      for (int i = 0; i < physPerEdge; ++i) {
        block(-L.width / 2 + id + cell * (i + 0.5), cz, 0.9 * cell, 0.9 * pd, looks::PHY,
              "HBM PHY " + std::to_string(edge * physPerEdge + i));
      }
    }
    coreZ0 += pd;
    coreZ1 -= pd;
    // NVLink ports on the outer (-X) edge, the NV-HBI die-to-die interface on +X.
    const double cell = (coreZ1 - coreZ0) / nvlinks;
    for (int i = 0; i < nvlinks; ++i) {
      block(-L.width / 2 + id / 2, coreZ0 + cell * (i + 0.5), 0.9 * id, 0.85 * cell, looks::IO,
            "NVLink port " + std::to_string(i));
    }
    block(L.width / 2 - id / 2, 0.5 * (coreZ0 + coreZ1), 0.9 * id, coreZ1 - coreZ0, looks::COPPER,
          "NV-HBI die-to-die interface");
    coreX0 += id;
    coreX1 -= id;
  } else {
    const double pw = phyBand * L.width, id = ioBand * L.depth;
    for (int edge = 0; edge < 2; ++edge) {
      const double cx = edge == 0 ? -L.width / 2 + pw / 2 : L.width / 2 - pw / 2;
      const double cell = (L.depth - 2 * id) / physPerEdge;
      for (int i = 0; i < physPerEdge; ++i) {
        block(cx, -L.depth / 2 + id + cell * (i + 0.5), 0.9 * pw, 0.9 * cell, looks::PHY,
              "HBM PHY " + std::to_string(edge * physPerEdge + i));
      }
    }
    coreX0 += pw;
    coreX1 -= pw;
    // NVLink ports split over the two I/O edges; PCIe in the middle of the front edge.
    const int perEdge = (nvlinks + 1) / 2;
    for (int edge = 0; edge < 2; ++edge) {
      const double cz = edge == 0 ? -L.depth / 2 + id / 2 : L.depth / 2 - id / 2;
      const int n = edge == 0 ? perEdge : nvlinks - perEdge;
      const double span = (coreX1 - coreX0) * (edge == 0 ? 1.0 : 0.8);
      const double cell = span / n;
      for (int i = 0; i < n; ++i) {
        block(coreX0 + cell * (i + 0.5), cz, 0.85 * cell, 0.9 * id, looks::IO,
              "NVLink port " + std::to_string(edge * perEdge + i));
      }
      if (edge == 1) {
        block(coreX1 - 0.1 * (coreX1 - coreX0), cz, 0.18 * (coreX1 - coreX0), 0.9 * id,
              looks::SCHEDULER, "PCIe Gen5 x16");
      }
    }
    coreZ0 += id;
    coreZ1 -= id;
  }

  // L2 band across the middle of the core; GPCs in two rows above and below it.
  const double coreW = coreX1 - coreX0, coreD = coreZ1 - coreZ0;
  const double l2 = dims.number(chip + ".l2_band_fraction") * coreD;
  const double coreCz = 0.5 * (coreZ0 + coreZ1);
  block(0.5 * (coreX0 + coreX1) - coreW / 4, coreCz, coreW / 2 * 0.98, 0.9 * l2, sramLook(dims),
        "L2 cache (half 0)");
  block(0.5 * (coreX0 + coreX1) + coreW / 4, coreCz, coreW / 2 * 0.98, 0.9 * l2, sramLook(dims),
        "L2 cache (half 1)");
  const int gpcs = dims.count(chip + ".gpc_count");
  const int smPerGpc = dims.count(chip + ".tpc_per_gpc") * dims.count(chip + ".sm_per_tpc");
  const int gpcCols = std::max(1, gpcs / 2);
  const double gpcW = coreW / gpcCols, gpcD = (coreD - l2) / 2;
  const double gap = 0.02 * std::min(gpcW, gpcD);
  const auto [smCols, smRows] = squareGrid(smPerGpc, gpcW - 2 * gap, gpcD - 2 * gap);
  const double smW = (gpcW - 2 * gap) / smCols, smD = (gpcD - 2 * gap) / smRows;
  const double smGap = 0.04 * std::min(smW, smD);

  Prototype gpc;
  gpc.name = "GPC";
  gpc.lod = proxyLod(looks::LOGIC, 50.0f);
  gpc.parts.push_back(boxPart(box, dvec3(0, L.relief * 0.25, 0),
                              dvec3(gpcW - gap, L.relief * 0.5, gpcD - gap), looks::SILICON_LIGHT,
                              "GPC frame"));
  PrototypeId sm{};
  if (detailed) sm = buildSm(ctx, smW - smGap, smD - smGap, L.relief);
  for (int i = 0; i < smPerGpc; ++i) {
    const int c = i % smCols, r = i / smCols;
    const dvec3 at(-gpcW / 2 + gap + smW * (c + 0.5), L.relief * 0.5,
                   -gpcD / 2 + gap + smD * (r + 0.5));
    if (detailed) {
      gpc.children.push_back(placeChild(sm, at, "sm" + std::to_string(i)));
    } else {
      gpc.parts.push_back(boxPart(box, at + dvec3(0, L.relief / 2, 0),
                                  dvec3(smW - smGap, L.relief, smD - smGap), looks::LOGIC,
                                  "SM " + std::to_string(i)));
    }
  }
  const PrototypeId gpcId = ctx.scene.add(std::move(gpc));
  for (int i = 0; i < gpcs; ++i) {
    const int c = i % gpcCols, r = i / gpcCols;
    const double cz = r == 0 ? coreZ0 + gpcD / 2 : coreZ1 - gpcD / 2;
    die.children.push_back(
        placeChild(gpcId, dvec3(coreX0 + gpcW * (c + 0.5), top, cz), "gpc" + std::to_string(i)));
  }
  return ctx.scene.add(std::move(die));
}

PrototypeId buildHbmStack(BuildContext& ctx, bool cutaway) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  // The station's drawing scales every height (never the footprint), so the dies read apart.
  const double k = cutaway ? HBM_CUTAWAY_HEIGHT_SCALE : 1.0;
  const double w = dims.meters("hbm3e_stack.width"), d = dims.meters("hbm3e_stack.depth");
  const double h = k * dims.meters("hbm3e_stack.height");
  const int dramDies = dims.count("hbm3e_stack.dram_die_count");
  const double base = k * dims.meters("hbm3e_stack.base_die_thickness");
  const double gap = k * dims.meters("hbm3e_stack.bond_gap");
  const double dram = (h - base - dramDies * gap) / dramDies;

  Prototype p;
  p.name = cutaway ? "HBM3e stack (cut open, height x4)" : "HBM3e stack";
  p.lod = proxyLod(looks::DRAM, 30.0f);
  // A layer [y, y + t]: the whole tile, or, cut open, the tile less its +X +Z quadrant as two
  // boxes (the back half and the front-left quarter) of one name. Every layer but the top one
  // lies under another of its footprint, which hides its top: its sides alone (a software
  // rasterizer shades the hidden tops of 17 stacked layers as if they showed).
  auto layer = [&](double y, double t, Look look, const std::string& name, bool top = false) {
    const MeshId mesh = top ? box : ctx.meshes.boxSides;
    if (!cutaway) {
      p.parts.push_back(boxPart(mesh, dvec3(0, y + t / 2, 0), dvec3(w, t, d), look, name));
      return;
    }
    p.parts.push_back(boxPart(mesh, dvec3(0, y + t / 2, -d / 4), dvec3(w, t, d / 2), look, name));
    p.parts.push_back(
        boxPart(mesh, dvec3(-w / 4, y + t / 2, d / 4), dvec3(w / 2, t, d / 2), look, name));
  };
  layer(0, base, looks::BASE_DIE, "base logic die");
  std::vector<double> bondBottoms;
  double y = base;
  for (int i = 0; i < dramDies; ++i) {
    bondBottoms.push_back(y);
    if (cutaway) layer(y, gap, looks::UNDERFILL, "bond layer " + std::to_string(i));
    y += gap;
    layer(y, dram, looks::DRAM, "DRAM die " + std::to_string(i), i == dramDies - 1);
    y += dram;
  }
  if (!cutaway) return ctx.scene.add(std::move(p));

  // The cut faces (x = 0 facing +X, z = 0 facing +Z, each from the inner corner out to the
  // edge): a microbump in every bond layer at every site, and where a site lies in the TSV area
  // (a strip along X through the die's middle, so the +Z face runs along it) a TSV column up
  // through the base die and every DRAM die but the top one, which needs none. The bumps and
  // TSVs are drawn at the height scale in every direction, so they keep their shape, and a
  // site stands for k x k real ones: a representative row, not millions.
  const double pitch = k * dims.meters("hbm3e_stack.microbump_pitch");
  const double tsv = k * dims.meters("hbm3e_stack.tsv_diameter");
  const double tsvArea = dims.meters("hbm3e_stack.tsv_area_width");
  const double bump = 0.45 * pitch;  // a bump's diameter: under half the pitch, as drawn bumps are
  const int sites = int(std::floor(0.5 * std::min(w, d) / pitch));
  const double tsvTop = y - dram;  // the top DRAM die's underside
  // One row per cut face: each row's box is a thin strip along its face, so that its proxy (a
  // far stack's few pixels) stays on the face instead of filling the cut quadrant between them.
  for (int face = 0; face < 2; ++face) {
    Prototype row;
    row.name = std::string("TSVs and microbumps (cut face ") + (face == 0 ? "x" : "z") + ")";
    row.lod = proxyLod(looks::UNDERFILL, 60.0f);
    for (int i = 0; i < sites; ++i) {
      const double along = pitch * (i + 0.5);  // from the inner corner
      const dvec3 at = face == 0 ? dvec3(along, 0, 0) : dvec3(0, 0, along);
      for (size_t b = 0; b < bondBottoms.size(); ++b) {
        row.parts.push_back(boxPart(
            ctx.meshes.cylinderLow, at + dvec3(0, bondBottoms[b] + gap / 2, 0),
            dvec3(bump, 0.9 * gap, bump), looks::MICROBUMP, "microbump " + std::to_string(b)));
      }
      if (std::abs(at.z) <= tsvArea / 2) {
        row.parts.push_back(boxPart(ctx.meshes.cylinderLow, at + dvec3(0, tsvTop / 2, 0),
                                    dvec3(tsv, tsvTop, tsv), looks::COPPER,
                                    "TSV " + std::to_string(face * sites + i)));
      }
    }
    // Centred on the cut planes: the saw went through these bumps and TSVs.
    p.children.push_back(placeChild(ctx.scene.add(std::move(row)), dvec3(0.0),
                                    face == 0 ? "tsv_row_x" : "tsv_row_z"));
  }
  return ctx.scene.add(std::move(p));
}

namespace {

// The projected radius (px) above which a row of decoupling capacitors opens into its parts:
// at the tray's framing a row is a strip of a few pixels.
constexpr float DECAP_ROW_OPEN_PX = 60.0f;

// One row of 0402 decoupling capacitors `length` long along X, centred on its origin.
PrototypeId buildDecapRow(BuildContext& ctx, double length) {
  const Dimensions& dims = ctx.dims;
  const double capL = dims.meters("package_dressing.decap_length");
  const double capW = dims.meters("package_dressing.decap_width");
  const double pitch = dims.meters("package_dressing.decap_pitch");
  const int caps = std::max(1, int(std::floor(length / pitch)));
  Prototype p;
  p.name = "decoupling capacitor row";
  p.lod = proxyLod(looks::CERAMIC, DECAP_ROW_OPEN_PX);
  for (int i = 0; i < caps; ++i) {
    const double x = (i - (caps - 1) / 2.0) * pitch;
    // Laid across the row, as on a package: terminals towards and away from the silicon.
    p.parts.push_back(boxPart(ctx.meshes.box, dvec3(x, capW / 2, 0), dvec3(capW, capW, capL),
                              looks::CERAMIC, "decoupling capacitor"));
  }
  return ctx.scene.add(std::move(p));
}

}  // namespace

void addPackageDressing(BuildContext& ctx, Prototype& p, const glm::dvec3& substrate,
                        const glm::dvec2& interposer) {
  const Dimensions& dims = ctx.dims;
  const double ringW = dims.meters("package_dressing.stiffener_width");
  const double ringH = dims.meters("package_dressing.stiffener_height");
  const double capL = dims.meters("package_dressing.decap_length");
  const int rows = dims.count("package_dressing.decap_rows");
  const double subW = substrate.x, subT = substrate.y, subD = substrate.z;
  // The stiffener: four bars round the substrate's edge.
  for (int side = -1; side <= 1; side += 2) {
    p.parts.push_back(boxPart(ctx.meshes.box, dvec3(side * (subW - ringW) / 2, subT + ringH / 2, 0),
                              dvec3(ringW, ringH, subD), looks::STIFFENER, "stiffener ring"));
    p.parts.push_back(boxPart(ctx.meshes.box, dvec3(0, subT + ringH / 2, side * (subD - ringW) / 2),
                              dvec3(subW - 2 * ringW, ringH, ringW), looks::NICKEL,
                              "stiffener ring"));
  }
  // Rows of decoupling capacitors along each interposer edge, between it and the stiffener.
  const double gapX = (subW - interposer.x) / 2 - ringW, gapZ = (subD - interposer.y) / 2 - ringW;
  const double rowPitch = 2.0 * capL;
  const PrototypeId alongX = buildDecapRow(ctx, interposer.x);
  const PrototypeId alongZ = buildDecapRow(ctx, interposer.y);
  for (int r = 0; r < rows; ++r) {
    const double out = capL + r * rowPitch;  // from the interposer's edge
    for (int side = -1; side <= 1; side += 2) {
      const std::string tag = std::to_string(r) + (side < 0 ? "a" : "b");
      if (out + capL < gapZ) {
        p.children.push_back(
            placeChild(alongX, dvec3(0, subT, side * (interposer.y / 2 + out)), "decaps_x" + tag));
      }
      if (out + capL < gapX) {
        p.children.push_back(placeChild(alongZ, dvec3(side * (interposer.x / 2 + out), subT, 0),
                                        "decaps_z" + tag, glm::half_pi<double>()));
      }
    }
  }
}

PrototypeId buildB200Package(BuildContext& ctx, const PackageDesc& desc) {
  const Dimensions& dims = ctx.dims;
  const double subW = dims.meters("b200_package.substrate_width");
  const double subD = dims.meters("b200_package.substrate_depth");
  const double subT = dims.meters("b200_package.substrate_thickness");
  const double ipW = dims.meters("b200_package.interposer_width");
  const double ipD = dims.meters("b200_package.interposer_depth");
  const double ipT = dims.meters("b200_package.interposer_thickness");
  const int dies = dims.count("b200_package.dies");
  const int stacks = dims.count("b200_package.hbm_stacks");
  const glm::dvec2 die = dieSize_m(dims, "gb100");
  const double hbi = dims.meters("gb100.nv_hbi_gap");
  const double hbmD = dims.meters("hbm3e_stack.depth");
  const double dieT = dims.meters("gb100.die_thickness");

  const double hbmW = dims.meters("hbm3e_stack.width");

  Prototype p;
  p.name = desc.hero ? "B200 package (hero)" : "B200 package";
  p.lod = proxyLod(looks::SUBSTRATE, 30.0f);
  addPackageDressing(ctx, p, dvec3(subW, subT, subD), glm::dvec2(ipW, ipD));
  const double top = subT + ipT;
  const PrototypeId dieId = buildDie(ctx, "gb100", desc.hero);
  const PrototypeId stack = buildHbmStack(ctx, false);
  // What stands on the interposer and hides its top there.
  std::vector<Footprint> onInterposer;
  // Dies side by side along X, NV-HBI edges (+X of each die's frame) facing each other.
  for (int i = 0; i < dies; ++i) {
    const double cx = (i - (dies - 1) / 2.0) * (die.x + hbi);
    const double yaw = i == 0 ? 0.0 : glm::pi<double>();
    p.children.push_back(placeChild(dieId, dvec3(cx, top, 0), "die" + std::to_string(i), yaw));
    onInterposer.push_back(footprintAt({cx, 0}, die));
  }
  // HBM stacks in two rows beside the dies' HBM PHY edges (-Z and +Z).
  const int perRow = std::max(1, stacks / 2);
  const double rowSpan = dies * die.x + (dies - 1) * hbi;
  const double pitch = rowSpan / perRow;
  const double rowZ = die.y / 2 + 0.001 + hbmD / 2;
  for (int i = 0; i < stacks; ++i) {
    const int row = i / perRow, k = i % perRow;
    const double cx = -rowSpan / 2 + pitch * (k + 0.5);
    const double cz = row == 0 ? rowZ : -rowZ;
    p.children.push_back(placeChild(stack, dvec3(cx, top, cz), "hbm" + std::to_string(i)));
    if (desc.hero && i == 0) {
      // Where the cut-open drawing stands in for stack 0 (below) the interposer shows in its cut
      // +X +Z quadrant: only its back half and front-left quarter hide it.
      onInterposer.push_back(footprintAt({cx, cz - hbmD / 4}, {hbmW, hbmD / 2}));
      onInterposer.push_back(footprintAt({cx - hbmW / 4, cz + hbmD / 4}, {hbmW / 2, hbmD / 2}));
    } else {
      onInterposer.push_back(footprintAt({cx, cz}, {hbmW, hbmD}));
    }
  }
  addBoxUnder(ctx, p, dvec3(0, subT / 2, 0), dvec3(subW, subT, subD), looks::SUBSTRATE,
              "package substrate", {footprintAt({0, 0}, {ipW, ipD})});
  addBoxUnder(ctx, p, dvec3(0, subT + ipT / 2, 0), dvec3(ipW, ipT, ipD), looks::SILICON_LIGHT,
              "CoWoS-L interposer", onInterposer);
  if (desc.hero) {
    // The hbm station's drawing of stack 0 (front row, so its cut faces look at a camera in
    // front) stands in for it there alone: the package, the tray round it and every other
    // station keep the true-scale stack under the cold plate (scene.h, StandIn).
    ChildInstance& stack0 = *std::find_if(p.children.begin(), p.children.end(),
                                          [](const ChildInstance& c) { return c.name == "hbm0"; });
    stack0.standIn = StandIn::Replaced;
    stack0.standInDrawing = HBM_CUTAWAY_DRAWING;
    ChildInstance cut = stack0;
    cut.prototype = buildHbmStack(ctx, true);
    cut.name = HBM_CUTAWAY_DRAWING;
    cut.standIn = StandIn::Model;
    p.children.push_back(cut);
    // The capacitors are true-scale: beside a drawing 4x tall they would read as bricks at the
    // wrong scale, so where the drawing stands in they step aside too.
    for (ChildInstance& child : p.children) {
      if (child.name.rfind("decaps_", 0) != 0) continue;
      child.standIn = StandIn::Replaced;
      child.standInDrawing = HBM_CUTAWAY_DRAWING;
    }
  }
  if (desc.hero && desc.coldPlate) {
    // The hero's true cold plate is off in its tray, so its dies show there (builders_system.cpp);
    // the package station draws it lifted straight up off the dies, its contact pad over the
    // dies and both HBM rows, the exploded view's one transform.
    const glm::dvec2 contact(rowSpan, 2.0 * rowZ + hbmD);
    ChildInstance plate =
        placeChild(buildLiftedColdPlate(ctx, contact), dvec3(0, top + dieT + COLD_PLATE_LIFT_M, 0),
                   COLD_PLATE_DRAWING);
    plate.standIn = StandIn::Model;
    plate.standInDrawing = COLD_PLATE_DRAWING;
    p.children.push_back(plate);
  }
  return ctx.scene.add(std::move(p));
}

PrototypeId buildH100Package(BuildContext& ctx) {
  const Dimensions& dims = ctx.dims;
  const double subW = dims.meters("h100_package.substrate_width");
  const double subD = dims.meters("h100_package.substrate_depth");
  const double subT = dims.meters("h100_package.substrate_thickness");
  const double ipW = dims.meters("h100_package.interposer_width");
  const double ipD = dims.meters("h100_package.interposer_depth");
  const double ipT = dims.meters("b200_package.interposer_thickness");
  const glm::dvec2 die = dieSize_m(dims, "gh100");
  const int stacks = dims.count("gh100.hbm_phy_count");
  const double hbmW = dims.meters("hbm3e_stack.width"), hbmD = dims.meters("hbm3e_stack.depth");

  Prototype p;
  p.name = "H100 package";
  p.lod = proxyLod(looks::SUBSTRATE, 30.0f);
  addPackageDressing(ctx, p, dvec3(subW, subT, subD), glm::dvec2(ipW, ipD));
  const double top = subT + ipT;
  p.children.push_back(placeChild(buildDie(ctx, "gh100", true), dvec3(0, top, 0), "die0"));
  // What stands on the interposer and hides its top there: the die and the stacks.
  std::vector<Footprint> onInterposer{footprintAt({0, 0}, die)};
  const PrototypeId stack = buildHbmStack(ctx, false);
  const int perSide = std::max(1, stacks / 2);
  const double pitch = std::max(die.y / perSide, hbmD + 0.0005);  // stacks never overlap
  for (int i = 0; i < stacks; ++i) {
    const int side = i / perSide, k = i % perSide;
    const double cx = (side == 0 ? -1 : 1) * (die.x / 2 + 0.001 + hbmW / 2);
    const double cz = (k - (perSide - 1) / 2.0) * pitch;
    p.children.push_back(
        placeChild(stack, dvec3(cx, top, cz), "hbm" + std::to_string(i), glm::half_pi<double>()));
    onInterposer.push_back(footprintAt({cx, cz}, {hbmD, hbmW}));  // turned a quarter: depth on X
  }
  addBoxUnder(ctx, p, dvec3(0, subT / 2, 0), dvec3(subW, subT, subD), looks::SUBSTRATE,
              "package substrate", {footprintAt({0, 0}, {ipW, ipD})});
  addBoxUnder(ctx, p, dvec3(0, subT + ipT / 2, 0), dvec3(ipW, ipT, ipD), looks::SILICON_LIGHT,
              "CoWoS-S interposer", onInterposer);
  return ctx.scene.add(std::move(p));
}

PrototypeId buildGracePackage(BuildContext& ctx) {
  const Dimensions& dims = ctx.dims;
  const MeshId box = ctx.meshes.box;
  const double w = dims.meters("grace_cpu.package_width");
  const double d = dims.meters("grace_cpu.package_depth");
  const double t = dims.meters("b200_package.substrate_thickness");
  const int modules = dims.count("grace_cpu.lpddr_modules");
  Prototype p;
  p.name = "Grace CPU";
  p.lod = proxyLod(looks::SUBSTRATE, 30.0f);
  p.parts.push_back(
      boxPart(box, dvec3(0, t / 2, 0), dvec3(w, t, d), looks::SUBSTRATE, "Grace substrate"));
  p.parts.push_back(boxPart(box, dvec3(0, t + 0.0004, 0), dvec3(0.5 * w, 0.0008, 0.5 * d),
                            looks::SILICON, "Grace die (72 Neoverse V2 cores)"));
  // LPDDR5X packages in two columns beside the CPU.
  const int perSide = std::max(1, modules / 2);
  const double pitch = d / perSide;
  for (int i = 0; i < modules; ++i) {
    const int side = i / perSide, k = i % perSide;
    const double cx = (side == 0 ? -1 : 1) * (w / 2 + 0.008);
    p.parts.push_back(boxPart(box, dvec3(cx, 0.0006, -d / 2 + pitch * (k + 0.5)),
                              dvec3(0.012, 0.0012, 0.9 * pitch), looks::DRAM,
                              "LPDDR5X " + std::to_string(i)));
  }
  return ctx.scene.add(std::move(p));
}

}  // namespace world
