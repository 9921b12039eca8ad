#include "world/scene/scene.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/gtc/matrix_transform.hpp>

#include "world/scene/procedural_textures.h"

namespace world {
namespace {

// A procedural pattern whose feature period is under this many pixels samples its flat mips,
// the part's own colour (world/scene/procedural_textures.h: flat below two pixels a period).
constexpr double PATTERN_FLAT_PX = 2.0;

constexpr double INF = std::numeric_limits<double>::infinity();
// How strongly an overlay's colour glows along a part's edges (gpu::Instance::glow.a).
constexpr float GLOW_STRENGTH = 0.8f;

const Aabb& unitBounds() {
  static const Aabb unit{glm::dvec3(-0.5), glm::dvec3(0.5)};
  return unit;
}

double pointBoxDistance(const glm::dvec3& p, const Aabb& box) {
  const glm::dvec3 d = glm::max(glm::max(box.min - p, p - box.max), glm::dvec3(0.0));
  return glm::length(d);
}

// Slab test; returns the entry distance (0 when inside) or +inf on a miss.
double rayBox(const glm::dvec3& origin, const glm::dvec3& invDir, const Aabb& box) {
  double t0 = 0.0, t1 = INF;
  for (int i = 0; i < 3; ++i) {
    double a = (box.min[i] - origin[i]) * invDir[i];
    double b = (box.max[i] - origin[i]) * invDir[i];
    if (std::isnan(a) || std::isnan(b)) {  // ray parallel to the slab, origin on its plane
      if (origin[i] < box.min[i] || origin[i] > box.max[i]) return INF;
      continue;
    }
    if (a > b) std::swap(a, b);
    t0 = std::max(t0, a);
    t1 = std::min(t1, b);
    if (t0 > t1) return INF;
  }
  return t0;
}

struct Frustum {
  glm::dvec3 normals[5];  // inward; all planes pass through the eye (camera-relative origin)
};

Frustum makeFrustum(const CullView& v) {
  const double b = 0.5 * v.verticalFov_rad;
  const double a = std::atan(std::tan(b) * v.aspect);
  Frustum f;
  f.normals[0] = v.right * std::cos(a) + v.forward * std::sin(a);
  f.normals[1] = -v.right * std::cos(a) + v.forward * std::sin(a);
  f.normals[2] = -v.up * std::cos(b) + v.forward * std::sin(b);
  f.normals[3] = v.up * std::cos(b) + v.forward * std::sin(b);
  f.normals[4] = v.forward;
  return f;
}

bool sphereVisible(const Frustum& f, const glm::dvec3& center, double radius) {
  for (const glm::dvec3& n : f.normals) {
    if (glm::dot(n, center) < -radius) return false;
  }
  return true;
}

struct CollectWalk {
  const Scene& scene;
  const CullView& view;
  Frustum frustum;
  double focal_px;  // pixels per (radius / distance)
  ProxyMeshes proxies;
  std::vector<std::vector<gpu::Instance>>& out;
  const std::vector<uint32_t>& meshTriangles;
  CollectStats stats;

  uint64_t trianglesOf(MeshId mesh) const {
    return mesh.index < meshTriangles.size() ? meshTriangles[mesh.index] : 0;
  }

  void emit(MeshId mesh, const glm::dmat4& m, const Look& look, const Aabb& worldBox, bool selected,
            const Look* glow = nullptr) {
    if (out.size() <= mesh.index) out.resize(mesh.index + 1);
    out[mesh.index].push_back(makeInstance(look.minWidth_px > 0 ? widened(m, look.minWidth_px) : m,
                                           view.eye, look, glow));
    if (selected) out[mesh.index].back().params.z = 1.0f;
    stats.triangles += trianglesOf(mesh);
    stats.nearestVisible_m = std::min(stats.nearestVisible_m, pointBoxDistance(view.eye, worldBox));
  }

  // `m` with every axis that would cover fewer than `minWidth_px` pixels at its centre's distance
  // scaled up to that (a unit mesh spans 1 along each axis, so a column's length is the size).
  glm::dmat4 widened(const glm::dmat4& m, double minWidth_px) const {
    const double minSize_m = minWidth_px * glm::length(glm::dvec3(m[3]) - view.eye) / focal_px;
    glm::dmat4 out = m;
    for (int axis = 0; axis < 3; ++axis) {
      const double size_m = glm::length(glm::dvec3(m[axis]));
      if (size_m > 0 && size_m < minSize_m) out[axis] *= minSize_m / size_m;
    }
    return out;
  }

