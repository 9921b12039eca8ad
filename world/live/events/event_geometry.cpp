#include "world/live/events/event_geometry.h"

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace world::event_geometry {

std::vector<Aabb> childBounds(const Scene& scene, const std::string& path,
                              const std::string& prefix) {
  std::vector<Aabb> out;
  const auto resolved = scene.resolve(path);
  if (!resolved) return out;
  for (const ChildInstance& child : scene.prototype(resolved->second).children) {
    if (child.name.rfind(prefix, 0) != 0) continue;
    if (auto bounds = scene.worldBounds(path + "/" + child.name)) out.push_back(*bounds);
  }
  return out;
}

glm::dvec3 rackFront(const Scene& scene, const std::string& path) {
  const auto resolved = scene.resolve(path);
  if (!resolved) return {0, 0, 1};
  glm::dvec3 f(resolved->first * glm::dvec4(0, 0, 1, 0));
  f.y = 0;
  return glm::length(f) > 0 ? glm::normalize(f) : glm::dvec3(0, 0, 1);
}

Aabb spanBox(const glm::dvec3& a, const glm::dvec3& b, double thickness) {
  Aabb box;
  box.extend(glm::min(a, b) - glm::dvec3(0.5 * thickness));
  box.extend(glm::max(a, b) + glm::dvec3(0.5 * thickness));
  return box;
}

void pushBox(const Aabb& box, const Look& look, const glm::dvec3& eye,
             std::vector<gpu::Instance>& out) {
  out.push_back(makeInstance(boxTransform(box.center(), box.size()), eye, look));
}

BehindHero behindHero(const Aabb& hero, const glm::dvec3& right, const glm::dvec3& forward) {
  auto snap = [](glm::dvec3 v) {
    return std::abs(v.x) >= std::abs(v.z) ? glm::dvec3(v.x >= 0 ? 1 : -1, 0, 0)
                                          : glm::dvec3(0, 0, v.z >= 0 ? 1 : -1);
  };
  BehindHero b;
  b.across = snap(right), b.away = snap(forward);
  b.width = std::abs(glm::dot(hero.size(), b.across));
  const double far = std::max(glm::dot(hero.min, b.away), glm::dot(hero.max, b.away));
  const glm::dvec3 c = hero.center();
  b.base = c + b.away * (far - glm::dot(c, b.away));
  return b;
}

}  // namespace world::event_geometry
