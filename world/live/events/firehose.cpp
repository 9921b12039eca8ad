#include "world/live/events/firehose.h"

#include "world/live/calm.h"
#include "world/live/compute_glow.h"

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace world {

using namespace event_geometry;

HbmStream HbmStream::build(const Scene& scene, const std::string& packagePath) {
  HbmStream s;
  const std::vector<Aabb> dies = childBounds(scene, packagePath, "die");
  if (dies.empty()) return s;
  for (const Aabb& d : dies) s.m_die.extend(d);
  s.m_stacks = childBounds(scene, packagePath, "hbm");
  return s;
}

std::vector<HbmStream> HbmStream::perDie(const Scene& scene, const std::string& packagePath) {
  std::vector<HbmStream> out;
  const std::vector<Aabb> dies = childBounds(scene, packagePath, "die");
  for (const Aabb& d : dies) out.emplace_back().m_die = d;
  for (const Aabb& stack : childBounds(scene, packagePath, "hbm")) {
    size_t nearest = 0;
    for (size_t i = 1; i < dies.size(); ++i) {
      if (glm::length(dies[i].center() - stack.center()) <
          glm::length(dies[nearest].center() - stack.center()))
        nearest = i;
    }
    if (!out.empty()) out[nearest].m_stacks.push_back(stack);
  }
  return out;
}

uint32_t HbmStream::lanes(double share) {
  if (!(share > 0)) return 0;
  return std::max<uint32_t>(1, uint32_t(std::lround(std::min(share, 1.0) * MAX_LANES)));
}

void HbmStream::emit(double share, double time_s, const glm::dvec3& eye,
                     std::vector<gpu::Instance>& out) const {
  const uint32_t n = lanes(share);
  if (n == 0 || m_die.empty()) return;
  const double t = std::isfinite(time_s) ? std::max(0.0, time_s) : 0.0;
  for (const Aabb& stack : m_stacks) {
    // From the stack's centre to the die's edge facing it, over the package's top.
    const glm::dvec3 from(stack.center().x, stack.max.y, stack.center().z);
    const glm::dvec3 edge(std::clamp(from.x, m_die.min.x, m_die.max.x), m_die.max.y,
                          std::clamp(from.z, m_die.min.z, m_die.max.z));
    const glm::dvec3 run = edge - from;
    const double length = glm::length(glm::dvec3(run.x, 0, run.z));
    if (length <= 0) continue;
    const glm::dvec3 across = glm::normalize(glm::dvec3(-run.z, 0, run.x));
    const glm::dvec3 size = stack.size();
    const double span = 0.8 * std::min(size.x, size.z);  // the lanes fill the stack's face
    const double particle = std::max(0.08 * span, 0.035 * length);
    for (uint32_t lane = 0; lane < n; ++lane) {
      const double offset = (double(lane) + 0.5) / n - 0.5;
      for (uint32_t k = 0; k < PARTICLES_PER_LANE; ++k) {
        // Lanes start out of step so the stream reads as a flow, not rows of soldiers.
        const double phase = std::fmod(t / PASS_S + (k + 0.37 * lane) / PARTICLES_PER_LANE, 1.0);
        const glm::dvec3 c =
            from + run * phase + across * (offset * span) + glm::dvec3(0, 0.5 * particle, 0);
        Aabb box;
        box.extend(c - glm::dvec3(0.5 * particle));
        box.extend(c + glm::dvec3(0.5 * particle));
        pushBox(box, event_looks::DATA, eye, out);
      }
    }
  }
}

std::unique_ptr<LiveLayer> FirehoseLayer::make(const LayerSources& sources) {
  auto layer = std::make_unique<FirehoseLayer>();
  for (const char* name : {"package", "gh100"}) {
    if (const Station* s = sources.station(name)) {
      HbmStream stream = HbmStream::build(sources.scene, s->path);
      if (stream.stacks() > 0) layer->m_streams.push_back(std::move(stream));
    }
  }
  if (const HeroGpu* gpu = sources.stationGpu()) layer->m_hero = *gpu;
  return layer;
}

void FirehoseLayer::sync(const LayerSync& sync) {
  if (!m_hero) return;
  if (const auto shares = heroGpuShares(sync.snapshot, *m_hero)) {
    m_hbmShare = slewTowards(m_hbmShare, shares->hbm, sync.calm.maxStep());
  }
}

void FirehoseLayer::emit(const LayerFrame& frame, std::vector<gpu::Instance>& out) {
  const double share = frame.inputs.compute ? frame.inputs.compute->hbm : m_hbmShare;
  for (const HbmStream& s : m_streams) s.emit(share, frame.inputs.eventTime_s, frame.view.eye, out);
}

}  // namespace world