  // Projected radius in pixels, or +inf when the eye is inside the sphere.
  double projected(const glm::dvec3& relCenter, double radius) const {
    const double dist = glm::length(relCenter);
    if (dist <= radius) return INF;
    return radius / dist * focal_px;
  }

  // How many leading segments of the selection path the current instance matches: -1 when it
  // left the path, the full count when it lies inside the selection.
  int childMatch(int matched, const std::string& childName) const {
    const int size = static_cast<int>(view.selection.size());
    if (matched < 0 || matched == size) return matched;
    return view.selection[size_t(matched)] == childName ? matched + 1 : -1;
  }

  bool isSelected(int matched) const {
    return !view.selection.empty() && matched == int(view.selection.size());
  }

  int studioMatch(int matched, const ChildInstance& child) const {
    return view.studio.match(matched, child);
  }
  bool studioHides(int studio) const { return StudioFilter::hides(studio); }
  bool studioEncloses(int studio) const { return view.studio.encloses(studio); }

  // In view, or (with sun shadows) able to cast a shadow into it.
  bool kept(const glm::dvec3& rel, double radius) const {
    if (sphereVisible(frustum, rel, radius)) return true;
    if (!view.keepShadowCasters) return false;
    const glm::dvec3 fromCentre = rel - view.casterCentre;
    const double along = std::clamp(glm::dot(fromCentre, view.towardSun), 0.0, view.casterReach_m);
    const glm::dvec3 offAxis = fromCentre - along * view.towardSun;
    const double reach = view.casterRadius_m + radius;
    return glm::dot(offAxis, offAxis) <= reach * reach;
  }

  enum class Fate { Culled, Proxy, Open };

  // judge() within the studio: inside a neighbour, what is closedInContext stays its proxy.
  Fate judgeIn(const Prototype& proto, const glm::dmat4& world, int studio, double& px) {
    const Fate fate = judge(proto, world, px);
    return fate == Fate::Open && proto.lod.closedInContext && view.studio.context(studio)
               ? Fate::Proxy
               : fate;
  }

  // Whether an instance of `proto` under `world` is culled, drawn as its proxy or opened; `px` is
  // its projected radius.
  Fate judge(const Prototype& proto, const glm::dmat4& world, double& px) {
    ++stats.prototypesVisited;
    const Aabb box = transformAabb(world, proto.bounds);
    const glm::dvec3 rel = box.center() - view.eye;
    const double radius = 0.5 * glm::length(box.size());
    px = projected(rel, radius);
    if (view.cull && (!kept(rel, radius) || px < view.minPixels ||
                      pointBoxDistance(view.eye, box) > view.drawDistance_m)) {
      return Fate::Culled;
    }
    if (px < proto.lod.openPixels * view.lodScale) {
      if (proto.lod.hasProxy) return Fate::Proxy;
      if (proto.lod.hiddenWhenSmall) return Fate::Culled;
    }
    if (proto.lod.openSide != glm::vec3(0.0f)) {
      const glm::dvec3 side = glm::dvec3(world * glm::dvec4(glm::dvec3(proto.lod.openSide), 0.0));
      if (glm::dot(rel, side) > 0) return proto.lod.hasProxy ? Fate::Proxy : Fate::Culled;
    }
    return Fate::Open;
  }

