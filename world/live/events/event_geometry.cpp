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

RackFace rackFace(const Scene& scene, const std::string& path) {
  RackFace face;
  const auto resolved = scene.resolve(path);
  if (!resolved) return face;
  const std::string prefix = "compute_tray";
  for (const ChildInstance& child : scene.prototype(resolved->second).children) {
    if (child.name.rfind(prefix, 0) != 0) continue;
    const std::string digits = child.name.substr(prefix.size());
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const size_t number = std::stoul(digits);
    const auto bounds = scene.worldBounds(path + "/" + child.name);
    if (!bounds || number >= 256) continue;
    if (face.trays.size() <= number) face.trays.resize(number + 1);
    face.trays[number] = *bounds;
  }
  if (face.trays.empty()) return face;
  face.front = rackFront(scene, path);
  // The trays' fronts are flush but for a tray pulled out (the hero rack's): the nearest.
  face.frontPlane = 1e300;
  for (const Aabb& tray : face.trays) {
    if (tray.empty()) continue;
    face.frontPlane = std::min(
        face.frontPlane, std::max(glm::dot(tray.min, face.front), glm::dot(tray.max, face.front)));
  }
  return face;
}

Aabb frontSlab(const RackFace& face, const Aabb& span) {
  const double depth0 = face.frontPlane + FRONT_CLEARANCE_M;
  const glm::dvec3 side = face.side();
  const double s0 = std::min(glm::dot(span.min, side), glm::dot(span.max, side));
  const double s1 = std::max(glm::dot(span.min, side), glm::dot(span.max, side));
  const double inset = 0.1 * (s1 - s0), gap = 0.15 * (span.max.y - span.min.y);
  Aabb bar;
  for (double at : {s0 + inset, s1 - inset})
    for (double y : {span.min.y + 0.5 * gap, span.max.y - 0.5 * gap})
      bar.extend(face.front * depth0 + side * at + glm::dvec3(0, y, 0));
  bar.extend(face.front * (depth0 + LINE_M) + side * (s0 + inset) +
             glm::dvec3(0, span.min.y + 0.5 * gap, 0));
  return bar;
}

}  // namespace world::event_geometry
