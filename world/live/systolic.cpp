#include "world/live/systolic.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace world {

SystolicWave SystolicWave::build(const Scene& scene, const std::string& diePath) {
  SystolicWave wave;
  for (int i = 0;; ++i) {
    const auto mxu = scene.resolve(diePath + "/mxu" + std::to_string(i));
    if (!mxu) break;
    wave.m_mxus.push_back({mxu->first, scene.prototype(mxu->second).bounds});
  }
  return wave;
}

double SystolicWave::front(double time_s) {
  const double pass = std::fmod(std::max(0.0, time_s), PASS_S) / PASS_S;
  return 2.0 * pass;
}

double SystolicWave::frontLength(double front) {
  return std::sqrt(2.0) * std::clamp(std::min(front, 2.0 - front), 0.0, 1.0);
}

void SystolicWave::emit(double time_s, const glm::dvec3& eye,
                        std::vector<gpu::Instance>& out) const {
  const double f = front(time_s);
  const double length = frontLength(f);
  if (length <= 0) return;
  const Look glow{1.0f, 0.85f, 0.35f, 1.0f, 0.0f};
  for (const Mxu& mxu : m_mxus) {
    const glm::dvec3 size = mxu.bounds.size();
    const double edge = std::min(size.x, size.z);
    // The front's middle lies on the main diagonal at u = v = f / 2, from the (-x, -z) corner.
    const glm::dvec3 centre(mxu.bounds.min.x + 0.5 * f * edge, mxu.bounds.max.y + size.y,
                            mxu.bounds.min.z + 0.5 * f * edge);
    glm::dmat4 local = glm::translate(glm::dmat4(1.0), centre);
    local = glm::rotate(local, glm::radians(45.0), glm::dvec3(0, 1, 0));  // along (1, 0, -1)
    local = glm::scale(local, glm::dvec3(length * edge, size.y, edge / 30.0));
    out.push_back(makeInstance(mxu.transform * local, eye, glow));
  }
}

std::unique_ptr<LiveLayer> SystolicLayer::make(const LayerSources& sources) {
  auto layer = std::make_unique<SystolicLayer>();
  if (const Station* tpu = sources.station("tpu")) {
    layer->m_wave = SystolicWave::build(sources.scene, tpu->path);
  }
  return layer;
}

}  // namespace world