  void emitProxy(const Prototype& proto, const glm::dmat4& world, bool selected,
                 uint32_t tintState) {
    const glm::dmat4 m = world * boxTransform(proto.bounds.center(), proto.bounds.size());
    const Look* tint = view.tint ? view.tint->look(tintState, true) : nullptr;
    const Aabb box = transformAabb(world, proto.bounds);
    // The unit box's +Z face turned half round about Y (the back), and a quarter about X (the top).
    static const glm::dmat4 BACK = glm::rotate(glm::dmat4(1.0), M_PI, glm::dvec3(0, 1, 0));
    static const glm::dmat4 TOP = glm::rotate(glm::dmat4(1.0), -M_PI / 2, glm::dvec3(1, 0, 0));
    switch (proto.lod.proxyFaces) {
      case ProxyFaces::Box:
        emit(proxies.box, m, proto.lod.proxyLook, box, selected, tint);
        break;
      case ProxyFaces::EndsAndTop:
        emit(proxies.face, m * TOP, proto.lod.proxyLook, box, selected, tint);
        [[fallthrough]];
      case ProxyFaces::Ends:
        emit(proxies.face, m, proto.lod.proxyLook, box, selected, tint);
        emit(proxies.face, m * BACK, proto.lod.proxyLook, box, selected, tint);
        break;
    }
    ++stats.proxies;
    const Look* partTint = view.tint ? view.tint->look(tintState, false) : nullptr;
    for (const Part& part : proto.lod.farParts) {
      emitPart(part, world, transformAabb(world, part.bounds), selected, partTint);
    }
  }

  // A part under an overlay's `tint`: an indicator lit in its colour, any other part glowing
  // along its edges.
  void emitPart(const Part& part, const glm::dmat4& world, const Aabb& partBox, bool selected,
                const Look* tint) {
    if (tint && part.look.indicator) {
      Look lit = *tint;  // lit in its colour, as wide as the line it lights
      lit.minWidth_px = part.look.minWidth_px;
      emit(part.mesh, world * part.local, lit, partBox, selected);
    } else if (patternIsFlat(part.look, partBox)) {
      // It would sample its pattern's average, its Look's own colour: drawn untextured, in the
      // plain batch (a software rasterizer pays for every texture fetch).
      Look plain = part.look;
      plain.texture = 0;
      plain.textureTile_m = 0.0f;
      emit(part.mesh, world * part.local, plain, partBox, selected, tint);
    } else {
      emit(part.mesh, world * part.local, part.look, partBox, selected, tint);
    }
  }

  // Whether a procedural pattern on a part in `partBox` is flat everywhere on screen: its
  // feature period under PATTERN_FLAT_PX even at the part's nearest point.
  bool patternIsFlat(const Look& look, const Aabb& partBox) const {
    if (look.textureTile_m <= 0.0f || look.texture == 0 || look.texture > PATTERN_COUNT)
      return false;
    const double period_m =
        double(look.textureTile_m) / periodsPerTile(static_cast<Pattern>(look.texture));
    const double nearest_m = pointBoxDistance(view.eye, partBox);
    return nearest_m > 0 && period_m * focal_px / nearest_m < PATTERN_FLAT_PX;
  }

  // Triangles of the proxy box and the parts drawn with it.
  uint64_t proxyCost(const Prototype& proto) const {
    uint64_t n = trianglesOf(proxies.box);  // at most: a proxy of some faces has fewer
    for (const Part& part : proto.lod.farParts) n += trianglesOf(part.mesh);
    return n;
  }

  void emitParts(const Prototype& proto, const glm::dmat4& world, bool selected,
                 uint32_t tintState) {
    const Look* tint = view.tint ? view.tint->look(tintState, false) : nullptr;
    for (const Part& part : proto.parts) {
      const Aabb partBox = transformAabb(world, part.bounds);
      const glm::dvec3 partRel = partBox.center() - view.eye;
      const double partRadius = 0.5 * glm::length(partBox.size());
      const double px = projected(partRel, partRadius);
      if (view.cull && (!kept(partRel, partRadius) || px < view.minPixels ||
                        pointBoxDistance(view.eye, partBox) > view.drawDistance_m)) {
        continue;
      }
      // A part larger than the screen is the backdrop (the board under a die, a hall's floor):
      // an overlay never colours it (issue 22: the utilisation tint flashed the whole frame).
      emitPart(part, world, partBox, selected, px > view.viewportHeight_px ? nullptr : tint);
    }
  }

  bool overBudget() const { return stats.triangles > view.triangleBudget; }

