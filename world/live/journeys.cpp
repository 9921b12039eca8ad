#include "world/live/journeys.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace world {
namespace {

constexpr const char* HERO_GPU = "superchip0_gpu0";
constexpr const char* HERO_GRACE = "superchip0_grace";
constexpr const char* LPDDR = "LPDDR5X ";
constexpr const char* NIC = "ConnectX-7 400G OSFP ";
constexpr const char* BOARD = "motherboard";

constexpr Look RDMA_LOOK{0.30f, 1.00f, 0.45f, 1.0f, 0.0f};  // green: one hop, no copy
constexpr Look TCP_LOOK{1.00f, 0.35f, 0.85f, 1.0f, 0.0f};   // magenta: four copies
constexpr Look RDMA_MARK{0.10f, 0.45f, 0.18f, 0.5f, 0.2f};
constexpr Look TCP_MARK{0.45f, 0.12f, 0.38f, 0.5f, 0.2f};

// World bounds of the parts of the prototype at `path` whose names start with `prefix`.
std::vector<Aabb> partsNamed(const Scene& scene, const std::string& path,
                             const std::string& prefix) {
  std::vector<Aabb> out;
  const auto resolved = scene.resolve(path);
  if (!resolved) return out;
  for (const Part& part : scene.prototype(resolved->second).parts) {
    if (part.name.rfind(prefix, 0) == 0) out.push_back(transformAabb(resolved->first, part.bounds));
  }
  return out;
}

glm::dvec3 topOf(const Aabb& box, double lift_m) {
  glm::dvec3 p = box.center();
  p.y = box.max.y + lift_m;
  return p;
}

double horizontalDistance(const glm::dvec3& a, const glm::dvec3& b) {
  return std::hypot(a.x - b.x, a.z - b.z);
}

void measure(Journey& j) {
  j.along_m.clear();
  double s = 0;
  for (size_t i = 0; i < j.points.size(); ++i) {
    if (i > 0) s += glm::length(j.points[i] - j.points[i - 1]);
    j.along_m.push_back(s);
  }
}

}  // namespace

glm::dvec3 Journey::at(double s_m) const {
  if (points.empty()) return glm::dvec3(0.0);
  const double s = std::clamp(s_m, 0.0, length_m());
  const auto next = std::upper_bound(along_m.begin(), along_m.end(), s);
  if (next == along_m.end()) return points.back();
  const size_t i = size_t(next - along_m.begin());
  const double span = along_m[i] - along_m[i - 1];
  const double t = span > 0 ? (s - along_m[i - 1]) / span : 0.0;
  return points[i - 1] + t * (points[i] - points[i - 1]);
}

std::optional<TrayJourneys> buildTrayJourneys(const Scene& scene, const std::string& trayPath) {
  const auto gpu = scene.worldBounds(trayPath + "/" + HERO_GPU);
  const auto grace = scene.worldBounds(trayPath + "/" + HERO_GRACE);
  std::vector<Aabb> lpddr = partsNamed(scene, trayPath + "/" + HERO_GRACE, LPDDR);
  const std::vector<Aabb> nics = partsNamed(scene, trayPath, NIC);
  const std::vector<Aabb> boards = partsNamed(scene, trayPath, BOARD);
  if (!gpu || !grace || lpddr.size() < 3 || nics.empty() || boards.empty()) return std::nullopt;

  TrayJourneys t;
  t.gpu = *gpu;
  t.host = *grace;
  const glm::dvec3 gpuCentre = gpu->center();
  t.nic = *std::min_element(nics.begin(), nics.end(), [&](const Aabb& a, const Aabb& b) {
    return horizontalDistance(a.center(), gpuCentre) < horizontalDistance(b.center(), gpuCentre);
  });
  const double lift = 0.5 * JourneyStyle{}.size_m;
  const glm::dvec3 start = topOf(*gpu, lift);
  const glm::dvec3 end = t.nic.center();

  // RDMA: the NIC reads GPU memory through the PCIe switch on the board, half-way to the NIC: the
  // short way, where TCP detours through the Grace's memory.
  const double boardTop = boards.front().max.y + lift;
  const glm::dvec3 pcie(0.5 * (gpuCentre.x + end.x), boardTop, 0.5 * (gpuCentre.z + end.z));
  t.rdma.kind = JourneyKind::Rdma;
  t.rdma.points = {start, pcie, end};
  measure(t.rdma);
  t.rdma.passes = {{"PCIe switch", t.rdma.along_m[1]}};

  // TCP: into the LPDDR5X nearest the GPU (pinned buffer), one half-way out (the application's
  // buffer), the farthest (the kernel's socket buffer), then the NIC's send queue.
  std::sort(lpddr.begin(), lpddr.end(), [&](const Aabb& a, const Aabb& b) {
    return glm::length(a.center() - gpuCentre) < glm::length(b.center() - gpuCentre);
  });
  t.tcp.kind = JourneyKind::Tcp;
  t.tcp.points = {start, topOf(lpddr[0], lift), topOf(lpddr[lpddr.size() / 2], lift),
                  topOf(lpddr.back(), lift), end};
  measure(t.tcp);
  t.tcp.stops = {{"pinned host buffer (Grace LPDDR5X)", t.tcp.along_m[1]},
                 {"application buffer (LPDDR5X)", t.tcp.along_m[2]},
                 {"kernel socket buffer (LPDDR5X)", t.tcp.along_m[3]},
                 {"NIC send queue", t.tcp.along_m[4]}};
  return t;
}

