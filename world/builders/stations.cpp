#include "world/builders/stations.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "world/builders/builders.h"

namespace world {
namespace {

// The paths and texts the specs point into: kept alive while the specs are read.
// The hbm station's view: from the stack's front right (its cut quadrant) and above, more from
// the right than the front so that the die behind the stack (-Z) opens out to its right; and how
// far past the stack the frame reaches onto the die, in stack sizes: about half the die's width.
constexpr double HBM_VIEW_FROM[3] = {0.3, 0.95, 1.0};
constexpr double HBM_DIE_REACH = 0.5;
constexpr double HBM_FRAMING = 0.9;

struct SpecText {
  std::string sm, die, hbm, die1, package, tray, rack, dieTitle, dieText, packageTitle, packageText,
      trayTitle, trayText, rackTitle, rackText, rowText, cabinetSystems;
};

// The hbm station of a Blackwell package: the cut-open drawing of its stack 0 (a stand-in,
// heights x4, builders_chip.cpp) beside the GPU die on the interposer, its package the studio;
// seen from the front right and above, into the cut quadrant, the view reaching past the stack
// onto the die `die` behind it (its HBM PHY edge faces the stack) so that the stack stands as a
// block beside the die it feeds. Its callouts name what the cut shows, and the title says the
// heights are drawn x4 in every text mode.
StationSpec hbmCutaway(const char* path, const char* package, const char* die) {
  StationSpec spec{"hbm",
                   "HBM3e stack, cut open (height ×4)",
                   "DRAM dies stacked on a base logic die, bonded by microbumps, joined by TSVs",
                   path,
                   true,
                   glm::dvec3(HBM_VIEW_FROM[0], HBM_VIEW_FROM[1], HBM_VIEW_FROM[2]),
                   HBM_FRAMING,
                   package,
                   "",
                   nullptr,
                   HBM_CUTAWAY_DRAWING,
                   {{" × DRAM", "DRAM die", {0.0, 0.6, 1.0}, true},
                    {"base die", "base logic die", {0.25, 0.5, 1.0}},
                    {"TSVs", "TSV", {0.75, 0.6, 0.0}},
                    {"height ×4", "DRAM die", {0.25, 1.0, 0.0}}}};
  spec.context = die;
  spec.contextReach = HBM_DIE_REACH;
  return spec;
}

// An 8-GPU HGX system (DGX H100, HGX H200, DGX B200): the hero system is rack 0 of row 0,
// pulled out of its cabinet with the lid off; its baseboard's GPU 0 is the hero GPU.
std::vector<StationSpec> chassisSpecs(const SystemLayout& system, SpecText& t) {
  const std::string gpu = "hall0/row0/rack0/compute_tray0/baseboard0_gpu0";
  const bool blackwell = system.package == GpuPackage::B200;
  t.sm = gpu + "/die0/gpc0/sm0";
  t.die = gpu + "/die0";
  // A Blackwell hero package has the cut-open drawing of its stack 0 (builders_chip.cpp).
  t.hbm = gpu + "/" + (blackwell ? HBM_CUTAWAY_DRAWING : "hbm0");
  t.die1 = blackwell ? gpu + "/die1" : "";
  t.package = gpu;
  t.tray = "hall0/row0/rack0";
  t.rack = "hall0/row0/rack_cabinet0";
  t.dieTitle = blackwell ? "Blackwell die" : "Hopper die";
  t.dieText = blackwell ? "one of the two GB100 dies: GPCs of SMs, L2, HBM PHYs, NVLink, NV-HBI"
                        : "the GH100 die: 8 GPCs of SMs, L2 halves, 6 HBM PHYs, NVLink";
  t.packageTitle = system.gpuName + " package";
  t.packageText = blackwell ? "2 dies and 8 HBM3e stacks on a CoWoS-L interposer and substrate"
                            : "one GH100 die and 6 HBM stacks on a CoWoS interposer and substrate";
  t.trayTitle = system.systemName;
  t.trayText = "pulled out, lid off: the HGX baseboard with " +
               std::to_string(system.gpusPerDomain) + " SXM GPUs under air heatsinks and " +
               std::to_string(system.nvswitchChips) +
               " NVSwitch chips, the host board, fans, power supplies";
  t.rackTitle = "Rack of " + std::to_string(system.domainsPerCabinet) + " " + system.systemName;
  t.rackText = "a 48U cabinet of " + std::to_string(system.domainsPerCabinet) +
               " systems, each one NVLink domain of " + std::to_string(system.gpusPerDomain) +
               " GPUs";
  // The rack studio keeps the cabinet's own systems (the row's "rack<k>", each an NVLink domain,
  // beside the cabinet frame) and no other cabinet: the hero stands alone, as the NVL72 does.
  for (int k = 0; k < system.domainsPerCabinet; ++k)
    t.cabinetSystems += (k ? " rack" : "rack") + std::to_string(k);
  const glm::dvec3 above(0.45, 1.0, 0.8);
  const char* P = t.package.c_str();
  const char* heroSystem = "hall0/row0/rack0";  // pulled out of the cabinet: framed with it
  return {
      {"sm", "Streaming multiprocessor",
       "one SM: 4 sub-partitions with warp schedulers, register files, FP32 lanes and a tensor "
       "core each, around L1/shared memory",
       t.sm.c_str(), true, above, 0.97},
      {"die", t.dieTitle.c_str(), t.dieText.c_str(), t.die.c_str(), true, above, 1.0, nullptr,
       blackwell ? "die1" : "", blackwell ? t.die1.c_str() : nullptr},
      blackwell ? hbmCutaway(t.hbm.c_str(), P, t.die.c_str())
                : StationSpec{"hbm", "HBM stack", "base logic die under stacked DRAM dies",
                              t.hbm.c_str(), true, glm::dvec3(0.6, 0.5, 1.0), 1.0, P},
      {"package", t.packageTitle.c_str(), t.packageText.c_str(), P, true, above, 1.0},
      {"tray", t.trayTitle.c_str(), t.trayText.c_str(), t.tray.c_str(), true,
       glm::dvec3(0.45, 0.9, 1.0), 1.0},
      {"rack", t.rackTitle.c_str(), t.rackText.c_str(), t.rack.c_str(), true,
       glm::dvec3(0.4, 0.5, 1.0), 1.0, nullptr, t.cabinetSystems.c_str(), heroSystem},
      {"rack_back", "Rack back", "the back of the cabinet: power supplies and OSFP cages",
       t.rack.c_str(), false, glm::dvec3(0.4, 0.15, -1.0), 1.0, nullptr, t.cabinetSystems.c_str(),
       heroSystem},
  };
}

std::vector<StationSpec> specs(const SystemLayout& system, SpecText& t) {
  if (system.chassis()) return chassisSpecs(system, t);
  const std::string gpu = "hall0/row0/rack0/compute_tray9/superchip0_gpu0";
  t.sm = gpu + "/die0/gpc0/sm0";
  t.die = gpu + "/die0";
  t.hbm = gpu + "/" + HBM_CUTAWAY_DRAWING;
  t.die1 = gpu + "/die1";
  t.package = gpu;
  t.tray = "hall0/row0/rack0/compute_tray9";
  t.rack = "hall0/row0/rack0";
  const std::string &sm = t.sm, &die = t.die, &hbm = t.hbm, &die1 = t.die1, &package = t.package,
                    &tray = t.tray, &rack = t.rack;
  // 3/4 views from above for what lies flat, from the front and a little above for what stands.
  const glm::dvec3 above(0.3, 0.9, 1.0), front(0.35, 0.3, 1.0), high(0.6, 0.7, 1.0);
  const glm::dvec3 exploded(0.35, 0.6, 1.0);
  const char* P = package.c_str();
  return {
      {"sm", "Streaming multiprocessor",
       "one SM: 4 sub-partitions with warp schedulers, register files, FP32 lanes and a tensor "
       "core each, around L1/shared memory",
       sm.c_str(), true, above, 0.97},
      {"die", "Blackwell die",
       "one of the two GB100 dies: GPCs of SMs, L2, HBM PHYs, NVLink, NV-HBI", die.c_str(), true,
       above, 1.0, nullptr, "die1", die1.c_str()},
      hbmCutaway(hbm.c_str(), P, die.c_str()),
      // The package with its cold plate lifted straight up off it (a stand-in, builders_chip.cpp),
      // framed together, seen lower than `above` so the dies show between plate and package.
      {"package", "B200 package", "2 dies and 8 HBM3e stacks on a CoWoS-L interposer and substrate",
       package.c_str(), true, exploded, 0.96, nullptr, "", nullptr, COLD_PLATE_DRAWING},
      {"tray", "Compute tray",
       "1U tray, pulled out: 2 GB200 superchips (Grace + 2 Blackwell), "
       "cold plates, NICs",
       tray.c_str(), true, glm::dvec3(0.3, 0.9, 1.0), 1.0},
      {"rack", "GB200 NVL72 rack",
       "18 compute trays, 9 NVLink switch trays, power shelves, copper "
       "spine, coolant manifolds",
       rack.c_str(), true, glm::dvec3(0.36, 0.12, 1.0), 0.9},
      {"rack_back", "NVLink spine (rack back)",
       "the back of the NVL72 rack: the copper NVLink spine cartridges and cable bundles that "
       "join 72 GPUs, and the coolant manifolds",
       rack.c_str(), false, glm::dvec3(0.4, 0.15, -1.0), 1.0},
  };
}

// The stations every system shares: the row, the hall and the campus, the chapter-5 gallery.
std::vector<StationSpec> commonSpecs(const SystemLayout& system, SpecText& t) {
  const glm::dvec3 above(0.3, 0.9, 1.0), high(0.6, 0.7, 1.0);
  t.rowText =
      system.chassis()
          ? "a row of 48U cabinets of " + std::to_string(system.domainsPerCabinet) + " " +
                system.systemName +
                " each, with its CDUs, leaf switches, cable tray and "
                "coolant pipes"
          : "a row of NVL72 racks with its CDU, leaf switches, cable tray and coolant pipes";
  return {
      {"row", "Scalable unit", t.rowText.c_str(), "hall0/row0", true, glm::dvec3(0.55, 0.35, 1.0),
       1.4, nullptr, "row*"},
      // The trunk to the rows stays in the studio (not framed): it leaves the frame for them.
      {"fabric", "Scale-out fabric", "spine switch racks and the overhead cable trunk to every row",
       "hall0/fabric/spine", true, glm::dvec3(0.6, 0.35, 1.0), 1.25, nullptr, "trunk"},
      {"hall", "Data hall", "rows of racks in cold/hot aisle pairs, the fabric, the gallery table",
       "hall0", true, high, 1.0, nullptr, "hall*"},
      // The hall's shell stays in the studio: the headers run across the road into it.
      {"cooling", "Cooling plant", "dry coolers, pumps, facility water headers, cooling towers",
       "cooling0", true, high, 1.0, nullptr, "cooling* building0"},
      // One hall with its cooling yard, generator yard and the substation in front, seen from past
      // its -X end at 28 degrees; the other halls recede behind it into the dusk haze.
      {"campus",
       "Campus",
       "data halls, their cooling and generator yards, the substation and its line",
       "",
       true,
       glm::dvec3(-0.7, 0.62, 1.0),
       0.88,
       nullptr,
       "hall* cooling* building* gensets*",
       nullptr,
       "",
       {},
       "hall0 cooling0 building0 gensets0 substation"},
      {"tpu", "TPU v5e",
       "a TPU v5e package: the die's MXUs (128x128 systolic arrays), vector and "
       "scalar units, beside its HBM2e stacks",
       "hall0/gallery/tpu/chip0", false, above, 0.9},
      {"xeon_amx",
       "Xeon with AMX",
       "a Sapphire Rapids core tile: AMX (8 tile registers of 16 rows, the TMUL), AVX-512, "
       "L2 and the mesh stop",
       "hall0/gallery/xeon/tile0/core0",
       false,
       above,
       1.0,
       nullptr,
       "",
       nullptr,
       "",
       {{"AMX TMUL", "AMX TMUL", {0.5, 1.0, 0.5}},
        {"AMX tile registers", "AMX tile register", {0.5, 1.0, 0.5}},
        {"AVX-512", "AVX-512", {0.5, 1.0, 0.5}},
        {"L2 cache", "L2 cache", {0.5, 1.0, 0.5}},
        {"mesh stop", "mesh stop", {0.5, 1.0, 0.5}}}},
      {"gh100", "H100 package",
       "GH100 die with 8 GPCs of 18 SMs, L2 halves, 6 HBM PHYs and NVLink, "
       "beside its HBM stacks",
       "hall0/gallery/h100", false, above, 1.0},
  };
}

// How much of the frame's half-width and half-height the hero's bounds may take: a margin of a
// few per cent each side, so that the silhouette never touches the frame.
constexpr double FRAME_FILL = 0.92;
// The frame every station is composed for: 16:9, the size of stills and of the kiosk's screen.
constexpr double FRAME_ASPECT = 16.0 / 9.0;

// Where the eight corners of `bounds` fall in a FRAME_ASPECT frame seen from `orbit`: the
// centre of their rectangle and its larger half extent relative to the frame's (NDC).
struct FrameRect {
  glm::dvec2 centre{0.0};
  double extent = 0;
};
FrameRect frameRect(const OrbitPose& orbit, const Aabb& bounds, double verticalFov_rad,
                    double aspect) {
  Camera camera;
  camera.setPose(toPose(orbit));
  const glm::dvec3 forward = camera.forward(), right = camera.right(), up = camera.up();
  const double t = std::tan(0.5 * verticalFov_rad);
  glm::dvec2 lo(1e300), hi(-1e300);
  for (int i = 0; i < 8; ++i) {
    const glm::dvec3 corner((i & 1) ? bounds.max.x : bounds.min.x,
                            (i & 2) ? bounds.max.y : bounds.min.y,
                            (i & 4) ? bounds.max.z : bounds.min.z);
    const glm::dvec3 d = corner - camera.position();
    const double depth = std::max(glm::dot(d, forward), 1e-12);
    const glm::dvec2 p(glm::dot(d, right) / (depth * t * aspect), glm::dot(d, up) / (depth * t));
    lo = glm::min(lo, p), hi = glm::max(hi, p);
  }
  return {0.5 * (lo + hi), std::max(0.5 * (hi.x - lo.x), 0.5 * (hi.y - lo.y))};
}

// `orbit` moved along its own view (the same direction) and sideways so that the eight corners
// of `bounds` fill a FRAME_ASPECT frame to FRAME_FILL along the axis they fill most, their
// rectangle centred: the bounding sphere the first guess fits leaves a flat hero seen from
// above a fifth of the frame. The rectangle shrinks as the camera backs away (it stays outside
// the bounds' sphere, so every corner is in front of it): the distance is found by bisection,
// then the view is centred again, a few times over.
OrbitPose fitToFrame(OrbitPose orbit, const Aabb& bounds, double verticalFov_rad,
                     double aspect = FRAME_ASPECT) {
  const double radius = 0.5 * glm::length(bounds.size());
  const double t = std::tan(0.5 * verticalFov_rad);
  Camera camera;
  camera.setPose(toPose(orbit));  // the view's axes: only the distance and target change
  const glm::dvec3 right = camera.right(), up = camera.up();
  for (int round = 0; round < 4; ++round) {
    double nearD = 1.05 * radius, farD = std::max(2.0 * nearD, 100.0 * radius / t);
    for (int step = 0; step < 60; ++step) {
      orbit.distance_m = std::sqrt(nearD * farD);
      (frameRect(orbit, bounds, verticalFov_rad, aspect).extent > FRAME_FILL ? nearD : farD) =
          orbit.distance_m;
    }
    orbit.distance_m = farD;
    const glm::dvec2 c = frameRect(orbit, bounds, verticalFov_rad, aspect).centre;
    orbit.target += orbit.distance_m * t * (c.x * aspect * right + c.y * up);
  }
  return orbit;
}

// The parts of prototype `id` (and of its children, in its frame) whose names start with
// `prefix`: their box and how many distinct names they have.
void partsNamed(const Scene& scene, PrototypeId id, const glm::dmat4& local,
                const std::string& prefix, Aabb& box, std::vector<std::string>& names) {
  const Prototype& proto = scene.prototype(id);
  for (const Part& part : proto.parts) {
    if (part.name.rfind(prefix, 0) != 0) continue;
    box.extend(transformAabb(local, part.bounds));
    if (std::find(names.begin(), names.end(), part.name) == names.end()) names.push_back(part.name);
  }
  for (const ChildInstance& child : proto.children) {
    partsNamed(scene, child.prototype, local * child.local, prefix, box, names);
  }
}

std::optional<Callout> calloutOn(const Scene& scene, PrototypeId hero, const glm::dmat4& transform,
                                 const CalloutSpec& spec) {
  Aabb box;
  std::vector<std::string> names;
  partsNamed(scene, hero, glm::dmat4(1.0), spec.parts, box, names);
  if (box.empty()) return std::nullopt;
  const glm::dvec3 local = box.min + spec.at * box.size();
  std::string text = spec.counted ? std::to_string(names.size()) + spec.text : spec.text;
  return Callout{std::move(text), glm::dvec3(transform * glm::dvec4(local, 1.0))};
}

}  // namespace

OrbitPose viewpointInPart(const Station& station, double widthShare, double centreNdcX,
                          double verticalFov_rad) {
  const double share = std::clamp(widthShare, 0.05, 1.0);
  OrbitPose orbit =
      fitToFrame(station.viewpoint, station.framedBounds, verticalFov_rad, FRAME_ASPECT * share);
  orbit.distance_m *= station.framing;
  return shiftedInFrame(orbit, centreNdcX, FRAME_ASPECT, verticalFov_rad);
}

std::vector<Station> makeStations(const Scene& scene, double verticalFov_rad,
                                  const SystemLayout& system) {
  std::vector<Station> stations;
  SpecText text;
  std::vector<StationSpec> all = specs(system, text);
  for (const StationSpec& spec : commonSpecs(system, text)) all.push_back(spec);
  for (const StationSpec& spec : all) {
    auto found = scene.resolve(spec.path);
    if (!found) continue;
    const auto& [transform, prototypeId] = *found;
    // The root's bounds include the ground; frame what stands on it instead.
    Aabb bounds;
    if (spec.alsoFrame) {  // framed with its twin (the die beside its pair)
      if (auto twin = scene.worldBounds(spec.alsoFrame)) bounds = *twin;
    }
    Aabb whole;  // the campus root's: every child's
    if (std::string(spec.path).empty()) {
      for (const ChildInstance& child : scene.prototype(prototypeId).children) {
        const Aabb box =
            transformAabb(transform * child.local, scene.prototype(child.prototype).bounds);
        whole.extend(box);
        if (!spec.frames || StudioFilter::names(spec.frames, child.name)) bounds.extend(box);
      }
    } else {
      bounds.extend(transformAabb(transform, scene.prototype(prototypeId).bounds));
    }
    if (bounds.empty()) continue;
    // The stand-in drawings its studio shows on its hero (the package's lifted cold plate) are
    // framed with it, though they are not part of its bounds (scene.h, StandIn).
    const std::string standIns = spec.standIns ? spec.standIns : "";
    Aabb framed = bounds;
    for (const ChildInstance& child : scene.prototype(prototypeId).children) {
      if (child.standIn == StandIn::Model && StudioFilter::names(standIns, child.standInDrawing))
        framed.extend(
            transformAabb(transform * child.local, scene.prototype(child.prototype).bounds));
    }
    if (spec.context) {  // the part of the context within reach of the hero
      if (auto context = scene.worldBounds(spec.context)) {
        const glm::dvec3 reach = spec.contextReach * bounds.size();
        const Aabb near{glm::max(context->min, bounds.min - reach),
                        glm::min(context->max, bounds.max + reach)};
        if (glm::all(glm::lessThanEqual(near.min, near.max))) framed.extend(near);
      }
    }
    Station station = makeStation(spec, bounds, transform, verticalFov_rad);
    station.viewpoint = fitToFrame(station.viewpoint, framed, verticalFov_rad);
    station.viewpoint.distance_m *= spec.framing;
    station.framedBounds = framed;
    station.framing = spec.framing;
    if (spec.alsoFrame) {  // its scale is its own
      const glm::dvec3 own = transformAabb(transform, scene.prototype(prototypeId).bounds).size();
      station.scale_m = std::max({own.x, own.y, own.z});
    }
    station.standIns = standIns;
    for (const CalloutSpec& c : spec.callouts) {
      if (auto callout = calloutOn(scene, prototypeId, transform, c)) {
        station.callouts.push_back(std::move(*callout));
      }
    }
    if (!whole.empty()) {  // the campus is as large as all of it, however little is framed
      const glm::dvec3 all = whole.size();
      station.scale_m = std::max({all.x, all.y, all.z});
    }
    if (spec.studio) {
      station.studioPath = spec.studio;
      if (auto studio = scene.worldBounds(spec.studio)) station.studioBounds = *studio;
    }
    const auto hero = spec.studio ? scene.resolve(spec.studio) : found;
    if (hero) station.heroAlbedo = heroAlbedo(scene, hero->second);
    stations.push_back(std::move(station));
  }
  return stations;
}

float heroAlbedo(const Scene& scene, PrototypeId id) {
  struct Sum {
    double area = 0, lit = 0;  // surface area (m2) and luminance times area
  };
  // Each prototype once, its instances weighted by their count (rigid transforms keep areas).
  std::vector<std::optional<Sum>> memo(scene.prototypeCount());
  auto sum = [&](auto&& self, PrototypeId p) -> Sum {
    if (memo[p.index]) return *memo[p.index];
    Sum s;
    const Prototype& proto = scene.prototype(p);
    for (const Part& part : proto.parts) {
      if (part.look.emissive >= 0.5f || part.bounds.empty()) continue;
      const glm::dvec3 e = part.bounds.size();
      const double area = 2.0 * (e.x * e.y + e.y * e.z + e.z * e.x);
      s.area += area;
      s.lit += area * (0.2126 * part.look.r + 0.7152 * part.look.g + 0.0722 * part.look.b);
    }
    for (const ChildInstance& child : proto.children) {
      if (child.standIn == StandIn::Model) continue;
      const Sum c = self(self, child.prototype);
      s.area += c.area;
      s.lit += c.lit;
    }
    memo[p.index] = s;
    return s;
  };
  const Sum s = sum(sum, id);
  return s.area > 0 ? float(s.lit / s.area) : 0.0f;
}

const Station* studioStation(const std::vector<Station>& stations, const glm::dvec3& eye,
                             const glm::dvec3& focus) {
  const Station* best = nullptr;
  double bestMismatch = std::log(STUDIO_DISTANCE_RATIO);
  const double focus_m = glm::length(focus - eye);
  for (const Station& s : stations) {
    if (s.scale_m > MAX_STUDIO_SCALE_PER_FOCUS * focus_m) continue;
    const Aabb& box = s.studioBounds;
    const glm::dvec3 slack = 0.1 * box.size();
    if (glm::any(glm::lessThan(focus, box.min - slack)) ||
        glm::any(glm::greaterThan(focus, box.max + slack))) {
      continue;
    }
    const double distance = glm::length(eye - s.viewpoint.target);
    const double mismatch = std::abs(std::log(std::max(distance, 1e-12) / s.viewpoint.distance_m));
    if (mismatch < bestMismatch) {
      bestMismatch = mismatch;
      best = &s;
    }
  }
  return best;
}

bool inStudioReach(const Station& station, const glm::dvec3& eye) {
  return glm::length(eye - station.viewpoint.target) <=
         STUDIO_DISTANCE_RATIO * station.viewpoint.distance_m;
}

Station makeStation(const StationSpec& spec, const Aabb& bounds, const glm::dmat4& transform,
                    double verticalFov_rad) {
  Station s;
  s.name = spec.name;
  s.title = spec.title;
  s.description = spec.description;
  s.path = spec.path;
  s.onLadder = spec.onLadder;
  s.bounds = bounds;
  s.studioPath = spec.path;
  s.studioBounds = bounds;
  s.neighbours = spec.neighbours ? spec.neighbours : "";
  const glm::dvec3 size = bounds.size();
  s.scale_m = std::max({size.x, size.y, size.z});
  const double radius = 0.5 * glm::length(size);
  const double distance = spec.framing * radius / std::sin(0.5 * verticalFov_rad);
  // The view direction is given in the instance's own frame (its front is +Z).
  const glm::dvec3 from = glm::normalize(glm::dvec3(transform * glm::dvec4(spec.viewFrom, 0.0)));
  Pose pose = poseLookingAlong(bounds.center() + from * distance, -from);
  s.viewpoint = OrbitPose{bounds.center(), distance, pose.yaw_rad, pose.pitch_rad};
  return s;
}

std::optional<size_t> neighbourOnLadder(const std::vector<Station>& stations,
                                        const std::string& current, int direction) {
  std::vector<size_t> ladder;
  for (size_t i = 0; i < stations.size(); ++i) {
    if (stations[i].onLadder) ladder.push_back(i);
  }
  for (size_t k = 0; k < ladder.size(); ++k) {
    if (stations[ladder[k]].name != current) continue;
    const long next = long(k) + (direction > 0 ? 1 : -1);
    if (next < 0 || next >= long(ladder.size())) return std::nullopt;
    return ladder[size_t(next)];
  }
  return std::nullopt;
}

std::optional<size_t> ladderRungAt(const std::vector<Station>& stations, const Pose& pose) {
  const double cp = std::cos(pose.pitch_rad);
  const glm::dvec3 forward(-std::sin(pose.yaw_rad) * cp, std::sin(pose.pitch_rad),
                           -std::cos(pose.yaw_rad) * cp);
  std::optional<size_t> best;
  double bestScore = 1e300;
  for (size_t i = 0; i < stations.size(); ++i) {
    const Station& s = stations[i];
    if (!s.onLadder || !(s.viewpoint.distance_m > 0)) continue;
    const glm::dvec3 toCentre = s.viewpoint.target - pose.position;
    const double distance = glm::length(toCentre);
    if (!(distance > 0)) continue;
    const double angle = std::acos(std::clamp(glm::dot(forward, toCentre / distance), -1.0, 1.0));
    const double score = std::abs(std::log(distance / s.viewpoint.distance_m)) + angle;
    if (score < bestScore) {
      bestScore = score;
      best = i;
    }
  }
  return best;
}

}  // namespace world
