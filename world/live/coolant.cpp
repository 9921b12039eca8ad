#include "world/live/coolant.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include <glm/geometric.hpp>

namespace world {
namespace {

constexpr const char* HERO_RACK = "hall0/row0/rack0";
constexpr const char* HERO_ROW = "hall0/row0";
constexpr const char* ROW_CDU = "hall0/row0/cdu";
constexpr const char* PLANT = "cooling0";
constexpr const char* DRY_COOLER = "cooling0/dry_cooler0";

// Drawing offsets (not hardware): how far above the pipes the facility route runs in the hall,
// and above the dry cooler's fans the water is shown crossing it.
constexpr double HALL_ROUTE_ABOVE_M = 0.6;
constexpr double ROUTE_SPLIT_M = 0.6;  // supply leg above the return leg
constexpr double COOLER_ABOVE_M = 0.4;
constexpr double MAX_MOVE_S = 0.1;

using glm::dvec3;

std::optional<Aabb> firstPart(const Scene& scene, const std::string& path,
                              const std::string& name) {
  const auto resolved = scene.resolve(path);
  if (!resolved) return std::nullopt;
  for (const Part& part : scene.prototype(resolved->second).parts) {
    if (part.name == name) return transformAabb(resolved->first, part.bounds);
  }
  return std::nullopt;
}

std::vector<Aabb> allParts(const Scene& scene, const std::string& path, const std::string& name) {
  std::vector<Aabb> out;
  const auto resolved = scene.resolve(path);
  if (!resolved) return out;
  for (const Part& part : scene.prototype(resolved->second).parts) {
    if (part.name == name) out.push_back(transformAabb(resolved->first, part.bounds));
  }
  return out;
}

// The two ends of a long part along its longest side, the one nearer `near` first.
std::pair<dvec3, dvec3> ends(const Aabb& box, const dvec3& near) {
  const dvec3 size = box.size();
  int axis = 0;
  for (int k = 1; k < 3; ++k)
    if (size[k] > size[axis]) axis = k;
  dvec3 a = box.center(), b = box.center();
  a[axis] = box.min[axis];
  b[axis] = box.max[axis];
  if (glm::length(b - near) < glm::length(a - near)) std::swap(a, b);
  return {a, b};
}

dvec3 with(dvec3 p, int axis, double value) {
  p[axis] = value;
  return p;
}

// Diameter of a straight pipe part: the smaller of its box's two short sides.
double diameter(const Aabb& box) {
  dvec3 size = box.size();
  std::sort(&size[0], &size[0] + 3);
  return size[0];
}

struct Builder {
  CoolantPath path;
  void go(const dvec3& p, CoolantTemp t, double pipe_m = 0) {
    path.points.push_back({p, t, t, 0.0, pipe_m});
  }
  void mixed(const dvec3& p, CoolantTemp from, CoolantTemp to, double mix) {
    path.points.push_back({p, from, to, mix, 0.0});
  }
  CoolantPath done(CoolantLoop loop) {
    path.loop = loop;
    double s = 0;
    const size_t n = path.points.size();
    for (size_t i = 0; i < n; ++i) {
      if (i > 0) s += glm::length(path.points[i].position_m - path.points[i - 1].position_m);
      path.along_m.push_back(s);
    }
    if (n > 1) s += glm::length(path.points.front().position_m - path.points.back().position_m);
    path.along_m.push_back(s);  // closing the loop
    return std::move(path);
  }
};

// The hero rack's compute tray that has cold plates (the open hero tray).
std::optional<std::string> heroTray(const Scene& scene) {
  for (int i = 0;; ++i) {
    const std::string tray = std::string(HERO_RACK) + "/compute_tray" + std::to_string(i);
    if (!scene.resolve(tray)) return std::nullopt;
    if (firstPart(scene, tray, "B200 cold plate")) return tray;
  }
}

std::optional<CoolantPath> secondaryLoop(const Scene& scene) {
  using T = CoolantTemp;
  const auto tray = heroTray(scene);
  const auto sm = firstPart(scene, HERO_RACK, "coolant supply manifold");
  const auto rm = firstPart(scene, HERO_RACK, "coolant return manifold");
  const auto rowS = firstPart(scene, HERO_ROW, "row coolant supply");
  const auto rowR = firstPart(scene, HERO_ROW, "row coolant return");
  const auto cduS = firstPart(scene, ROW_CDU, "secondary supply");
  const auto cduR = firstPart(scene, ROW_CDU, "secondary return");
  if (!tray || !sm || !rm || !rowS || !rowR || !cduS || !cduR) return std::nullopt;
  std::vector<Aabb> plates = allParts(scene, *tray, "B200 cold plate");
  const std::vector<Aabb> qds = allParts(scene, *tray, "quick-disconnect");
  const std::vector<Aabb> supplyTubes = allParts(scene, *tray, "coolant supply tube");
  const std::vector<Aabb> returnTubes = allParts(scene, *tray, "coolant return tube");
  if (qds.size() != 2 || supplyTubes.empty() || returnTubes.empty()) return std::nullopt;
  // The quick-disconnect on the supply manifold's side is the supply one.
  const bool firstIsSupply =
      glm::length(qds[0].center() - sm->center()) < glm::length(qds[1].center() - sm->center());
  const Aabb& qdS = qds[firstIsSupply ? 0 : 1];
  const Aabb& qdR = qds[firstIsSupply ? 1 : 0];
  const dvec3 across = glm::normalize(qdR.center() - qdS.center());
  std::sort(plates.begin(), plates.end(), [&](const Aabb& a, const Aabb& b) {
    return glm::dot(a.center(), across) < glm::dot(b.center(), across);
  });
  auto nearest = [](const std::vector<Aabb>& boxes, const dvec3& p) {
    return *std::min_element(boxes.begin(), boxes.end(), [&](const Aabb& a, const Aabb& b) {
      return glm::length(a.center() - p) < glm::length(b.center() - p);
    });
  };
  const auto [smTop, smBottom] = ends(*sm, rowS->center());
  const auto [rmTop, rmBottom] = ends(*rm, rowR->center());
  const auto [sRiserBottom, sRiserTop] = ends(*cduS, dvec3(cduS->center().x, -1e9, 0));
  const auto [rRiserBottom, rRiserTop] = ends(*cduR, dvec3(cduR->center().x, -1e9, 0));
  const double rowSY = rowS->center().y, rowSZ = rowS->center().z;
  const double rowRY = rowR->center().y, rowRZ = rowR->center().z;
  const auto [qdSBack, qdSFront] = ends(qdS, smBottom);
  const auto [qdRBack, qdRFront] = ends(qdR, rmBottom);
  const double trayY = qdS.center().y;
  const auto [sTubeBack, sTubeFront] =
      ends(nearest(supplyTubes, plates.front().center()), qdSFront);
  const auto [rTubeBack, rTubeFront] = ends(nearest(returnTubes, plates.back().center()), qdRFront);

  Builder b;
  // CDU -> row supply pipe -> over the hero rack -> down its supply manifold.
  b.go(sRiserBottom, T::Supply, diameter(*cduS));
  b.go(sRiserTop, T::Supply);
  b.go(dvec3(sRiserTop.x, rowSY, sRiserTop.z), T::Supply);
  b.go(dvec3(sRiserTop.x, rowSY, rowSZ), T::Supply, diameter(*rowS));
  b.go(dvec3(smTop.x, rowSY, rowSZ), T::Supply);
  b.go(dvec3(smTop.x, rowSY, smTop.z), T::Supply);
  b.go(smTop, T::Supply, diameter(*sm));
  b.go(with(smTop, 1, trayY), T::Supply);
  // Out to the hero tray's supply quick-disconnect, along a tube to the first cold plate.
  b.go(dvec3(qdSBack.x, trayY, smTop.z), T::Supply);
  b.go(qdSBack, T::Supply, diameter(qdS));
  b.go(qdSFront, T::Supply);
  // Along the hose to the supply header, along the header to the plate's tube.
  b.go(dvec3(qdSFront.x, qdSFront.y, sTubeBack.z), T::Supply);
  b.go(dvec3(sTubeBack.x, qdSFront.y, sTubeBack.z), T::Supply);
  b.go(sTubeBack, T::Supply, diameter(nearest(supplyTubes, plates.front().center())));
  b.go(sTubeFront, T::Supply);
  // Across the cold plates, picking up the rack's heat.
  for (size_t k = 0; k < plates.size(); ++k) {
    const dvec3 top = with(plates[k].center(), 1, plates[k].max.y);
    b.mixed(top, T::Supply, T::RackOutlet, double(k + 1) / double(plates.size()));
  }
  // Back through a return tube and quick-disconnect to the return manifold, up it.
  b.go(rTubeFront, T::RackOutlet, diameter(nearest(returnTubes, plates.back().center())));
  b.go(rTubeBack, T::RackOutlet);
  b.go(dvec3(rTubeBack.x, qdRFront.y, rTubeBack.z), T::RackOutlet);
  b.go(dvec3(qdRFront.x, qdRFront.y, rTubeBack.z), T::RackOutlet);
  b.go(qdRFront, T::RackOutlet, diameter(qdR));
  b.go(qdRBack, T::RackOutlet);
  b.go(dvec3(qdRBack.x, trayY, rmTop.z), T::RackOutlet);
  b.go(with(rmTop, 1, trayY), T::RackOutlet, diameter(*rm));
  b.go(rmTop, T::RackOutlet);
  b.go(dvec3(rmTop.x, rowRY, rmTop.z), T::RackOutlet);
  // The row return pipe carries the CDU's racks mixed: the engine's loop temperature.
  b.go(dvec3(rmTop.x, rowRY, rowRZ), T::LoopReturn, diameter(*rowR));
  b.go(dvec3(rRiserTop.x, rowRY, rowRZ), T::LoopReturn);
  b.go(dvec3(rRiserTop.x, rowRY, rRiserTop.z), T::LoopReturn);
  b.go(rRiserTop, T::LoopReturn, diameter(*cduR));
  b.go(rRiserBottom, T::LoopReturn);
  // Closing: through the CDU's heat exchanger back to the supply riser (cooled to supply).
  return b.done(CoolantLoop::Secondary);
}

std::optional<CoolantPath> facilityLoop(const Scene& scene) {
  using T = CoolantTemp;
  const auto cabinet = firstPart(scene, ROW_CDU, "CDU cabinet");
  const auto rowR = firstPart(scene, HERO_ROW, "row coolant return");
  const auto supplyHeader = firstPart(scene, PLANT, "facility water supply header");
  const auto returnHeader = firstPart(scene, PLANT, "facility water return header");
  const auto cooler = scene.worldBounds(DRY_COOLER);
  if (!cabinet || !rowR || !supplyHeader || !returnHeader || !cooler) return std::nullopt;
  const dvec3 cab = cabinet->center();
  const auto [retHall, retFar] = ends(*returnHeader, cab);
  const auto [supHall, supFar] = ends(*supplyHeader, cab);
  const double yReturn = std::max(rowR->max.y, cabinet->max.y) + HALL_ROUTE_ABOVE_M;
  const double ySupply = yReturn + ROUTE_SPLIT_M;
  const double zOffset = 0.25 * cabinet->size().z;
  const double yCooler = cooler->max.y + COOLER_ABOVE_M;
  dvec3 coolA(cooler->min.x, yCooler, cooler->center().z);
  dvec3 coolB(cooler->max.x, yCooler, cooler->center().z);
  if (glm::length(coolB - retFar) < glm::length(coolA - retFar)) std::swap(coolA, coolB);

  Builder b;
  // Through the CDU's heat exchanger, taking the secondary loop's heat.
  b.go(cab, T::Supply);
  b.go(dvec3(cab.x, cabinet->max.y, cab.z - zOffset), T::FacilityReturn);
  b.go(dvec3(cab.x, yReturn, cab.z - zOffset), T::FacilityReturn);
  b.go(dvec3(retHall.x, yReturn, cab.z - zOffset), T::FacilityReturn);
  b.go(dvec3(retHall.x, yReturn, retHall.z), T::FacilityReturn);
  b.go(retHall, T::FacilityReturn, diameter(*returnHeader));
  b.go(retFar, T::FacilityReturn);
  // Over the dry cooler's coil, where the heat goes to the air.
  b.go(dvec3(retFar.x, yCooler, retFar.z), T::FacilityReturn);
  b.go(dvec3(retFar.x, yCooler, coolA.z), T::FacilityReturn);
  b.go(coolA, T::FacilityReturn, diameter(*returnHeader));  // through the coil
  b.go(coolB, T::Supply);
  b.go(dvec3(supFar.x, yCooler, coolB.z), T::Supply);
  b.go(dvec3(supFar.x, yCooler, supFar.z), T::Supply);
  b.go(supFar, T::Supply, diameter(*supplyHeader));
  b.go(supHall, T::Supply);
  b.go(dvec3(supHall.x, ySupply, supHall.z), T::Supply);
  b.go(dvec3(supHall.x, ySupply, cab.z + zOffset), T::Supply);
  b.go(dvec3(cab.x, ySupply, cab.z + zOffset), T::Supply);
  b.go(dvec3(cab.x, cabinet->max.y, cab.z + zOffset), T::Supply);
  return b.done(CoolantLoop::Facility);
}

// Index i with along_m[i] <= s < along_m[i + 1] (s already wrapped into the loop).
size_t segmentOf(const CoolantPath& path, double s) {
  const auto next = std::upper_bound(path.along_m.begin(), path.along_m.end(), s);
  const size_t i = size_t(std::max<std::ptrdiff_t>(1, next - path.along_m.begin())) - 1;
  return std::min(i, path.points.size() - 1);
}

double wrap(double s, double length) {
  if (!(length > 0)) return 0.0;
  const double w = std::fmod(s, length);
  return w < 0 ? w + length : w;
}

}  // namespace

CoolantState coolantStateOf(const sim::engine::Snapshot& snapshot) {
  const sim::engine::RackCoolant rack = sim::engine::rackCoolant(snapshot, 0);
  CoolantState s;
  s.cdu = rack.cdu;
  s.flowFraction = rack.flowFraction;
  s.rackHeat_W = rack.rackHeat_W;
  s.temperature_C[size_t(CoolantTemp::Supply)] = rack.supply_C;
  s.temperature_C[size_t(CoolantTemp::RackOutlet)] = rack.rackOutlet_C;
  s.temperature_C[size_t(CoolantTemp::LoopReturn)] = rack.loopReturn_C;
  s.temperature_C[size_t(CoolantTemp::FacilityReturn)] = rack.facilityReturn_C;
  return s;
}

LegendRange coolantRange(const sim::engine::Snapshot& snapshot) {
  const sim::FacilitySpec& fac = (*snapshot.cluster).specs.facility;
  const double tripFlow = (*snapshot.figures).pumpTripRemainingFlowFraction;
  LegendRange r;
  r.min = fac.coolantSupply_C - fac.coolantDeltaT_K;
  r.max = fac.coolantSupply_C + fac.coolantDeltaT_K / (tripFlow > 0 ? tripFlow : 1.0);
  r.unit = "°C";
  r.label = "coolant temperature";
  return r;
}

Look coolantLook(double temperature_C, const LegendRange& range) {
  const Rgb c = srgbToLinear(viridis(range.normalised(temperature_C)));
  Look look;
  look.r = c.r;
  look.g = c.g;
  look.b = c.b;
  look.emissive = 1.0f;
  look.specular = 0.0f;
  return look;
}

double CoolantPoint::temperature_C(const CoolantState& s) const {
  return s.at_C(from) + mix * (s.at_C(to) - s.at_C(from));
}

glm::dvec3 CoolantPath::at(double s_m) const {
  if (points.empty()) return dvec3(0.0);
  const double s = wrap(s_m, length_m());
  const size_t i = segmentOf(*this, s);
  const dvec3& a = points[i].position_m;
  const dvec3& b = points[(i + 1) % points.size()].position_m;
  const double span = along_m[i + 1] - along_m[i];
  return span > 0 ? a + (s - along_m[i]) / span * (b - a) : a;
}

double CoolantPath::pipe_m(double s_m) const {
  if (points.empty()) return 0.0;
  return points[segmentOf(*this, wrap(s_m, length_m()))].pipe_m;
}

glm::dvec3 CoolantPath::direction(double s_m) const {
  if (points.size() < 2) return dvec3(1, 0, 0);
  const size_t i = segmentOf(*this, wrap(s_m, length_m()));
  const dvec3 d = points[(i + 1) % points.size()].position_m - points[i].position_m;
  const double len = glm::length(d);
  return len > 0 ? d / len : dvec3(1, 0, 0);
}

double CoolantPath::temperature_C(double s_m, const CoolantState& state) const {
  if (points.empty()) return state.at_C(CoolantTemp::Supply);
  const double s = wrap(s_m, length_m());
  const size_t i = segmentOf(*this, s);
  const double a = points[i].temperature_C(state);
  const double b = points[(i + 1) % points.size()].temperature_C(state);
  const double span = along_m[i + 1] - along_m[i];
  return span > 0 ? a + (s - along_m[i]) / span * (b - a) : a;
}

Coolant Coolant::build(const Scene& scene, CoolantDesc desc) {
  Coolant c;
  c.m_desc = desc;
  if (auto secondary = secondaryLoop(scene)) c.m_paths.push_back(std::move(*secondary));
  if (auto facility = facilityLoop(scene)) c.m_paths.push_back(std::move(*facility));
  c.m_phase_m.assign(c.m_paths.size(), 0.0);
  return c;
}

void Coolant::update(const sim::engine::Snapshot& snapshot) {
  const double now_s = snapshot.time_s;
  const bool fresh = m_lastTime_s < 0 || now_s < m_lastTime_s;
  const double move_s = fresh ? 0.0 : std::min(now_s - m_lastTime_s, MAX_MOVE_S);
  m_state = coolantStateOf(snapshot);
  m_range = coolantRange(snapshot);
  for (size_t i = 0; i < m_paths.size(); ++i) {
    m_phase_m[i] = wrap(m_phase_m[i] + speed_mps(m_paths[i].loop) * move_s, m_paths[i].length_m());
  }
  m_lastTime_s = now_s;
}

double Coolant::speed_mps(CoolantLoop loop) const {
  const double design = m_desc.style(loop).speedAtDesignFlow_mps;
  // The facility pumps are not the CDU's: their flow stays at design.
  return loop == CoolantLoop::Secondary ? design * m_state.flowFraction : design;
}

uint32_t Coolant::dashes(size_t i) const {
  const CoolantPath& p = m_paths[i];
  return uint32_t(std::lround(p.length_m() * m_desc.style(p.loop).dashesPerMetre));
}

uint32_t Coolant::dashes() const {
  uint32_t n = 0;
  for (size_t i = 0; i < m_paths.size(); ++i) n += dashes(i);
  return n;
}

void Coolant::emit(const glm::dvec3& eye, std::vector<gpu::Instance>& out) const {
  for (size_t i = 0; i < m_paths.size(); ++i) {
    const CoolantPath& path = m_paths[i];
    const CoolantStyle& style = m_desc.style(path.loop);
    const uint32_t n = dashes(i);
    if (n == 0) continue;
    const double spacing = path.length_m() / n;
    for (uint32_t k = 0; k < n; ++k) {
      const double s = m_phase_m[i] + k * spacing;
      // A dash: long along the flow, thin across it (the paths run along the axes); on a pipe, a
      // band round it (the water inside is hidden).
      const dvec3 dir = glm::abs(path.direction(s));
      const double across = std::max(style.size_m, COOLANT_BAND_OVER_PIPE * path.pipe_m(s));
      const dvec3 size = dvec3(across) + dir * (style.dash_m - across);
      out.push_back(makeInstance(boxTransform(path.at(s), size), eye,
                                 coolantLook(path.temperature_C(s, m_state), m_range)));
    }
  }
}

std::unique_ptr<LiveLayer> CoolantLayer::make(const LayerSources& sources) {
  auto layer = std::make_unique<CoolantLayer>();
  layer->m_coolant = Coolant::build(sources.scene);
  if (auto cdu = sources.scene.worldBounds("hall0/row0/cdu")) layer->m_cdu = *cdu;
  return layer;
}

std::string coolantLabel(const CoolantState& state) {
  char text[128];
  std::snprintf(text, sizeof text, "CDU  supply %.0f °C  return %.0f °C  flow %.0f %% (derived)",
                state.at_C(CoolantTemp::Supply), state.at_C(CoolantTemp::LoopReturn),
                100.0 * state.flowFraction);
  return text;
}

void CoolantLayer::labels(const LayerFrame& frame, std::vector<Label>& out) const {
  if (m_cdu.empty()) return;
  const glm::dvec3 anchor = labelPoint(m_cdu) - frame.view.eye;
  if (glm::dot(anchor, frame.view.forward) <= 0) return;
  out.push_back(makeLabel(anchor, coolantLabel(m_coolant.state()), LabelRank::COOLANT));
}

}  // namespace world
