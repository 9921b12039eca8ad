#include "world/live/events/stages.h"

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "sim/calc/parallelism.h"

namespace world {

using namespace event_geometry;

StageBands StageBands::build(const Scene& scene, const RackMap& racks, uint32_t hall) {
  StageBands bands;
  const auto& halls = racks.rowStarts();
  if (hall >= halls.size() || halls[hall].empty()) return bands;
  for (uint32_t r = halls[hall].front(); r < halls[hall].back(); ++r) {
    Rack rack{r, rackFace(scene, racks.pathOfRack(r))};
    if (rack.face.trays.empty()) continue;
    bands.m_racks.push_back(std::move(rack));
  }
  const auto& rows = halls[hall];
  for (uint32_t r = rows.front(); rows.size() > 1 && r < rows[1]; ++r)
    bands.m_firstRow.extend(racks.rackBounds(r));
  if (!bands.m_firstRow.empty()) {
    const glm::dvec3 first = racks.rackBounds(rows.front()).center(), c = bands.m_firstRow.center();
    const glm::dvec3 size = bands.m_firstRow.size();
    bands.m_rowReversed = size.x >= size.z ? first.x > c.x : first.z > c.z;
    if (!bands.m_racks.empty() && bands.m_racks.front().id == rows.front()) {
      bands.m_rowFront = bands.m_racks.front().face.front;
      bands.m_rowFrontPlane = bands.m_racks.front().face.frontPlane;
    }
  }
  return bands;
}

std::vector<StageBands::Bar> StageBands::ribbon(const sim::engine::Snapshot& snapshot) const {
  std::vector<Bar> out;
  const sim::engine::TrainingPlan* plan = snapshot.training;
  if (!plan || m_firstRow.empty()) return out;
  const int stages = std::max(1, plan->desc.pp), layers = std::max(1, plan->model.layers);
  const glm::dvec3 size = m_firstRow.size();
  const bool alongX = size.x >= size.z;
  const double length = alongX ? size.x : size.z;
  const double y = m_firstRow.max.y + RIBBON_RISE_M;
  // Across the row: just in front of its trays' fronts (or over its middle without trays).
  const glm::dvec3 centre = m_firstRow.center();
  const double depthAt = m_rowFrontPlane != 0
                             ? m_rowFrontPlane + FRONT_CLEARANCE_M + RIBBON_HEIGHT_M
                             : glm::dot(centre, m_rowFront);
  const glm::dvec3 across = centre + m_rowFront * (depthAt - glm::dot(centre, m_rowFront));
  double at = 0;  // layers laid so far
  for (int s = 0; s < stages; ++s) {
    const int n = sim::calc::stageLayers(layers, stages, s);
    const double a = at / layers * length, b = (at + n) / layers * length;
    const double gap = 0.5 * CUT_SHARE * (b - a);
    at += n;
    if (n <= 0) continue;
    // Stage 0 over the row's first rack.
    const double start = alongX ? m_firstRow.min.x : m_firstRow.min.z;
    const double lo = m_rowReversed ? start + length - b + gap : start + a + gap;
    const double hi = m_rowReversed ? start + length - a - gap : start + b - gap;
    Aabb box;
    const double half = 0.5 * RIBBON_HEIGHT_M;
    box.extend(alongX ? glm::dvec3(lo, y, across.z - half) : glm::dvec3(across.x - half, y, lo));
    box.extend(alongX ? glm::dvec3(hi, y + RIBBON_HEIGHT_M, across.z + half)
                      : glm::dvec3(across.x + half, y + RIBBON_HEIGHT_M, hi));
    out.push_back({box, uint32_t(s)});
  }
  return out;
}

std::vector<StageBands::Bar> StageBands::layout(const sim::engine::Snapshot& snapshot) const {
  std::vector<Bar> out;
  const sim::engine::TrainingPlan* plan = snapshot.training;
  if (!plan || !snapshot.cluster) return out;
  const sim::engine::Cluster& c = *snapshot.cluster;
  const uint32_t perTray = std::max(1u, c.gpusPerTray);
  const uint32_t unit = uint32_t(std::max(1, plan->desc.tp * plan->desc.cp));
  // The TP group of every job GPU (ranks count groups of `unit` GPUs: gpuOfRank).
  std::vector<uint32_t> groupOf(c.gpuCount(), UINT32_MAX);
  for (size_t rank = 0; rank < plan->gpuOfRank.size(); ++rank) {
    const uint32_t g = plan->gpuOfRank[rank];
    if (g < groupOf.size()) groupOf[g] = uint32_t(rank / unit);
  }
  for (const Rack& rack : m_racks) {
    if (rack.id >= c.racks) continue;  // a rack the engine does not model
    const uint32_t first = c.firstGpuOfRack({rack.id}).index;
    // Each tray by its first job GPU; consecutive trays of one group make one bar.
    uint32_t group = UINT32_MAX, stage = 0;
    Aabb span;
    auto flush = [&] {
      if (group == UINT32_MAX) return;
      // A slab just in front of the rack's face, a little shorter than its trays (the gap
      // between bars is the cut between TP groups) and most of the rack's width.
      const Aabb bar = frontSlab(rack.face, span);
      out.push_back({bar, stage});
      group = UINT32_MAX;
    };
    for (size_t t = 0; t < rack.face.trays.size(); ++t) {
      uint32_t g = UINT32_MAX, s = 0;
      for (uint32_t k = 0; k < perTray; ++k) {
        const uint32_t gpu = first + uint32_t(t) * perTray + k;
        if (gpu >= c.gpuCount() || plan->stageOfGpu[gpu] == sim::engine::NOT_IN_JOB) continue;
        g = groupOf[gpu], s = plan->stageOfGpu[gpu];
        break;
      }
      if (g != group || rack.face.trays[t].size().y <= 0) flush();
      if (g == UINT32_MAX || rack.face.trays[t].size().y <= 0) continue;
      if (group == UINT32_MAX) span = Aabb{};
      group = g, stage = s;
      span.extend(rack.face.trays[t]);
    }
    flush();
  }
  return out;
}

void StageBands::emit(const std::vector<Bar>& bars, uint32_t stages, const glm::dvec3& eye,
                      std::vector<gpu::Instance>& out) {
  const double last = std::max(1u, stages) - 1;
  for (const Bar& bar : bars) {
    // The overlay's palette at full brightness: its dark purple end would vanish on a black
    // rack, so each hue is lifted until its brightest channel is 1 (the order of hues stays).
    Look look = OverlayTint::lookOf(last > 0 ? bar.stage / last : 0.0);
    const float peak = std::max({look.r, look.g, look.b, 1e-3f});
    look.r /= peak, look.g /= peak, look.b /= peak;
    look.emissive = 1.0f;
    pushBox(bar.box, look, eye, out);
  }
}

std::unique_ptr<LiveLayer> StageBandsLayer::make(const LayerSources& sources) {
  auto layer = std::make_unique<StageBandsLayer>();
  if (sources.racks.rackCount() > 0)
    layer->m_stages = StageBands::build(sources.scene, sources.racks);
  return layer;
}

void StageBandsLayer::sync(const LayerSync& sync) {
  if (sync.generation == m_generation) return;  // a job's placement holds for its whole run
  const sim::engine::Snapshot& snapshot = sync.snapshot;
  m_bars = m_stages.layout(snapshot);
  m_ribbon = m_stages.ribbon(snapshot);
  m_stageCount = snapshot.training ? uint32_t(std::max(1, snapshot.training->desc.pp)) : 0;
  m_generation = sync.generation;
}

void StageBandsLayer::emit(const LayerFrame& frame, std::vector<gpu::Instance>& out) {
  StageBands::emit(m_bars, m_stageCount, frame.view.eye, out);
  StageBands::emit(m_ribbon, m_stageCount, frame.view.eye, out);
}

}  // namespace world
