#include "world/live/hbm_fill.h"

#include <algorithm>
#include <numeric>

#include "world/live/overlays.h"

namespace world {

HbmStack HbmStack::build(const Scene& scene, const std::string& stackPath) {
  HbmStack layer;
  const auto stack = scene.resolve(stackPath);
  if (!stack) return layer;
  std::vector<std::pair<std::string, std::vector<Aabb>>> dies;
  for (const Part& part : scene.prototype(stack->second).parts) {
    if (part.name.rfind("DRAM die", 0) != 0) continue;
    auto die = std::find_if(dies.begin(), dies.end(),
                            [&](const auto& named) { return named.first == part.name; });
    if (die == dies.end()) die = dies.insert(dies.end(), {part.name, {}});
    die->second.push_back(transformAabb(stack->first, part.bounds));
  }
  std::sort(dies.begin(), dies.end(), [](const auto& a, const auto& b) {
    return a.second.front().min.y < b.second.front().min.y;
  });
  for (auto& die : dies) layer.m_dies.push_back(std::move(die.second));
  return layer;
}

int HbmStack::layerSegment(const HbmFill& fill, size_t i) const {
  const double total = std::accumulate(fill.segments_bytes.begin(), fill.segments_bytes.end(), 0.0);
  if (fill.capacity_bytes <= 0) return -1;
  if (total > fill.capacity_bytes) return -2;
  const double middle_bytes = (double(i) + 0.5) / double(m_dies.size()) * fill.capacity_bytes;
  double below = 0;
  for (size_t k = 0; k < fill.segments_bytes.size(); ++k) {
    below += std::max(0.0, fill.segments_bytes[k]);
    if (middle_bytes < below) return int(k);
  }
  return -1;
}

Look HbmStack::segmentLook(size_t k, size_t n) {
  const Rgb c = srgbToLinear(viridis((double(k) + 0.5) / double(std::max<size_t>(1, n))));
  // Emitted, not painted: the fill glows through the x-ray dark of the stack.
  return Look{c.r, c.g, c.b, 0.7f, 0.2f};
}

double HbmStack::overflowShare(const HbmFill& fill) {
  if (!(fill.capacity_bytes > 0)) return 0.0;
  double total = 0;
  for (double b : fill.segments_bytes) total += std::max(0.0, b);
  return std::max(0.0, total / fill.capacity_bytes - 1.0);
}

void HbmStack::emit(const HbmFill& fill, const glm::dvec3& eye,
                    std::vector<gpu::Instance>& out) const {
  for (size_t i = 0; i < m_dies.size(); ++i) {
    const int segment = layerSegment(fill, i);
    if (segment == -1) continue;  // empty layers keep the die's own look
    const Look look =
        segment == -2 ? OVERFLOW_LOOK : segmentLook(size_t(segment), fill.segments_bytes.size());
    // A skin a little larger than each of the die's boxes in x and z and a little thinner in
    // y, so it covers the die's sides without fighting its faces for depth.
    for (const Aabb& box : m_dies[i]) {
      const glm::dvec3 size = box.size();
      const glm::dvec3 skin(size.x * 1.02, size.y * 0.9, size.z * 1.02);
      out.push_back(makeInstance(boxTransform(box.center(), skin), eye, look));
    }
  }
  const double over = overflowShare(fill);
  if (over <= 0 || m_dies.empty()) return;
  // What does not fit spills out: a red slab on top of the stack as tall as the excess would
  // stand (the stack's DRAM height x the share over capacity), a little wider than the top die
  // and of its shape (a cut-open die keeps its cut), and a pool round the stack's foot.
  Aabb stack;
  size_t topDie = 0;
  for (size_t i = 0; i < m_dies.size(); ++i) {
    Aabb die;
    for (const Aabb& box : m_dies[i]) die.extend(box);
    if (stack.empty() || die.max.y >= stack.max.y) topDie = i;
    stack.extend(die);
  }
  const glm::dvec3 size = stack.size();
  const double spill = std::min(over, MAX_SPILL_SHARE) * size.y;
  const double margin = 0.04 * std::max(size.x, size.z);
  for (const Aabb& box : m_dies[topDie]) {
    const glm::dvec3 top(box.center().x, stack.max.y + 0.5 * spill, box.center().z);
    const glm::dvec3 slab(box.size().x + margin, spill, box.size().z + margin);
    out.push_back(makeInstance(boxTransform(top, slab), eye, OVERFLOW_LOOK));
  }
  const double pool = POOL_SHARE * std::max(size.x, size.z);
  const double foot = stack.min.y + 0.02 * size.y;
  const glm::dvec3 poolSize(size.x + 2 * pool, 0.04 * size.y, size.z + 2 * pool);
  out.push_back(makeInstance(boxTransform({stack.center().x, foot, stack.center().z}, poolSize),
                             eye, OVERFLOW_LOOK));
}

std::unique_ptr<LiveLayer> HbmFillLayer::make(const LayerSources& sources) {
  auto layer = std::make_unique<HbmFillLayer>();
  // The cut-open stack of the hbm station.
  if (const Station* hbm = sources.station("hbm")) {
    layer->m_stack = HbmStack::build(sources.scene, hbm->path);
  }
  return layer;
}

}  // namespace world