  // The plain walk: depth first, every instance opened that is large enough. It gives up once
  // past the budget (collect then walks again with `BudgetWalk`).
  void visit(PrototypeId id, const glm::dmat4& world, int matched, int studio, uint32_t tintState) {
    if (overBudget() || studioHides(studio)) return;
    const Prototype& proto = scene.prototype(id);
    double px = 0;
    const Fate fate = judgeIn(proto, world, studio, px);
    if (fate == Fate::Culled) return;
    const bool encloses = studioEncloses(studio);
    if (fate == Fate::Proxy) {
      if (!encloses) emitProxy(proto, world, isSelected(matched), tintState);
      return;
    }
    if (!encloses) emitParts(proto, world, isSelected(matched), tintState);
    for (uint32_t i = 0; i < proto.children.size(); ++i) {
      const ChildInstance& child = proto.children[i];
      const uint32_t childTint = view.tint ? view.tint->childState(tintState, id, i) : 0;
      visit(child.prototype, world * child.local, childMatch(matched, child.name),
            studioMatch(studio, child), childTint);
    }
  }
};

// The walk within a triangle budget: instances that would open wait in a heap, largest on screen
// first, and open only while what they may add (their parts and their children's proxies, every
// one counted as if in view) still fits; the rest stay as their proxy. The heap's waiting
// instances count as proxies, so the budget holds whichever way the rest goes.
struct BudgetWalk {
  CollectWalk& walk;
  const std::vector<uint64_t>& openTriangles;  // Scene::m_openTriangles
  const std::vector<uint32_t>& openProxies;    // Scene::m_openProxies
  std::vector<CollectScratch::Candidate>& heap;
  uint64_t waiting = 0;  // what the heap's instances draw as proxies

  // What opening `id` may add at most (its parts, children as proxies or opened without one).
  uint64_t openCost(PrototypeId id, uint64_t proxyTriangles) const {
    if (id.index >= openTriangles.size()) return 0;
    return openTriangles[id.index] + openProxies[id.index] * proxyTriangles;
  }

  static bool smaller(const CollectScratch::Candidate& a, const CollectScratch::Candidate& b) {
    return a.pixels < b.pixels;
  }

  void place(PrototypeId id, const glm::dmat4& world, int matched, int studio, uint32_t tintState) {
    if (walk.studioHides(studio)) return;
    const Prototype& proto = walk.scene.prototype(id);
    double px = 0;
    const CollectWalk::Fate fate = walk.judgeIn(proto, world, studio, px);
    if (fate == CollectWalk::Fate::Culled) return;
    if (fate == CollectWalk::Fate::Proxy) {
      if (!walk.studioEncloses(studio)) {
        walk.emitProxy(proto, world, walk.isSelected(matched), tintState);
      }
    } else if (!proto.lod.hasProxy || walk.studioEncloses(studio)) {
      open(id, world, matched, studio, tintState);  // nothing to hold it back as
    } else {
      heap.push_back({px, id, matched, studio, tintState, world});
      waiting += walk.proxyCost(proto);
      std::push_heap(heap.begin(), heap.end(), smaller);
    }
  }

  void open(PrototypeId id, const glm::dmat4& world, int matched, int studio, uint32_t tintState) {
    const Prototype& proto = walk.scene.prototype(id);
    if (!walk.studioEncloses(studio)) {
      walk.emitParts(proto, world, walk.isSelected(matched), tintState);
    }
    for (uint32_t i = 0; i < proto.children.size(); ++i) {
      const ChildInstance& child = proto.children[i];
      const uint32_t childTint = walk.view.tint ? walk.view.tint->childState(tintState, id, i) : 0;
      place(child.prototype, world * child.local, walk.childMatch(matched, child.name),
            walk.studioMatch(studio, child), childTint);
    }
  }

  void run(PrototypeId root, const glm::dmat4& rootTransform) {
    heap.clear();
    waiting = 0;
    const uint64_t proxyTriangles = walk.trianglesOf(walk.proxies.box);
    place(root, rootTransform, 0, 0, 0);
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), smaller);
      const CollectScratch::Candidate next = heap.back();
      heap.pop_back();
      waiting -= walk.proxyCost(walk.scene.prototype(next.prototype));
      if (walk.stats.triangles + waiting + openCost(next.prototype, proxyTriangles) <=
          walk.view.triangleBudget) {
        open(next.prototype, next.world, next.matched, next.studio, next.tintState);
      } else {
        walk.emitProxy(walk.scene.prototype(next.prototype), next.world,
                       walk.isSelected(next.matched), next.tintState);
        ++walk.stats.heldBack;
      }
    }
  }
};

