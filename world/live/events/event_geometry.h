// What the tour's events share (world/live/events/): their meaning colours and the geometry
// helpers they lay out over the scene with.
#pragma once

#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "world/live/overlays.h"
#include "world/scene/render_list.h"
#include "world/scene/scene.h"

namespace world {

namespace event_looks {
// Emitted meaning colours (visual_brief.md), linear RGB.
inline constexpr Look COMPUTE{0.1812f, 0.4851f, 0.0f, 1.0f, 0.0f};   // NVIDIA green #76B900
inline constexpr Look DATA{0.35f, 0.95f, 1.0f, 1.0f, 0.0f};          // cyan, data in flight
inline constexpr Look WAITING{1.0f, 0.45f, 0.02f, 0.9f, 0.0f};       // amber: the bubble
inline constexpr Look HOUSEKEEPING{0.35f, 0.36f, 0.4f, 0.5f, 0.0f};  // grey: the optimizer
inline constexpr Look LOST{1.0f, 0.03f, 0.02f, 1.0f, 0.0f};          // red: faults, stragglers
inline constexpr Look POWER{1.0f, 0.85f, 0.5f, 1.0f, 0.0f};          // warm white: power flowing
inline constexpr Look GHOST{0.12f, 0.13f, 0.16f, 0.35f, 0.0f};       // the peak: pale, dim
}  // namespace event_looks

namespace event_geometry {

// Drawing-only sizes (metres): a line reads as a line at the rack station's framing
// (a 2.2 m rack over ~500 px: ~4.5 mm a pixel), and stands clear of the fronts it runs over.
inline constexpr double LINE_M = 0.012;
inline constexpr double FRONT_CLEARANCE_M = 0.03;

/// The children of the prototype at `path` whose names start with `prefix`, world bounds in
/// the order the prototype lists them.
std::vector<Aabb> childBounds(const Scene& scene, const std::string& path,
                              const std::string& prefix);
/// The horizontal axis the rack at `path` faces (its local +z, where the trays pull out).
glm::dvec3 rackFront(const Scene& scene, const std::string& path);
/// A box spanning `a` to `b` along one axis (the others `thickness`), as world bounds.
Aabb spanBox(const glm::dvec3& a, const glm::dvec3& b, double thickness);
void pushBox(const Aabb& box, const Look& look, const glm::dvec3& eye,
             std::vector<gpu::Instance>& out);

/// Where a row of things stands behind a hero, seen by a view: the view's horizontal axes
/// snapped to the world's (the boxes are axis-aligned), the hero's width across the view, and
/// the middle of its far edge (along `away`) at the hero's centre height.
struct BehindHero {
  glm::dvec3 across{1, 0, 0}, away{0, 0, 1};
  double width = 0;
  glm::dvec3 base{0.0};
};
BehindHero behindHero(const Aabb& hero, const glm::dvec3& right, const glm::dvec3& forward);

/// A rack's compute trays as its front shows them: the trays ("compute_trayN", N = 0 at the top)
/// by number (an empty box where a number is missing), the way they face and where their fronts
/// stand.
struct RackFace {
  std::vector<Aabb> trays;  // world, by tray number
  glm::dvec3 front{0, 0, 1};
  double frontPlane = 0;  // along `front`: the trays' fronts (the nearest, if one is pulled out)
  /// Across the front, left to right as it is seen.
  glm::dvec3 side() const { return glm::normalize(glm::cross(glm::dvec3(0, 1, 0), front)); }
};
/// The face of the rack at `path`; no trays when it has none (an 8-GPU system's chassis).
RackFace rackFace(const Scene& scene, const std::string& path);
/// A light slab just in front of the trays `span` covers: a little shorter than they are (the gap
/// between two slabs) and most of the rack's width.
Aabb frontSlab(const RackFace& face, const Aabb& span);

}  // namespace event_geometry
}  // namespace world
