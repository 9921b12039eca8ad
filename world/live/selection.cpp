#include "world/live/selection.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>

#include <glm/gtc/constants.hpp>

namespace world {
namespace {

// Every figure directly under `prefix` ("gpus.gb200"), in name order.
std::vector<SelectionFigure> figuresUnder(const sim::Catalog& catalog, const std::string& prefix) {
  std::vector<SelectionFigure> out;
  for (const std::string& name : catalog.children(prefix)) {
    const std::string key = prefix + "." + name;
    if (const sim::Quantity* q = catalog.find(key)) {
      out.push_back({key, q->value, q->unit, q->source, q->basis});
    }
  }
  return out;
}

// "hall0/row3/rack2" of "hall0/row3/rack2/compute_tray4/...": the first three path components.
std::string rackPrefix(const std::string& path) {
  size_t cut = 0;
  for (int slashes = 0; slashes < 3; ++slashes) {
    cut = path.find('/', cut == 0 ? 0 : cut + 1);
    if (cut == std::string::npos) return path;
  }
  return path.substr(0, cut);
}

// The number in a path segment "<prefix><n><rest>" ("spine17", "leaf3_rail3"), if it is one.
std::optional<uint32_t> numberAfter(std::string_view segment, std::string_view prefix,
                                    std::string_view rest = {}) {
  if (segment.size() <= prefix.size() || segment.substr(0, prefix.size()) != prefix)
    return std::nullopt;
  uint32_t n = 0;
  size_t i = prefix.size();
  for (; i < segment.size() && segment[i] >= '0' && segment[i] <= '9'; ++i)
    n = n * 10 + uint32_t(segment[i] - '0');
  if (i == prefix.size() || segment.substr(i, rest.size()) != rest) return std::nullopt;
  if (rest.empty() && i != segment.size()) return std::nullopt;
  return n;
}

// The engine's switch (SwitchId index) drawn at `path`: a spine ("spine17") or core ("core2")
// numbered as the engine numbers its tier, or leaf j of a row's leaf racks ("leaf3_rail3"): the
// j-th of the leaves the row's GPUs land on. nullopt for anything else, and for a row beyond the
// modelled fabric.
std::optional<uint32_t> switchOfPath(const World& world, const sim::engine::Cluster& c,
                                     const std::string& path) {
  std::string row;
  for (size_t begin = 0; begin < path.size();) {
    size_t end = path.find('/', begin);
    if (end == std::string::npos) end = path.size();
    const std::string_view segment(path.data() + begin, end - begin);
    if (auto i = numberAfter(segment, "spine"); i && *i < c.spines) return c.leaves + *i;
    if (auto i = numberAfter(segment, "core"); i && *i < c.cores) return c.leaves + c.spines + *i;
    if (numberAfter(segment, "row")) row = path.substr(0, end);
    if (auto j = numberAfter(segment, "leaf", "_rail"); j && !row.empty()) {
      const auto first = world.racks().rackIndexOfPath(row + "/rack0");
      if (!first) return std::nullopt;
      // The row's racks: from its first to the next row's first (or the hall's end).
      uint32_t end = *first + 1;
      for (const std::vector<uint32_t>& hall : world.racks().rowStarts())
        for (size_t k = 0; k + 1 < hall.size(); ++k)
          if (hall[k] == *first) end = hall[k + 1];
      std::vector<uint32_t> leaves;
      for (uint32_t r = *first; r < std::min(end, c.racks); ++r) {
        const uint32_t g0 = c.firstGpuOfRack({r}).index;
        for (uint32_t g = g0; g < std::min(g0 + c.gpusPerRack, c.gpuCount()); ++g)
          leaves.push_back(c.gpuLeaf[g]);
      }
      std::sort(leaves.begin(), leaves.end());
      leaves.erase(std::unique(leaves.begin(), leaves.end()), leaves.end());
      if (*j < leaves.size()) return leaves[*j];
      return std::nullopt;
    }
    begin = end + 1;
  }
  return std::nullopt;
}

}  // namespace

SelectionInfo describeSelection(const PickHit& hit, const World& world,
                                const sim::engine::Snapshot& snapshot,
                                const sim::Catalog& catalog) {
  SelectionInfo info;
  info.title = hit.part;
  info.path = hit.path;
  const sim::engine::Cluster& c = (*snapshot.cluster);
  const sim::engine::Snapshot& s = snapshot;

  // A GPU of the hero rack: the hit lies inside one of its packages.
  const glm::dvec3 centre = hit.worldBounds.center();
  const bool inHeroRack = rackPrefix(hit.path) == world.racks().pathOfRack(0);
  for (const HeroGpu& gpu : world.heroGpus()) {
    const Aabb& b = gpu.bounds;
    const bool inside = centre.x >= b.min.x && centre.x <= b.max.x && centre.y >= b.min.y &&
                        centre.y <= b.max.y && centre.z >= b.min.z && centre.z <= b.max.z;
    if (!inHeroRack || !inside || hit.path.find("_gpu") == std::string::npos) continue;
    const uint32_t g = gpu.local(c.gpusPerTray);  // the hero rack is RackId 0: GpuId = local
    if (g >= c.gpuCount()) break;
    info.kind = SelectionKind::Gpu;
    info.index = g;
    info.title = "GPU " + std::to_string(g) + " (" + c.specs.gpu.name + "): " + hit.part;
    info.live = {{"tensor busy", 100.0 * s.gpuUtilisation[g], "%"},
                 {"power", s.gpuPower_W[g], "W"},
                 {"junction", s.gpuJunction_C[g], "°C"},
                 {"HBM traffic", s.gpuHbm_Bps[g] / 1e9, "GB/s"},
                 {"NIC link load", 100.0 * s.linkUtilisation[c.gpuLink[g]], "%"}};
    info.specs = figuresUnder(catalog, "gpus." + c.specs.gpu.id);
    return info;
  }

  // A switch of the modelled fabric: the load on its ports, up and down, and whether PFC pauses it.
  if (const auto sw = switchOfPath(world, c, hit.path)) {
    static constexpr const char* TIERS[] = {"Leaf", "Spine", "Core"};
    const sim::engine::Switch& w = c.switches[*sw];
    double busiest = 0, sum = 0;
    uint32_t ports = 0;
    for (uint32_t l = 0; l < c.linkCount(); ++l) {
      const sim::engine::Link& link = c.links[l];
      const bool lower = link.tier != sim::engine::LinkTier::Endpoint && link.lower == *sw;
      if (!lower && link.upper != *sw) continue;
      busiest = std::max(busiest, double(s.linkUtilisation[l]));
      sum += s.linkUtilisation[l];
      ++ports;
    }
    info.kind = SelectionKind::Switch;
    info.index = *sw;
    info.title = std::string(TIERS[size_t(w.tier)]) + " switch " + std::to_string(w.position) +
                 " (" + c.specs.fabricSwitch.name + "): " + hit.part;
    info.live = {{"busiest port", 100.0 * busiest, "%"},
                 {"mean port load", ports ? 100.0 * sum / ports : 0.0, "%"},
                 {"ports in use", double(ports), ""},
                 {"PFC paused", s.switchPaused.empty() ? 0.0 : 100.0 * s.switchPaused[*sw], "%"}};
    info.specs = figuresUnder(catalog, "switches." + c.specs.fabricSwitch.id);
    return info;
  }

  // A rack anywhere on the campus.
  const auto rack = world.racks().rackIndexOfPath(rackPrefix(hit.path));
  if (!rack) return info;
  info.kind = SelectionKind::Rack;
  info.index = *rack;
  info.title = "Rack " + std::to_string(*rack) + " (" + c.specs.system.name + "): " + hit.part;
  const uint32_t modelled = std::min<uint32_t>(c.racks, uint32_t(s.rackPower_W.size()));
  info.mirrored = *rack >= modelled;
  // A mirrored rack shows the modelled racks' average (the engine aggregates identical racks).
  const uint32_t first = info.mirrored ? 0 : *rack, end = info.mirrored ? modelled : *rack + 1;
  double power_W = 0, busy = 0, hottest_C = -1e30, busiest = 0;
  uint32_t gpus = 0;
  for (uint32_t r = first; r < end; ++r) {
    power_W += s.rackPower_W[r];
    const uint32_t g0 = c.firstGpuOfRack({r}).index;
    for (uint32_t g = g0; g < std::min(g0 + c.gpusPerRack, c.gpuCount()); ++g, ++gpus) {
      busy += s.gpuUtilisation[g];
      hottest_C = std::max(hottest_C, double(s.gpuJunction_C[g]));
      busiest = std::max(busiest, double(s.linkUtilisation[c.gpuLink[g]]));
    }
  }
  const double racks = std::max(1u, end - first);
  info.live = {{"power", power_W / racks / 1e3, "kW"},
               {"mean tensor busy", gpus ? 100.0 * busy / gpus : 0.0, "%"},
               {"hottest junction", gpus ? hottest_C : 0.0, "°C"},
               {"busiest NIC link", 100.0 * busiest, "%"}};
  info.specs = figuresUnder(catalog, "systems." + c.specs.system.id);
  return info;
}

}  // namespace world

