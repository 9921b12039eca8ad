#include "world/live/heat_overlay.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <glm/geometric.hpp>

#include "sim/format.h"
#include "world/live/layer.h"

namespace world {
namespace {

// Smallest on-screen size (px) worth a label.
constexpr double MIN_LABEL_PX = 16.0;
// Candidates tested for occlusion per label wanted (each test is one ray pick).
constexpr uint32_t CANDIDATES_PER_LABEL = 3;
constexpr uint32_t GPU_CANDIDATE_BIT = 0x80000000u;

bool contains(const Aabb& outer, const Aabb& inner) {
  const glm::dvec3 eps(1e-6);
  return glm::all(glm::lessThanEqual(outer.min - eps, inner.min)) &&
         glm::all(glm::lessThanEqual(inner.max, outer.max + eps));
}

// "184 W" for a value in `unit` (no decimals: labels are read at a glance).
std::string formatValue(double value, const std::string& unit) {
  if (std::isnan(value)) return "no data";  // a trace replay's GPU without a trace
  return sim::fixedDecimals(value, 0) + " " + unit;
}

}  // namespace

void HeatOverlay::sync(const sim::engine::Snapshot& snapshot, OverlayMetric metric,
                       const Calm& calm) {
  updateOverlay(snapshot, metric, m_target);
  easeOverlay(m_shown, m_target, calm.maxStep());
}

const TintRule* HeatOverlay::tint() {
  if (!m_shown.active()) return nullptr;
  m_tint.prepare(m_shown);
  return &m_tint;
}

void HeatOverlay::labels(const CullView& view, uint32_t width_px, uint32_t maxLabels,
                         const Scene& scene, const RackMap& racks,
                         const std::vector<HeroGpu>& heroGpus, std::vector<Label>& out) {
  if (!m_shown.active() || maxLabels == 0) return;
  const double focal = 0.5 * view.viewportHeight_px / std::tan(0.5 * view.verticalFov_rad);
  const double halfW = 0.5 * double(std::max(1u, width_px));
  const double halfH = 0.5 * view.viewportHeight_px;
  // On screen and large enough: its depth, else a negative number.
  auto depthIfShown = [&](const Aabb& b) {
    const glm::dvec3 rel = labelPoint(b) - view.eye;
    const double depth = glm::dot(rel, view.forward);
    if (depth <= 0) return -1.0;
    const double x = glm::dot(rel, view.right) / depth * focal;
    const double y = glm::dot(rel, view.up) / depth * focal;
    if (std::abs(x) > halfW || std::abs(y) > halfH) return -1.0;
    const glm::dvec3 size = b.size();
    const double px = std::max({size.x, size.y, size.z}) / depth * focal;
    return px < MIN_LABEL_PX ? -1.0 : depth;
  };

  m_candidates.clear();
  const uint32_t rackCount =
      std::min<uint32_t>(racks.rackCount(), uint32_t(m_shown.rackValues.size()));
  for (uint32_t i = 0; i < rackCount; ++i) {
    const double depth = depthIfShown(racks.rackBounds(i));
    if (depth > 0) m_candidates.emplace_back(depth, i);
  }
  for (uint32_t i = 0; i < heroGpus.size(); ++i) {
    if (heroGpus[i].local(m_shown.gpusPerTray) >= m_shown.heroGpuValues.size()) continue;
    const double depth = depthIfShown(heroGpus[i].bounds);
    if (depth > 0) m_candidates.emplace_back(depth, GPU_CANDIDATE_BIT | i);
  }
  const size_t tested =
      std::min<size_t>(m_candidates.size(), size_t(maxLabels) * CANDIDATES_PER_LABEL);
  std::partial_sort(m_candidates.begin(), m_candidates.begin() + tested, m_candidates.end());

  const std::string badge = " (" + std::string(sim::basisName(m_shown.basis)) + ")";
  uint32_t added = 0;
  for (size_t c = 0; c < tested && added < maxLabels; ++c) {
    const uint32_t id = m_candidates[c].second;
    const bool gpu = (id & GPU_CANDIDATE_BIT) != 0;
    const uint32_t index = id & ~GPU_CANDIDATE_BIT;
    const Aabb& bounds = gpu ? heroGpus[index].bounds : racks.rackBounds(index);
    const glm::dvec3 anchor = labelPoint(bounds) - view.eye;
    const double anchorDistance = glm::length(anchor);
    const auto blocker = scene.pick(view.eye, anchor, &view.studio);
    if (blocker && blocker->distance_m < LABEL_BLOCKER_SLACK * anchorDistance &&
        !contains(bounds, blocker->worldBounds)) {
      continue;
    }
    // The colour eases towards the engine's value (calm); the words say the value itself, the
    // one the inspector and the panels show.
    const OverlayState& now =
        m_target.metric == m_shown.metric &&
                m_target.heroGpuValues.size() == m_shown.heroGpuValues.size() &&
                m_target.rackValues.size() == m_shown.rackValues.size()
            ? m_target
            : m_shown;
    std::string text;
    if (gpu) {
      const uint32_t local = heroGpus[index].local(now.gpusPerTray);
      text = "GPU " + std::to_string(local) + "  " +
             formatValue(now.heroGpuValues[local], now.gpuRange.unit) + badge;
    } else {
      text = "rack " + std::to_string(index) + "  " +
             formatValue(now.rackValues[index], now.rackRange.unit) + badge;
    }
    // Nearer first when labels collide.
    out.push_back(makeLabel(anchor, std::move(text),
                            static_cast<float>(focal / std::max(1e-3, m_candidates[c].first))));
    ++added;
  }
}

}  // namespace world
