#include "world/live/overlays.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "sim/engine/snapshot.h"
#include "world/live/calm.h"

namespace world {
namespace {

// Entries 0, 17, 34 ... 255 of the 256-entry viridis table (sRGB), mpl-colormaps
// (github.com/BIDS/colormap, _cm_listed.py `_viridis_data`; CC0), the same data as
// matplotlib's `viridis`.
constexpr int VIRIDIS_STRIDE = 17;
constexpr Rgb VIRIDIS_POINTS[] = {
    {0.267004f, 0.004874f, 0.329415f},  // 0
    {0.282656f, 0.100196f, 0.422160f},  // 17
    {0.277134f, 0.185228f, 0.489898f},  // 34
    {0.253935f, 0.265254f, 0.529983f},  // 51
    {0.221989f, 0.339161f, 0.548752f},  // 68
    {0.190631f, 0.407061f, 0.556089f},  // 85
    {0.163625f, 0.471133f, 0.558148f},  // 102
    {0.139147f, 0.533812f, 0.555298f},  // 119
    {0.120565f, 0.596422f, 0.543611f},  // 136
    {0.134692f, 0.658636f, 0.517649f},  // 153
    {0.208030f, 0.718701f, 0.472873f},  // 170
    {0.327796f, 0.773980f, 0.406640f},  // 187
    {0.477504f, 0.821444f, 0.318195f},  // 204
    {0.647257f, 0.858400f, 0.209861f},  // 221
    {0.824940f, 0.884720f, 0.106217f},  // 238
    {0.993248f, 0.906157f, 0.143936f},  // 255
};
constexpr int VIRIDIS_SEGMENTS = int(std::size(VIRIDIS_POINTS)) - 1;
static_assert(VIRIDIS_SEGMENTS * VIRIDIS_STRIDE == 255);

// Heat colours are partly emissive so the palette reads under any lighting.
constexpr float TINT_EMISSIVE = 0.95f;  // indicators are light: they bloom
constexpr float TINT_SPECULAR = 0.1f;
// No data (a trace replay's GPU without a trace): a dull grey, unlit, its seams drawn, so it
// reads as neither idle (dark viridis) nor busy (bright).
constexpr float NO_DATA = std::numeric_limits<float>::quiet_NaN();
const Look NO_DATA_LOOK{0.32f, 0.32f, 0.34f, 0.0f, 0.05f};

// State of an instance in the overlay walk: kind in the top 4 bits, an index below.
enum class Kind : uint32_t { Root = 0, Hall, Row, Rack, Tray, Gpu, Off };
constexpr uint32_t KIND_SHIFT = 28;
constexpr uint32_t INDEX_MASK = (1u << KIND_SHIFT) - 1;

constexpr uint32_t makeState(Kind kind, uint32_t index) {
  return (uint32_t(kind) << KIND_SHIFT) | (index & INDEX_MASK);
}
constexpr Kind kindOf(uint32_t state) {
  return Kind(state >> KIND_SHIFT);
}
constexpr uint32_t indexOf(uint32_t state) {
  return state & INDEX_MASK;
}

// "rack12" with prefix "rack" -> 12; nullopt when the rest is not a plain number.
std::optional<uint32_t> numberAfter(std::string_view name, std::string_view prefix) {
  if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix) return std::nullopt;
  uint32_t value = 0;
  const char* first = name.data() + prefix.size();
  const char* last = name.data() + name.size();
  auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || ptr != last) return std::nullopt;
  return value;
}

// Slot of a GPU package in its tray: "superchip<S>_gpu<G>" (S, G numbers).
bool isGpuPackage(std::string_view name) {
  const size_t under = name.find("_gpu");
  if (under == std::string_view::npos || !numberAfter(name.substr(under + 1), "gpu")) return false;
  // A GB200 superchip's GPUs, or an HGX baseboard's (world/builders/builders_hgx.cpp).
  return numberAfter(name.substr(0, under), "superchip") ||
         numberAfter(name.substr(0, under), "baseboard");
}