struct PickWalk {
  const Scene& scene;
  glm::dvec3 origin;
  glm::dvec3 invDir;
  const StudioFilter* studio;  // nullptr: everything
  double best = INF;
  std::vector<const std::string*> stack;
  std::optional<PickHit> hit;

  void visit(PrototypeId id, const glm::dmat4& world, int studioState) {
    if (StudioFilter::hides(studioState)) return;
    const Prototype& proto = scene.prototype(id);
    // A stand-in model is not in its parent's bounds (computeBounds): a ray that misses them may
    // still meet it, so models are tried on their own bounds.
    const bool inBounds = rayBox(origin, invDir, transformAabb(world, proto.bounds)) < best;
    const bool encloses = studio && studio->encloses(studioState);
    for (const Part& part : proto.parts) {
      if (encloses || !inBounds) break;  // not drawn, so not hit; or missed
      const Aabb partBox = transformAabb(world, part.bounds);
      const double t = rayBox(origin, invDir, partBox);
      if (t < best) {
        best = t;
        PickHit h;
        for (size_t i = 0; i < stack.size(); ++i) h.path += (i ? "/" : "") + *stack[i];
        h.part = part.name;
        h.distance_m = t;
        h.worldBounds = partBox;
        hit = std::move(h);
      }
    }
    for (const ChildInstance& child : proto.children) {
      if (!inBounds && child.standIn != StandIn::Model) continue;
      stack.push_back(&child.name);
      visit(child.prototype, world * child.local,
            studio ? studio->match(studioState, child)
                   : (StudioFilter::shown(child, "") ? studioState : -1));
      stack.pop_back();
    }
  }
};

struct NearestWalk {
  const Scene& scene;
  glm::dvec3 point;
  double best = INF;

  void visit(PrototypeId id, const glm::dmat4& world) {
    const Prototype& proto = scene.prototype(id);
    if (pointBoxDistance(point, transformAabb(world, proto.bounds)) >= best) return;
    for (const Part& part : proto.parts) {
      best = std::min(best, pointBoxDistance(point, transformAabb(world, part.bounds)));
    }
    for (const ChildInstance& child : proto.children) visit(child.prototype, world * child.local);
  }
};

}  // namespace

Aabb transformAabb(const glm::dmat4& m, const Aabb& box) {
  if (box.empty()) return box;
  // Arvo's method: centre moves by the full matrix, half-extents by |rotation-scale|.
  const glm::dvec3 c = box.center();
  const glm::dvec3 h = 0.5 * box.size();
  glm::dvec3 newCenter = glm::dvec3(m * glm::dvec4(c, 1.0));
  glm::dvec3 newHalf(0.0);
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 3; ++col) newHalf[row] += std::abs(m[col][row]) * h[col];
  }
  return Aabb{newCenter - newHalf, newCenter + newHalf};
}

glm::dmat4 boxTransform(const glm::dvec3& center, const glm::dvec3& size) {
  glm::dmat4 m(1.0);
  m[0][0] = size.x;
  m[1][1] = size.y;
  m[2][2] = size.z;
  m[3] = glm::dvec4(center, 1.0);
  return m;
}

Part boxPart(MeshId mesh, const glm::dvec3& center, const glm::dvec3& size, Look look,
             std::string name) {
  Part part;
  part.mesh = mesh;
  part.local = boxTransform(center, size);
  part.look = look;
  part.name = std::move(name);
  return part;
}

ChildInstance placeChild(PrototypeId prototype, const glm::dvec3& offset, std::string name,
                         double yaw_rad) {
  ChildInstance child;
  child.prototype = prototype;
  child.local = glm::rotate(glm::translate(glm::dmat4(1.0), offset), yaw_rad, glm::dvec3(0, 1, 0));
  child.name = std::move(name);
  return child;
}

void Scene::setMeshBounds(MeshId mesh, const Aabb& bounds) {
  if (m_meshBounds.size() <= mesh.index) m_meshBounds.resize(mesh.index + 1, unitBounds());
  m_meshBounds[mesh.index] = bounds;
}