double journeyDuration_s(const Journey& journey, const JourneyStyle& style) {
  return journey.length_m() / style.speed_mps + double(journey.stops.size()) * style.copyDwell_s;
}

double journeyAlong_m(const Journey& journey, const JourneyStyle& style, double t_s) {
  double t = std::max(0.0, t_s), s = 0;
  for (const CopyStop& stop : journey.stops) {
    const double travel_s = (stop.along_m - s) / style.speed_mps;
    if (t < travel_s) return s + t * style.speed_mps;
    t -= travel_s;
    s = stop.along_m;
    if (t < style.copyDwell_s) return s;
    t -= style.copyDwell_s;
  }
  return std::min(s + t * style.speed_mps, journey.length_m());
}

uint32_t journeyParticles(const Journey& journey, const JourneyStyle& style) {
  if (journey.length_m() <= 0 || style.launchEvery_s <= 0 || style.speed_mps <= 0) return 0;
  return uint32_t(std::ceil(journeyDuration_s(journey, style) / style.launchEvery_s));
}

uint32_t journeyInstances(const TrayJourneys& journeys, const JourneyStyle& style) {
  uint32_t n = 0;
  for (const Journey* j : {&journeys.rdma, &journeys.tcp}) {
    n += journeyParticles(*j, style) + uint32_t(j->stops.size() + j->passes.size());
  }
  return n;
}

void emitJourneys(const TrayJourneys& journeys, const JourneyStyle& style, double time_s,
                  const glm::dvec3& eye, std::vector<gpu::Instance>& out) {
  for (const Journey* j : {&journeys.rdma, &journeys.tcp}) {
    const bool rdma = j->kind == JourneyKind::Rdma;
    const Look& look = rdma ? RDMA_LOOK : TCP_LOOK;
    const Look& mark = rdma ? RDMA_MARK : TCP_MARK;
    for (const std::vector<CopyStop>* stops : {&j->stops, &j->passes}) {
      for (const CopyStop& stop : *stops) {
        out.push_back(makeInstance(boxTransform(j->at(stop.along_m), glm::dvec3(3 * style.size_m)),
                                   eye, mark));
      }
    }
    // Particles leave the GPU every launchEvery_s; the oldest wait at the NIC until the cycle
    // launches them again.
    const uint32_t n = journeyParticles(*j, style);
    const double cycle_s = n * style.launchEvery_s;
    for (uint32_t k = 0; k < n; ++k) {
      const double age_s = std::fmod(std::max(0.0, time_s) + k * style.launchEvery_s, cycle_s);
      out.push_back(makeInstance(
          boxTransform(j->at(journeyAlong_m(*j, style, age_s)), glm::dvec3(style.size_m)), eye,
          look));
    }
  }
}

}  // namespace world