namespace world {
namespace {

// Where the ray enters and leaves `box` (t0 <= t1), if it meets it ahead.
bool rayBox(const glm::dvec3& origin, const glm::dvec3& dir, const Aabb& box, double& t0,
            double& t1) {
  t0 = 0;
  t1 = 1e300;
  for (int k = 0; k < 3; ++k) {
    if (std::abs(dir[k]) < 1e-300) {
      if (origin[k] < box.min[k] || origin[k] > box.max[k]) return false;
      continue;
    }
    double a = (box.min[k] - origin[k]) / dir[k], b = (box.max[k] - origin[k]) / dir[k];
    if (a > b) std::swap(a, b);
    t0 = std::max(t0, a);
    t1 = std::min(t1, b);
    if (t0 > t1) return false;
  }
  return true;
}

bool holds(const Aabb& box, const glm::dvec3& p) {
  return !box.empty() && glm::all(glm::greaterThanEqual(p, box.min)) &&
         glm::all(glm::lessThanEqual(p, box.max));
}

bool within(const std::string& path, const std::string& ancestor) {
  return path == ancestor ||
         (path.size() > ancestor.size() && path.compare(0, ancestor.size(), ancestor) == 0 &&
          path[ancestor.size()] == '/');
}

// Whether `box` fills the whole view of `camera` (or reaches behind it): the backdrop.
bool fillsView(const Aabb& box, const Camera& camera, const FrameDesc& frame) {
  const double w = frame.width_px, h = frame.height_px;
  const double focal = 0.5 * h / std::tan(0.5 * camera.verticalFov_rad());
  double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
  for (int i = 0; i < 8; ++i) {
    const glm::dvec3 corner((i & 1) ? box.max.x : box.min.x, (i & 2) ? box.max.y : box.min.y,
                            (i & 4) ? box.max.z : box.min.z);
    const glm::dvec3 rel = corner - camera.position();
    const double depth = glm::dot(rel, camera.forward());
    if (depth <= 0) return true;  // it reaches behind the camera: the floor, a wall, a board
    const double x = 0.5 * w + glm::dot(rel, camera.right()) / depth * focal;
    const double y = 0.5 * h - glm::dot(rel, camera.up()) / depth * focal;
    x0 = std::min(x0, x);
    x1 = std::max(x1, x);
    y0 = std::min(y0, y);
    y1 = std::max(y1, y);
  }
  return x0 <= 0 && x1 >= w && y0 <= 0 && y1 >= h;
}

// The bounds of what `hit` selects: its hero GPU package, its rack, else the part.
Aabb selectedBounds(const World& world, const PickHit& hit) {
  for (const HeroGpu& gpu : world.heroGpus())
    if (within(hit.path, gpu.path)) return gpu.bounds;
  std::string prefix = hit.path;
  for (int slashes = 0, at = 0; at < int(hit.path.size()); ++at) {
    if (hit.path[size_t(at)] == '/' && ++slashes == 3) {
      prefix = hit.path.substr(0, size_t(at));
      break;
    }
  }
  if (auto rack = world.racks().rackIndexOfPath(prefix)) return world.racks().rackBounds(*rack);
  return hit.worldBounds;
}

}  // namespace

std::optional<PickHit> pickForSelection(const World& world, const Camera& camera, double x_px,
                                        double y_px, const FrameDesc& frame) {
  const glm::dvec3 eye = camera.position();
  const glm::dvec3 dir = camera.rayThroughPixel(x_px, y_px, frame.width_px, frame.height_px);
  std::optional<PickHit> hit = world.pickAlong(eye, dir);
  if (!hit) return std::nullopt;
  // A hero GPU behind what covers it in its tray (its cold plate, the lid): the GPU.
  const HeroGpu* best = nullptr;
  double bestT = 1e300;
  for (const HeroGpu& gpu : world.heroGpus()) {
    if (within(hit->path, gpu.path)) {
      best = nullptr;  // the click already lands on (or in) a GPU
      break;
    }
    const std::string tray = gpu.path.substr(0, gpu.path.rfind('/'));
    double t0 = 0, t1 = 0;
    if (!within(hit->path, tray) || !rayBox(eye, dir, gpu.bounds, t0, t1)) continue;
    if (t0 < bestT) {
      bestT = t0;
      best = &gpu;
    }
  }
  if (best) {
    PickHit gpu;
    gpu.path = best->path;
    gpu.part = "GPU package";
    gpu.distance_m = bestT;
    gpu.worldBounds = best->bounds;
    return gpu;
  }
  if (fillsView(hit->worldBounds, camera, frame)) return std::nullopt;  // empty space
  return hit;
}

Whereabouts locate(const World& world, const glm::dvec3& position) {
  Whereabouts out;
  // The hero's nested stations, smallest first.
  const Station* smallest = nullptr;
  for (const Station& s : world.stations()) {
    if (!s.onLadder || !holds(s.bounds, position)) continue;
    if (s.name == "hall" || s.name == "campus" || s.name == "row" || s.name == "fabric") continue;
    if (!smallest || s.scale_m < smallest->scale_m) smallest = &s;
  }
  const RackMap& racks = world.racks();
  if (smallest && smallest->scale_m < 1.0) {  // inside the hero's chip, package or tray
    out.kind = Whereabouts::Kind::Station;
    out.station = smallest->title;
    out.scale_m = smallest->scale_m;
    return out;
  }
  for (uint32_t r = 0; r < racks.rackCount(); ++r) {
    if (!holds(racks.rackBounds(r), position)) continue;
    const glm::dvec3 size = racks.rackBounds(r).size();
    out.kind = Whereabouts::Kind::Rack;
    out.index = r;
    out.scale_m = std::max({size.x, size.y, size.z});
    return out;
  }
  // A hall: everything it holds (its rows, the aisles in front of them, the fabric, the gallery
  // table), from its floor up to twice its tallest rack, where the campus's air begins.
  for (size_t h = 0; h < racks.rowStarts().size(); ++h) {
    const std::vector<uint32_t>& rows = racks.rowStarts()[h];
    const std::optional<Aabb> bounds = world.scene().worldBounds("hall" + std::to_string(h));
    if (!bounds || rows.empty() || rows.front() >= rows.back()) continue;
    Aabb hall = *bounds;
    double rackTop_m = hall.min.y;
    for (uint32_t r = rows.front(); r < rows.back(); ++r)
      rackTop_m = std::max(rackTop_m, racks.rackBounds(r).max.y);
    hall.max.y = std::max(hall.max.y, hall.min.y + 2.0 * (rackTop_m - hall.min.y));
    if (!holds(hall, position)) continue;
    const glm::dvec3 size = hall.size();
    out.kind = Whereabouts::Kind::Hall;
    out.index = uint32_t(h);
    out.scale_m = std::max({size.x, size.z});
    return out;
  }
  out.kind = Whereabouts::Kind::Campus;
  const Station* campus = world.station("campus");
  out.scale_m = campus ? campus->scale_m : 1000.0;
  return out;
}

Whereabouts locate(const World& world, const glm::dvec3& eye, const glm::dvec3& forward,
                   const std::string& studio) {
  Whereabouts around = locate(world, eye);
  // The station looked at is the place when it is smaller than what holds the eye (the SM seen
  // from inside its tray's bounds), not when the eye is in a smaller place looking out at a
  // larger studio (inside rack 12, seeing down its row).
  const Station* seen = world.stationInView(eye, forward, studio);
  if (!seen || !(seen->scale_m > 0) || seen->scale_m > around.scale_m) return around;
  Whereabouts out;
  out.kind = Whereabouts::Kind::Station;
  out.station = seen->title;
  out.scale_m = seen->scale_m;
  return out;
}

OrbitPose frameSelection(const World& world, const PickHit& hit, const Camera& camera) {
  const Aabb box = selectedBounds(world, hit);
  const glm::dvec3 centre = box.center();
  const double radius = std::max(1e-6, 0.5 * glm::length(box.size()));
  const double distance = 1.2 * radius / std::sin(0.5 * camera.verticalFov_rad());
  glm::dvec3 toCamera = camera.position() - centre;
  toCamera = glm::length(toCamera) > 0 ? glm::normalize(toCamera) : glm::dvec3(0, 0.5, 1);
  // Directions round it (12 yaws at 15, 40 and 70 degrees up, and straight above), tried in the
  // order of how little they turn the view from where the camera is.
  std::vector<glm::dvec3> candidates = {toCamera};
  for (double pitch_deg : {15.0, 40.0, 70.0}) {
    for (int k = 0; k < 12; ++k) {
      const double yaw = k * glm::pi<double>() / 6.0, pitch = glm::radians(pitch_deg);
      candidates.push_back(
          {std::cos(pitch) * std::cos(yaw), std::sin(pitch), std::cos(pitch) * std::sin(yaw)});
    }
  }
  candidates.push_back(glm::normalize(glm::dvec3(0.05, 1.0, 0.05)));
  std::stable_sort(candidates.begin() + 1, candidates.end(),
                   [&](const glm::dvec3& a, const glm::dvec3& b) {
                     return glm::dot(a, toCamera) > glm::dot(b, toCamera);
                   });
  glm::dvec3 chosen = candidates[0];
  for (const glm::dvec3& dir : candidates) {
    const glm::dvec3 eye = centre + dir * distance;
    // Outside it, and nothing else between the eye and it.
    if (holds(box, eye)) continue;
    const auto first = world.pickAlong(eye, centre - eye);
    if (first && !holds(box, first->worldBounds.center())) continue;
    chosen = dir;
    break;
  }
  const Pose pose = poseLookingAlong(centre + chosen * distance, -chosen);
  return OrbitPose{centre, distance, pose.yaw_rad, pose.pitch_rad};
}

}  // namespace world