const Aabb& Scene::meshBounds(MeshId mesh) const {
  return mesh.index < m_meshBounds.size() ? m_meshBounds[mesh.index] : unitBounds();
}

void Scene::countTriangles(const MeshLibrary& meshes) {
  m_meshTriangles.clear();
  for (const MeshData& mesh : meshes.meshes()) m_meshTriangles.push_back(mesh.triangleCount());
  const size_t count = m_prototypes.size();
  m_openTriangles.assign(count, 0);
  m_openProxies.assign(count, 0);
  m_fullTriangles.assign(count, 0);
  // Children usually come before their parents (add), but replaceContents may point anywhere:
  // each prototype is counted once, after its children.
  std::vector<uint8_t> counted(count, 0);
  auto countOne = [&](auto& self, uint32_t index) -> void {
    if (counted[index]) return;
    counted[index] = 1;
    const Prototype& proto = m_prototypes[index];
    uint64_t parts = 0;
    for (const Part& part : proto.parts) {
      parts += part.mesh.index < m_meshTriangles.size() ? m_meshTriangles[part.mesh.index] : 0;
    }
    uint64_t open = parts, full = parts;
    uint32_t proxies = 0;
    for (const ChildInstance& child : proto.children) {
      const uint32_t c = child.prototype.index;
      self(self, c);
      full += m_fullTriangles[c];
      if (m_prototypes[c].lod.hasProxy) {
        ++proxies;
        for (const Part& far : m_prototypes[c].lod.farParts) {
          open += far.mesh.index < m_meshTriangles.size() ? m_meshTriangles[far.mesh.index] : 0;
        }
      } else {
        open += m_openTriangles[c];
        proxies += m_openProxies[c];
      }
    }
    m_openTriangles[index] = open;
    m_openProxies[index] = proxies;
    m_fullTriangles[index] = full;
  };
  for (uint32_t i = 0; i < count; ++i) countOne(countOne, i);
}

uint64_t Scene::fullTriangles(PrototypeId id) const {
  return id.index < m_fullTriangles.size() ? m_fullTriangles[id.index] : 0;
}

void Scene::computeBounds(Prototype& prototype) const {
  Aabb bounds;
  for (Part& part : prototype.parts) {
    part.bounds = transformAabb(part.local, meshBounds(part.mesh));
    bounds.extend(part.bounds);
  }
  // Not in the bounds: a far part stands just proud of the proxy box, which hides what lies in it.
  for (Part& part : prototype.lod.farParts)
    part.bounds = transformAabb(part.local, meshBounds(part.mesh));
  for (const ChildInstance& child : prototype.children) {
    if (child.standIn == StandIn::Model) continue;  // drawn where its parent is open, if at all
    bounds.extend(transformAabb(child.local, m_prototypes[child.prototype.index].bounds));
  }
  prototype.bounds = bounds;
}

PrototypeId Scene::add(Prototype prototype) {
  computeBounds(prototype);
  m_prototypes.push_back(std::move(prototype));
  return PrototypeId{static_cast<uint32_t>(m_prototypes.size() - 1)};
}

void Scene::replaceContents(PrototypeId id, Prototype contents) {
  Prototype& target = m_prototypes[id.index];
  target.parts = std::move(contents.parts);
  target.children = std::move(contents.children);
  computeBounds(target);
}

void Scene::setPartLook(PrototypeId id, uint32_t part, const Look& look) {
  if (id.index >= m_prototypes.size() || part >= m_prototypes[id.index].parts.size()) return;
  m_prototypes[id.index].parts[part].look = look;
}

void Scene::setProxyLook(PrototypeId id, const Look& look) {
  if (id.index < m_prototypes.size()) m_prototypes[id.index].lod.proxyLook = look;
}

void Scene::setRoot(PrototypeId root, const glm::dmat4& rootTransform) {
  m_root = root;
  m_rootTransform = rootTransform;
}

