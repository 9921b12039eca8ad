#include "world/live/events/phases.h"

#include <algorithm>
#include <cmath>

namespace world {

using namespace event_geometry;

DiePhases DiePhases::build(const Scene& scene, const std::string& packagePath) {
  DiePhases p;
  p.m_streams = HbmStream::perDie(scene, packagePath);
  return p;
}

Aabb DiePhases::slab(size_t i, double tensor) const {
  const double share = std::isfinite(tensor) ? std::clamp(tensor, 0.0, 1.0) : 0.0;
  if (i >= m_streams.size() || share <= 0) return {};
  const Aabb& die = m_streams[i].die();
  Aabb box;
  box.extend(glm::dvec3(die.min.x, die.max.y, die.max.z - share * (die.max.z - die.min.z)));
  box.extend(glm::dvec3(die.max.x, die.max.y + SLAB_M, die.max.z));
  return box;
}

void DiePhases::emit(const std::vector<DiePhase>& phases, double time_s, const glm::dvec3& eye,
                     std::vector<gpu::Instance>& out) const {
  for (size_t i = 0; i < m_streams.size() && i < phases.size(); ++i) {
    // The die's top is the phase's meter: green as far as the tensor cores are busy, the rest
    // covered dim (the engine's own glow underneath is another workload's).
    const Aabb lit = slab(i, phases[i].shares.tensor);
    Aabb rest = slab(i, 1.0);
    if (!lit.empty()) rest.max.z = lit.min.z;
    if (!lit.empty()) pushBox(lit, event_looks::COMPUTE, eye, out);
    if (rest.max.z > rest.min.z) pushBox(rest, event_looks::GHOST, eye, out);
    m_streams[i].emit(phases[i].shares.hbm, time_s, eye, out);
  }
}

std::unique_ptr<LiveLayer> PhasesLayer::make(const LayerSources& sources) {
  auto layer = std::make_unique<PhasesLayer>();
  if (const Station* s = sources.station("package"))
    layer->m_phases = DiePhases::build(sources.scene, s->path);
  return layer;
}

void PhasesLayer::emit(const LayerFrame& frame, std::vector<gpu::Instance>& out) {
  m_placed.clear();
  const std::vector<DiePhase>& phases = frame.inputs.phases;
  m_phases.emit(phases, frame.inputs.eventTime_s, frame.view.eye, out);
  for (size_t i = 0; i < m_phases.dies() && i < phases.size(); ++i)
    m_placed.emplace_back(labelPoint(m_phases.die(i).die()), phases[i].label);
}

}  // namespace world
