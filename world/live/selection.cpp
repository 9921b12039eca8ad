#include "world/live/selection.h"

#include <algorithm>

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