double srgbChannelToLinear(double c) {
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

// Children of `proto` named prefix<N>, as (N, child) sorted by N.
std::vector<std::pair<uint32_t, const ChildInstance*>> numbered(const Prototype& proto,
                                                                std::string_view prefix) {
  std::vector<std::pair<uint32_t, const ChildInstance*>> out;
  for (const ChildInstance& child : proto.children) {
    if (auto n = numberAfter(child.name, prefix)) out.emplace_back(*n, &child);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

}  // namespace

Rgb viridis(double t) {
  const double x = std::clamp(std::isnan(t) ? 0.0 : t, 0.0, 1.0) * VIRIDIS_SEGMENTS;
  const int i = std::min(int(x), VIRIDIS_SEGMENTS - 1);
  const float f = float(x - i);
  const Rgb& a = VIRIDIS_POINTS[i];
  const Rgb& b = VIRIDIS_POINTS[i + 1];
  return {a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f};
}

Rgb srgbToLinear(Rgb c) {
  return {float(srgbChannelToLinear(c.r)), float(srgbChannelToLinear(c.g)),
          float(srgbChannelToLinear(c.b))};
}

double LegendRange::normalised(double value) const {
  if (std::isnan(value)) return value;  // no data stays no data
  if (!(max > min)) return 0.0;
  return std::clamp((value - min) / (max - min), 0.0, 1.0);
}

// --- values from the engine ---

namespace {

// 3D parallelism coloured onto the real hardware: the hero rack's GPUs by the pipeline stage
// each runs (a TP group of GPUs inside the NVLink domain shares one), every rack by the mean stage
// of its job GPUs (the placement puts several stages in a rack, consecutive replicas in
// consecutive racks). Without a training job every value is 0.
void parallelismOverlay(const sim::engine::Snapshot& snapshot, OverlayState& out) {
  const sim::engine::Cluster& c = (*snapshot.cluster);
  const sim::engine::TrainingPlan* plan = snapshot.training;
  const double lastStage = plan ? std::max(1, plan->desc.pp) - 1 : 0;
  out.rackRange = {0.0, lastStage, "", "mean pipeline stage of the rack's GPUs"};
  out.gpuRange = {0.0, lastStage, "", "pipeline stage (hero rack; one per TP group)"};
  if (!plan) return;
  auto stageOf = [&](uint32_t g) { return plan->stageOfGpu[g]; };
  const uint32_t modelled = std::min(c.racks, c.campusRacks);
  double sum = 0;
  for (uint32_t r = 0; r < modelled; ++r) {
    const uint32_t first = c.firstGpuOfRack({r}).index;
    double stages = 0;
    uint32_t inJob = 0;
    for (uint32_t g = first; g < std::min(first + c.gpusPerRack, c.gpuCount()); ++g) {
      if (stageOf(g) == sim::engine::NOT_IN_JOB) continue;
      stages += stageOf(g);
      ++inJob;
    }
    out.rackValues[r] = inJob ? float(stages / inJob) : 0.0f;
    sum += out.rackValues[r];
  }
  // Racks beyond the modelled fabric mirror its average rack, as for every metric.
  for (uint32_t r = modelled; r < c.campusRacks; ++r) out.rackValues[r] = float(sum / modelled);
  for (uint32_t local = 0; local < c.gpusPerRack && local < c.gpuCount(); ++local) {
    out.heroGpuValues[local] = stageOf(local) == sim::engine::NOT_IN_JOB ? 0.0f : stageOf(local);
  }
}

}  // namespace

void updateOverlay(const sim::engine::Snapshot& snapshot, OverlayMetric metric, OverlayState& out) {
  const sim::engine::Cluster& c = (*snapshot.cluster);
  const sim::engine::Snapshot& s = snapshot;
  out.metric = metric;
  out.time_s = snapshot.time_s;
  out.basis = sim::Basis::Derived;
  out.gpusPerTray = std::max(1u, c.gpusPerTray);
  out.rackValues.assign(c.campusRacks, 0.0f);
  out.heroGpuValues.assign(c.gpusPerRack, 0.0f);
  if (metric == OverlayMetric::None) return;

  if (metric == OverlayMetric::Stage) {
    parallelismOverlay(snapshot, out);
    return;
  }
  const double tdp_W = c.specs.gpu.tdp_W;
  switch (metric) {
    case OverlayMetric::Power:
      out.rackRange = {0.0, c.rackMaxPower_W / 1e3, "kW", "rack power"};
      out.gpuRange = {0.0, tdp_W, "W", "GPU power (hero rack)"};
      break;
    case OverlayMetric::Temperature:
      out.rackRange = {c.specs.facility.coolantSupply_C, (*snapshot.figures).throttleJunction_C,
                       "°C", "hottest GPU junction"};
      out.gpuRange = out.rackRange;
      out.gpuRange.label = "GPU junction (hero rack)";
      break;
    case OverlayMetric::Utilisation:
      out.rackRange = {0.0, 100.0, "%", "mean GPU tensor busy"};
      out.gpuRange = {0.0, 100.0, "%", "GPU tensor busy (hero rack)"};
      break;
    case OverlayMetric::LinkLoad:
      out.rackRange = {0.0, 100.0, "%", "busiest NIC link"};
      out.gpuRange = {0.0, 100.0, "%", "NIC link load (hero rack)"};
      break;
    case OverlayMetric::None:
    case OverlayMetric::Stage:
      break;
  }

  // Per GPU value of the metric (power and link load need no reduction choice per rack below).
  // A trace replay's GPU without a trace has no value (NaN: drawn as "no data", not as idle).
  const bool replay = !s.gpuNoData.empty();
  auto gpuValue = [&](uint32_t g) -> float {
    if (replay && (g >= s.gpuNoData.size() || s.gpuNoData[g])) return NO_DATA;
    switch (metric) {
      case OverlayMetric::Power:
        return s.gpuPower_W[g];
      case OverlayMetric::Temperature:
        return s.gpuJunction_C[g];
      case OverlayMetric::Utilisation:
        return 100.0f * s.gpuUtilisation[g];
      case OverlayMetric::LinkLoad:
        return 100.0f * s.linkUtilisation[c.gpuLink[g]];
      case OverlayMetric::None:
      case OverlayMetric::Stage:
        break;
    }
    return 0.0f;
  };

  const uint32_t modelled = std::min(c.racks, c.campusRacks);
  if (metric == OverlayMetric::Power && !replay) {
    for (uint32_t r = 0; r < modelled; ++r) out.rackValues[r] = s.rackPower_W[r] / 1e3f;
  } else if (metric == OverlayMetric::Power) {
    // A replay: the rack's power over its GPUs with data only.
    for (uint32_t r = 0; r < modelled; ++r) {
      const uint32_t first = c.firstGpuOfRack({r}).index;
      double sum = 0;
      uint32_t n = 0;
      for (uint32_t g = first; g < std::min(first + c.gpusPerRack, c.gpuCount()); ++g) {
        if (std::isnan(gpuValue(g))) continue;
        sum += gpuValue(g);
        ++n;
      }
      out.rackValues[r] = n ? float(sum / 1e3) : NO_DATA;
    }
  } else {
    // Reduce each rack's GPUs: the hottest junction, the mean busy share, the busiest link.
    const bool mean = metric == OverlayMetric::Utilisation;
    for (uint32_t r = 0; r < modelled; ++r) {
      const uint32_t first = c.firstGpuOfRack({r}).index;
      const uint32_t end = std::min(first + c.gpusPerRack, c.gpuCount());
      double acc = mean ? 0.0 : -1e30;
      uint32_t n = 0;  // GPUs with a value
      for (uint32_t g = first; g < end; ++g) {
        if (std::isnan(gpuValue(g))) continue;
        acc = mean ? acc + gpuValue(g) : std::max(acc, double(gpuValue(g)));
        ++n;
      }
      out.rackValues[r] = n > 0 ? float(mean ? acc / n : acc) : replay ? NO_DATA : 0.0f;
    }
  }
  // Racks beyond the modelled fabric mirror its average rack (a replay traced none of them).
  double sum = 0;
  for (uint32_t r = 0; r < modelled; ++r) sum += out.rackValues[r];
  const float average = replay ? NO_DATA : modelled ? float(sum / modelled) : 0.0f;
  for (uint32_t r = modelled; r < c.campusRacks; ++r) out.rackValues[r] = average;

  if (c.racks > 0) {
    const uint32_t first = c.firstGpuOfRack({0}).index;
    for (uint32_t local = 0; local < c.gpusPerRack && first + local < c.gpuCount(); ++local) {
      out.heroGpuValues[local] = gpuValue(first + local);
    }
  }
}

void easeOverlay(OverlayState& shown, const OverlayState& target, double maxShare) {
  if (shown.metric != target.metric || shown.rackValues.size() != target.rackValues.size() ||
      shown.heroGpuValues.size() != target.heroGpuValues.size() ||
      shown.rackRange.max != target.rackRange.max || shown.gpuRange.max != target.gpuRange.max) {
    shown = target;
    return;
  }
  const double rackStep = maxShare * (target.rackRange.max - target.rackRange.min);
  const double gpuStep = maxShare * (target.gpuRange.max - target.gpuRange.min);
  for (size_t i = 0; i < shown.rackValues.size(); ++i)
    shown.rackValues[i] = float(slewTowards(shown.rackValues[i], target.rackValues[i], rackStep));
  for (size_t i = 0; i < shown.heroGpuValues.size(); ++i)
    shown.heroGpuValues[i] =
        float(slewTowards(shown.heroGpuValues[i], target.heroGpuValues[i], gpuStep));
  shown.time_s = target.time_s;
  shown.basis = target.basis;
  shown.gpusPerTray = target.gpusPerTray;
  shown.rackRange = target.rackRange;
  shown.gpuRange = target.gpuRange;
}

// --- rack order ---

RackMap RackMap::build(const Scene& scene) {
  RackMap map;
  if (scene.prototypeCount() == 0) return map;
  const Prototype& root = scene.prototype(scene.root());
  for (const auto& [hallNumber, hall] : numbered(root, "hall")) {
    if (map.m_rowFirst.size() <= hallNumber) map.m_rowFirst.resize(hallNumber + 1);
    std::vector<uint32_t>& rows = map.m_rowFirst[hallNumber];
    const Prototype& hallProto = scene.prototype(hall->prototype);
    const std::string hallPath = hall->name;
    for (const auto& [rowNumber, row] : numbered(hallProto, "row")) {
      if (rows.size() <= rowNumber) rows.resize(rowNumber + 1, map.rackCount());
      rows[rowNumber] = map.rackCount();
      const Prototype& rowProto = scene.prototype(row->prototype);
      for (const auto& rack : numbered(rowProto, "rack")) {
        map.m_paths.push_back(hallPath + "/" + row->name + "/" + rack.second->name);
      }
    }
    rows.push_back(map.rackCount());  // end of the hall
  }
  map.m_bounds.reserve(map.m_paths.size());
  for (const std::string& path : map.m_paths) map.m_bounds.push_back(*scene.worldBounds(path));
  return map;
}

std::optional<uint32_t> RackMap::firstRackOfRow(uint32_t hall, uint32_t row) const {
  if (hall >= m_rowFirst.size() || row + 1 >= m_rowFirst[hall].size()) return std::nullopt;
  return m_rowFirst[hall][row];
}

std::optional<uint32_t> RackMap::rackIndexOfPath(std::string_view path) const {
  const size_t a = path.find('/');
  if (a == std::string_view::npos) return std::nullopt;
  const size_t b = path.find('/', a + 1);
  if (b == std::string_view::npos) return std::nullopt;
  const auto hall = numberAfter(path.substr(0, a), "hall");
  const auto row = numberAfter(path.substr(a + 1, b - a - 1), "row");
  const auto rack = numberAfter(path.substr(b + 1), "rack");
  if (!hall || !row || !rack) return std::nullopt;
  const auto first = firstRackOfRow(*hall, *row);
  if (!first) return std::nullopt;
  const uint32_t index = *first + *rack;
  // The row's racks end where the next row (or the hall's end marker) begins.
  if (index >= m_rowFirst[*hall][*row + 1]) return std::nullopt;
  if (m_paths[index] != path) return std::nullopt;
  return index;
}

std::vector<HeroGpu> findHeroGpus(const Scene& scene, const RackMap& racks) {
  std::vector<HeroGpu> out;
  if (racks.rackCount() == 0) return out;
  const auto rack = scene.resolve(racks.pathOfRack(0));
  if (!rack) return out;
  for (const auto& [trayNumber, tray] : numbered(scene.prototype(rack->second), "compute_tray")) {
    const glm::dmat4 trayWorld = rack->first * tray->local;
    uint32_t slot = 0;
    for (const ChildInstance& child : scene.prototype(tray->prototype).children) {
      if (!isGpuPackage(child.name)) continue;
      const Aabb bounds =
          transformAabb(trayWorld * child.local, scene.prototype(child.prototype).bounds);
      out.push_back(
          {trayNumber, slot++, bounds, racks.pathOfRack(0) + "/" + tray->name + "/" + child.name});
    }
  }
  return out;
}

// --- the tint ---

void OverlayTint::bind(const Scene& scene, const RackMap& racks) {
  m_racks = &racks;
  m_tags.assign(scene.prototypeCount(), {});
  for (uint32_t p = 0; p < scene.prototypeCount(); ++p) {
    const Prototype& proto = scene.prototype(PrototypeId{p});
    std::vector<ChildTag>& tags = m_tags[p];
    tags.resize(proto.children.size());
    uint32_t gpuSlot = 0;  // GPU packages take slots in the order the tray lists them
    for (size_t i = 0; i < proto.children.size(); ++i) {
      const std::string& name = proto.children[i].name;
      ChildTag& t = tags[i];
      if (auto n = numberAfter(name, "hall")) {
        t = {Tag::Hall, *n};
      } else if (auto n = numberAfter(name, "row")) {
        t = {Tag::Row, *n};
      } else if (auto n = numberAfter(name, "rack")) {
        t = {Tag::Rack, *n};
      } else if (auto n = numberAfter(name, "compute_tray")) {
        t = {Tag::Tray, *n};
      } else if (isGpuPackage(name)) {
        t = {Tag::Gpu, gpuSlot++};
      }
    }
  }
}

Look OverlayTint::lookOf(double normalised) {
  if (std::isnan(normalised)) return NO_DATA_LOOK;
  const Rgb c = srgbToLinear(viridis(normalised));
  Look look{c.r, c.g, c.b, TINT_EMISSIVE, TINT_SPECULAR};
  look.detail = 0;  // an indicator lit in the colour: no seams drawn over the light
  return look;
}

void OverlayTint::prepare(const OverlayState& state) {
  m_gpusPerTray = std::max(1u, state.gpusPerTray);
  m_rackLooks.resize(state.rackValues.size());
  for (size_t i = 0; i < state.rackValues.size(); ++i) {
    m_rackLooks[i] = lookOf(state.rackRange.normalised(state.rackValues[i]));
  }
  m_gpuLooks.resize(state.heroGpuValues.size());
  for (size_t i = 0; i < state.heroGpuValues.size(); ++i) {
    m_gpuLooks[i] = lookOf(state.gpuRange.normalised(state.heroGpuValues[i]));
  }
  // Rows and halls: the mean of their racks.
  m_rowLooks.resize(state.rackValues.size());
  m_hallLooks.resize(m_racks ? m_racks->rowStarts().size() : 0);
  auto meanOf = [&](uint32_t first, uint32_t end) {
    end = std::min<uint32_t>(end, uint32_t(state.rackValues.size()));
    double sum = 0;
    uint32_t n = 0;
    for (uint32_t r = first; r < end; ++r) {
      if (std::isnan(state.rackValues[r])) continue;
      sum += state.rackValues[r];
      ++n;
    }
    return n > 0 ? sum / double(n) : end > first ? double(NO_DATA) : 0.0;
  };
  for (size_t h = 0; h < m_hallLooks.size(); ++h) {
    const std::vector<uint32_t>& starts = m_racks->rowStarts()[h];
    if (starts.empty()) continue;
    m_hallLooks[h] = lookOf(state.rackRange.normalised(meanOf(starts.front(), starts.back())));
    for (size_t r = 0; r + 1 < starts.size(); ++r) {
      if (starts[r] < m_rowLooks.size()) {
        m_rowLooks[starts[r]] =
            lookOf(state.rackRange.normalised(meanOf(starts[r], starts[r + 1])));
      }
    }
  }
  const size_t trays = (state.heroGpuValues.size() + m_gpusPerTray - 1) / m_gpusPerTray;
  m_trayLooks.resize(trays);
  for (size_t t = 0; t < trays; ++t) {
    double sum = 0;
    size_t n = 0;
    for (size_t g = t * m_gpusPerTray;
         g < std::min(state.heroGpuValues.size(), (t + 1) * m_gpusPerTray); ++g) {
      if (std::isnan(state.heroGpuValues[g])) continue;  // no data
      sum += state.heroGpuValues[g];
      ++n;
    }
    m_trayLooks[t] = lookOf(n ? state.gpuRange.normalised(sum / double(n)) : double(NO_DATA));
  }
}

uint32_t OverlayTint::childState(uint32_t parentState, PrototypeId parent, uint32_t child) const {
  const Kind kind = kindOf(parentState);
  const uint32_t index = indexOf(parentState);
  if (kind == Kind::Off) return parentState;
  // A GPU package shows its value on its proxy and its own parts (substrate, interposer); the
  // dies and HBM stacks inside keep their looks, so the die and SM stations still read.
  if (kind == Kind::Gpu) return makeState(Kind::Off, 0);
  if (parent.index >= m_tags.size() || child >= m_tags[parent.index].size()) {
    return makeState(Kind::Off, 0);
  }
  const ChildTag& t = m_tags[parent.index][child];
  switch (kind) {
    case Kind::Root:
      return t.tag == Tag::Hall ? makeState(Kind::Hall, t.number) : makeState(Kind::Off, 0);
    case Kind::Hall:
      if (t.tag == Tag::Row && m_racks) {
        if (auto first = m_racks->firstRackOfRow(index, t.number)) {
          return makeState(Kind::Row, *first);
        }
      }
      return makeState(Kind::Off, 0);
    case Kind::Row:
      return t.tag == Tag::Rack ? makeState(Kind::Rack, index + t.number) : makeState(Kind::Off, 0);
    case Kind::Rack:
      // Other racks are one colour. The hero rack (rack 0) shows its compute trays and GPUs;
      // its frame, switch trays and power shelves keep their looks so the trays read.
      if (index != 0) return parentState;
      return t.tag == Tag::Tray ? makeState(Kind::Tray, t.number) : makeState(Kind::Off, 0);
    case Kind::Tray:
      return t.tag == Tag::Gpu ? makeState(Kind::Gpu, index * m_gpusPerTray + t.number)
                               : parentState;
    case Kind::Gpu:
    case Kind::Off:
      break;
  }
  return parentState;
}

const Look* OverlayTint::look(uint32_t state, bool proxy) const {
  const uint32_t index = indexOf(state);
  switch (kindOf(state)) {
    case Kind::Hall:
      return proxy && index < m_hallLooks.size() ? &m_hallLooks[index] : nullptr;
    case Kind::Row:
      return proxy && index < m_rowLooks.size() ? &m_rowLooks[index] : nullptr;
    case Kind::Rack:
      if (index == 0 && !proxy) return nullptr;  // the hero rack's own parts: see childState
      return index < m_rackLooks.size() ? &m_rackLooks[index] : nullptr;
    case Kind::Tray:
      return index < m_trayLooks.size() ? &m_trayLooks[index] : nullptr;
    case Kind::Gpu:
      return index < m_gpuLooks.size() ? &m_gpuLooks[index] : nullptr;
    default:
      return nullptr;
  }
}

}  // namespace world