std::optional<std::pair<glm::dmat4, PrototypeId>> Scene::resolve(const std::string& path) const {
  if (m_prototypes.empty()) return std::nullopt;
  glm::dmat4 world = m_rootTransform;
  PrototypeId id = m_root;
  size_t start = 0;
  while (start < path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    const std::string name = path.substr(start, end - start);
    const Prototype& proto = prototype(id);
    auto it = std::find_if(proto.children.begin(), proto.children.end(),
                           [&](const ChildInstance& c) { return c.name == name; });
    if (it == proto.children.end()) return std::nullopt;
    world = world * it->local;
    id = it->prototype;
    start = end + 1;
  }
  return std::make_pair(world, id);
}

std::optional<Aabb> Scene::worldBounds(const std::string& path) const {
  auto found = resolve(path);
  if (!found) return std::nullopt;
  return transformAabb(found->first, prototype(found->second).bounds);
}

CollectStats Scene::collect(const CullView& view, const ProxyMeshes& proxies,
                            std::vector<std::vector<gpu::Instance>>& perMesh,
                            CollectScratch* scratch) const {
  if (m_prototypes.empty()) return {};
  const double focal = 0.5 * view.viewportHeight_px / std::tan(0.5 * view.verticalFov_rad);
  CollectWalk walk{*this, view, makeFrustum(view), focal, proxies, perMesh, m_meshTriangles, {}};
  const bool budgeted = view.triangleBudget != UINT64_MAX;
  CollectScratch local;
  CollectScratch& buffers = scratch ? *scratch : local;
  if (budgeted) {
    buffers.bucketSizes.clear();
    for (const auto& bucket : perMesh) buffers.bucketSizes.push_back(bucket.size());
  }
  walk.visit(m_root, m_rootTransform, 0, 0, 0);
  if (!walk.overBudget()) return walk.stats;

  // Over budget: take back what the plain walk emitted and walk again, largest first.
  for (size_t mesh = 0; mesh < perMesh.size(); ++mesh) {
    perMesh[mesh].resize(mesh < buffers.bucketSizes.size() ? buffers.bucketSizes[mesh] : 0);
  }
  const uint32_t visited = walk.stats.prototypesVisited;
  walk.stats = {};
  walk.stats.prototypesVisited = visited;
  BudgetWalk budget{walk, m_openTriangles, m_openProxies, buffers.heap};
  budget.run(m_root, m_rootTransform);
  return walk.stats;
}

std::optional<PickHit> Scene::pick(const glm::dvec3& origin, const glm::dvec3& direction,
                                   const StudioFilter* studio) const {
  if (m_prototypes.empty() || glm::length(direction) == 0.0) return std::nullopt;
  const glm::dvec3 dir = glm::normalize(direction);
  PickWalk walk{*this, origin, 1.0 / dir, studio, INF, {}, std::nullopt};
  walk.visit(m_root, m_rootTransform, 0);
  return walk.hit;
}

double Scene::nearestSurfaceDistance(const glm::dvec3& point) const {
  if (m_prototypes.empty()) return INF;
  NearestWalk walk{*this, point, INF};
  walk.visit(m_root, m_rootTransform);
  return walk.best;
}

gpu::Instance makeInstance(const glm::dmat4& m, const glm::dvec3& eye, const Look& look,
                           const Look* glow) {
  gpu::Instance inst;
  // glm is column-major: m[column][row]. Translation is made camera-relative in double first.
  const glm::dvec3 t = glm::dvec3(m[3]) - eye;
  inst.row0 = {float(m[0][0]), float(m[1][0]), float(m[2][0]), float(t.x)};
  inst.row1 = {float(m[0][1]), float(m[1][1]), float(m[2][1]), float(t.y)};
  inst.row2 = {float(m[0][2]), float(m[1][2]), float(m[2][2]), float(t.z)};
  inst.color = {look.r, look.g, look.b, look.alpha};
  inst.params = {look.emissive, packSurface(finishSpec(look.finish, look.specular)), 0.0f,
                 float(look.detail)};
  inst.material = {
      float(look.texture), look.alphaCutoff, look.alphaBlend ? 1.0f : 0.0f,
      look.textureTile_m > 0.0f ? -look.textureTile_m : float(look.wrapS + 4 * look.wrapT)};
  inst.glow = glow ? gpu::vec4{glow->r, glow->g, glow->b, GLOW_STRENGTH} : gpu::vec4{0, 0, 0, 0};
  return inst;
}

}  // namespace world
