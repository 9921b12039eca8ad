// The world as nested prototypes: a prototype is a group of parts (a mesh with a transform and a
// look) plus child instances of other prototypes. A hall of racks is one rack prototype
// instanced many times; only what the camera is close to is expanded. Positions are double
// metres; the render list gets camera-relative floats.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "world/scene/finish.h"
#include "world/scene/render_list.h"

namespace world {

struct PrototypeId {
  uint32_t index = 0;
  friend bool operator==(PrototypeId, PrototypeId) = default;
};

/// Axis-aligned box in double metres.
struct Aabb {
  glm::dvec3 min{1e300};
  glm::dvec3 max{-1e300};
  bool empty() const { return min.x > max.x; }
  glm::dvec3 center() const { return 0.5 * (min + max); }
  glm::dvec3 size() const { return max - min; }
  void extend(const glm::dvec3& p) {
    min = glm::min(min, p);
    max = glm::max(max, p);
  }
  void extend(const Aabb& b) {
    if (!b.empty()) {
      extend(b.min);
      extend(b.max);
    }
  }
};

/// The box that holds `box` after the affine transform `m`.
Aabb transformAabb(const glm::dmat4& m, const Aabb& box);

/// How a part looks: linear RGB colour, emissive 0..1, specular 0..1 (the gloss of a Plain
/// finish; world/scene/finish.h); imported models add a texture (a TextureLibrary layer, 0: none),
/// glTF's alpha modes and the texture's wrap modes (gpu::Instance::material).
struct Look {
  float r = 0.6f, g = 0.6f, b = 0.6f;
  float emissive = 0.0f;
  float specular = 0.2f;
  uint32_t texture = 0;
  float alpha = 1.0f;        // multiplies the texture's alpha
  float alphaCutoff = 0.0f;  // alpha below it is cut away (glTF MASK); 0: opaque
  bool alphaBlend = false;   // glTF BLEND, drawn as ordered dithering (no sorting needed)
  uint8_t wrapS = 0;         // texture wrap along u: 0 repeat, 1 clamp to edge, 2 mirrored repeat
  uint8_t wrapT = 0;         // along v, the same codes
  // Box details (gpu::Instance params.w, shaders/shared/scene.h): 1 edge lines, 2 contact
  // darkening at the foot of vertical faces; only the unit box draws them.
  uint8_t detail = 3;
  // An indicator (a status LED line, a bezel light): an overlay lights it in the metric's colour.
  // Every other part of a coloured instance keeps its finish and only its edges glow.
  bool indicator = false;
  // A procedural texture (world/scene/procedural_textures.h) is laid on the faces, one tile per
  // textureTile_m metres, instead of read at the mesh's uv (0: the mesh's uv, the wrap modes).
  float textureTile_m = 0.0f;
  // A light line or cable thinner than this on screen is drawn this wide (pixels, each thin axis
  // widened about its centre): below a pixel it would break into dashes. 0: true size always.
  float minWidth_px = 0.0f;
  // What it is made of: the roughness and metalness the shader lights it with.
  Finish finish = Finish::Plain;
};

/// `look` made of `finish`: how the palette gives each part its material class.
constexpr Look finished(Look look, Finish finish) {
  look.finish = finish;
  return look;
}

struct Part {
  MeshId mesh;
  glm::dmat4 local{1.0};  // unit mesh -> prototype frame (includes the size scale)
  Look look;
  std::string name;
  Aabb bounds;  // in the prototype frame
};

/// A stand-in is a drawing made for one station's studio (the hbm station's stack, its height
/// exaggerated and a quadrant cut away; the package station's cold plate, lifted off) that takes
/// the place of the true-scale instance it stands for there and nowhere else, so the world stays
/// true-scale and nested everywhere else. Each drawing has a name (ChildInstance::standInDrawing)
/// and a studio shows the drawings it names (StudioFilter::standIns), so one package can carry
/// the drawings of two stations and each station shows its own.
enum class StandIn : uint8_t {
  None,      // drawn as usual
  Replaced,  // the true-scale instance a stand-in takes the place of: hidden where it shows
  Model,     // the stand-in: drawn only where the studio names its drawing
};

struct ChildInstance {
  PrototypeId prototype;
  glm::dmat4 local{1.0};  // child frame -> parent frame (rigid: rotation + translation)
  std::string name;
  // A stand-in model's bounds are not its parent's: the parent keeps its true-scale bounds
  // (framing, studios, what encloses what), and the model is only drawn where its parent is open.
  StandIn standIn = StandIn::None;
  // The drawing this stand-in is (Model) or makes way for (Replaced): "cutaway_hbm0".
  std::string standInDrawing;
};

/// The faces of its bounding box a proxy draws (prototype frame: +Z is its front).
enum class ProxyFaces {
  Box,         // every face
  Ends,        // its front and back alone: a tray in its rack slot, between side panels and trays
  EndsAndTop,  // front, back and top: a rack in a row, between its neighbours, seen from above
};

/// How a prototype is drawn when it is too small on screen to expand.
struct LodDesc {
  bool hasProxy = true;      // draw its bounds as one box when small
  float openPixels = 40.0f;  // projected bounding radius (px) above which it expands
  // Without a proxy, it opens with its parent at any size; with this, below openPixels nothing
  // is drawn at all (detail that only reads near, as a tray's fibres: a row of racks of them would
  // be 150,000 triangles of sub-pixel cables).
  bool hiddenWhenSmall = false;
  // Non-zero: its detail faces this way (prototype frame), and it opens only when the eye is
  // on that side of its centre (a rack's back from the front aisle stays closed).
  glm::vec3 openSide{0.0f};
  Look proxyLook;
  // Which faces of its box the proxy draws (ProxyFaces): for what is packed among its like, whose
  // hidden faces would cost a software rasterizer more than the faces that show (llvmpipe shades
  // every 4x4 block a front-facing triangle touches, hidden or not).
  ProxyFaces proxyFaces = ProxyFaces::Box;
  // Inside a station's neighbour (StudioFilter::context) it stays its proxy: a rack in the rows
  // behind the row station's hero, hidden by it but for its top. Opened, those rows drew 40 racks'
  // frames and trays, most of the row's fragment-shader invocations.
  bool closedInContext = false;
  // Parts drawn with the proxy box (prototype frame): what must still read while it is too small
  // to open, as the lit LED line of a compute tray seen from the row. Cheap: a box or two, just
  // proud of the proxy box (outside the prototype's bounds: the box would hide them).
  std::vector<Part> farParts;
};

struct Prototype {
  std::string name;
  std::string component;  // key an asset override file may replace it by ("" : none; builders.h)
  std::vector<Part> parts;
  std::vector<ChildInstance> children;
  LodDesc lod;
  Aabb bounds;  // parts and children, prototype frame
};

/// A hit of a ray pick: the path of instance names from the root ("hall0/row3/rack2/..."), the
/// part's name and the distance along the ray (metres).
struct PickHit {
  std::string path;
  std::string part;
  double distance_m = 0;
  Aabb worldBounds;  // of the part hit
};

/// Colours instances by what they are during collect (the live overlays). Each instance has a
/// state derived from its parent's state and its child slot (the root's state is 0), so the walk
/// never looks at names.
class TintRule {
 public:
  virtual ~TintRule() = default;
  /// State of child number `child` of prototype `parent`, whose instance is in `parentState`.
  virtual uint32_t childState(uint32_t parentState, PrototypeId parent, uint32_t child) const = 0;
  /// The metric's look for an instance in `state` (nullptr: none): its indicator parts take it
  /// as light; its other parts, and its proxy box when `proxy`, keep their finish and glow in
  /// its colour along their edges.
  virtual const Look* look(uint32_t state, bool proxy) const = 0;
};

/// The studio around a hero: the instance at `path` is drawn in full, the instances on the way
/// down to it (what it sits in) draw none of their own parts, and of what lies beside that way
/// only the hero's siblings that `neighbours` names are drawn: space-separated words, each a
/// whole name or, ending in '*', a name prefix ("rack*": the other racks of its row; "rack0
/// rack1": a cabinet's two systems and no other; "" none). An empty path shows everything.
/// Walks track where they are with match().
struct StudioFilter {
  std::vector<std::string> path;
  std::string neighbours;
  // The stand-in drawings shown, which take the place of what they stand for (StandIn): names
  // as `neighbours` has them ("cutaway_hbm0"; "" none).
  std::string standIns;

  /// Whether `neighbours` names `name`.
  static bool names(const std::string& neighbours, const std::string& name) {
    for (size_t begin = 0; begin < neighbours.size();) {
      size_t end = neighbours.find(' ', begin);
      if (end == std::string::npos) end = neighbours.size();
      const bool prefix = end > begin && neighbours[end - 1] == '*';
      const size_t length = end - begin - (prefix ? 1 : 0);
      if (length > 0 && (prefix ? name.size() >= length : name.size() == length) &&
          name.compare(0, length, neighbours, begin, length) == 0) {
        return true;
      }
      begin = end + 1;
    }
    return false;
  }

  /// Where a child named `name` of an instance in state `matched` is: -1 beside the way to the
  /// hero (hidden), 0..size-1 on the way (encloses it), size at or inside the hero, size + 1 a
  /// neighbour, size + 2 inside a neighbour (context(): drawn as its proxy).
  int match(int matched, const std::string& name) const {
    const int size = static_cast<int>(path.size());
    if (matched < 0 || matched == size) return matched;
    if (matched > size) return size + 2;
    if (path[size_t(matched)] == name) return matched + 1;
    const bool neighbour = matched == size - 1 && names(neighbours, name);
    return neighbour ? size + 1 : -1;
  }
  /// Whether an instance in `state` lies inside a neighbour: context around the hero, where a
  /// prototype with LodDesc::closedInContext stays its proxy.
  bool context(int state) const { return state == static_cast<int>(path.size()) + 2; }
  /// match() for `child`, which a stand-in rule may hide as well (-1).
  int match(int matched, const ChildInstance& child) const {
    return shown(child, standIns) ? match(matched, child.name) : -1;
  }
  /// Whether `child` is drawn where the stand-in drawings `standIns` names show.
  static bool shown(const ChildInstance& child, const std::string& standIns) {
    return child.standIn == StandIn::None ||
           (child.standIn == StandIn::Model) == names(standIns, child.standInDrawing);
  }
  static bool hides(int state) { return state < 0; }
  bool encloses(int state) const { return state >= 0 && state < int(path.size()); }
};

/// The meshes proxies are drawn with: the unit box, and its +Z face alone (turned to each face a
/// LodDesc::proxyFaces other than Box draws).
struct ProxyMeshes {
  MeshId box;
  MeshId face;
};

/// Per-frame inputs of the LOD/culling walk.
struct CullView {
  glm::dvec3 eye{0.0};
  glm::dvec3 forward{0, 0, -1}, right{1, 0, 0}, up{0, 1, 0};  // orthonormal
  double verticalFov_rad = 1.0;
  double aspect = 16.0 / 9.0;
  double viewportHeight_px = 720;
  double minPixels = 0.75;  // anything smaller is dropped
  double lodScale = 1.0;    // > 1 expands later (coarser)
  bool cull = true;  // false: no frustum or small-object culling (the benchmark's naive baseline)
  // Triangles the walk may emit (by Scene::countTriangles' counts). When expanding everything
  // that is large enough would go over it, the prototypes largest on screen open first and the
  // rest stay as their proxy box.
  uint64_t triangleBudget = UINT64_MAX;
  // Sun shadows (the high preset): what lies outside the view is kept too when it may cast a
  // shadow into it, i.e. when it touches the capsule from `casterCentre` (eye-relative) for
  // `casterReach_m` towards the sun with radius `casterRadius_m`.
  bool keepShadowCasters = false;
  glm::dvec3 casterCentre{0.0};
  glm::dvec3 towardSun{0, 1, 0};  // unit
  double casterRadius_m = 0;
  double casterReach_m = 0;
  std::vector<std::string> selection;  // instance path segments to outline (empty: none)
  const TintRule* tint = nullptr;      // overlay colours (nullptr: every part its own look)
  StudioFilter studio;                 // what of the scene this view draws
  // Nothing farther than this from the eye is drawn (the fog has swallowed it), metres.
  double drawDistance_m = INF_DISTANCE;
  static constexpr double INF_DISTANCE = 1e300;
};

struct CollectStats {
  uint32_t prototypesVisited = 0;  // by both walks when the budget took a second one
  uint32_t proxies = 0;
  uint32_t heldBack = 0;            // proxies drawn only to stay within CullView::triangleBudget
  uint64_t triangles = 0;           // emitted (Scene::countTriangles' mesh counts)
  double nearestVisible_m = 1e300;  // closest emitted geometry (box distance from the eye)
};

/// Buffers the budgeted walk reuses from frame to frame (the caller keeps one per scene view).
struct CollectScratch {
  struct Candidate {
    double pixels;  // projected bounding radius: larger opens first
    PrototypeId prototype;
    int matched;  // selection path segments matched
    int studio;   // studio path segments matched (-1: beside the way to the hero)
    uint32_t tintState;
    glm::dmat4 world;
  };
  std::vector<Candidate> heap;
  std::vector<size_t> bucketSizes;
};

class Scene {
 public:
  /// Adds a prototype (its children must already exist); computes its bounds.
  PrototypeId add(Prototype prototype);
  /// Gives prototype `id` the parts and children of `contents` (name, component and LOD kept).
  /// The new contents must fit in the old bounds: the bounds of its parents are not recomputed.
  void replaceContents(PrototypeId id, Prototype contents);
  /// Changes the look of part `part` of prototype `id` (every instance of it); ignored when out
  /// of range. For parts that show live state (world/live/compute_glow.h).
  void setPartLook(PrototypeId id, uint32_t part, const Look& look);
  /// Changes the look of prototype `id`'s proxy box (what stands for it when small).
  void setProxyLook(PrototypeId id, const Look& look);
  /// Marks the root that collect/pick/nearest walk from.
  void setRoot(PrototypeId root, const glm::dmat4& rootTransform = glm::dmat4(1.0));
  const Prototype& prototype(PrototypeId id) const { return m_prototypes[id.index]; }
  size_t prototypeCount() const { return m_prototypes.size(); }
  PrototypeId root() const { return m_root; }
  const glm::dmat4& rootTransform() const { return m_rootTransform; }
  /// Registers a mesh's local bounds (defaults to the unit cube for unknown ids).
  void setMeshBounds(MeshId mesh, const Aabb& bounds);
  const Aabb& meshBounds(MeshId mesh) const;
  /// Records every mesh's triangle count and what opening each prototype costs, for collect's
  /// triangle budget. Call once the scene is built (later adds and replacements count 0).
  void countTriangles(const MeshLibrary& meshes);
  /// Triangles prototype `id` draws when opened with every descendant opened too (full detail,
  /// nothing culled), as of the last countTriangles.
  uint64_t fullTriangles(PrototypeId id) const;

  /// Finds an instance by its slash-separated path of child names from the root (empty path =
  /// root); returns its world transform and prototype.
  std::optional<std::pair<glm::dmat4, PrototypeId>> resolve(const std::string& path) const;
  /// World-space bounds of the instance at `path`, if it exists.
  std::optional<Aabb> worldBounds(const std::string& path) const;

  /// Culls and picks LOD for `view`, appending camera-relative instances per mesh into
  /// `perMesh` (indexed by MeshId). Proxies use `proxies`. Within view.triangleBudget the
  /// result is the plain walk's; over it, a second walk opens the largest on screen first
  /// (`scratch` holds its buffers; nullptr: allocated per call).
  CollectStats collect(const CullView& view, const ProxyMeshes& proxies,
                       std::vector<std::vector<gpu::Instance>>& perMesh,
                       CollectScratch* scratch = nullptr) const;
  /// Nearest part (full detail) hit by the ray, if any, of what `studio` shows (nullptr: of
  /// everything). `direction` need not be unit length.
  std::optional<PickHit> pick(const glm::dvec3& origin, const glm::dvec3& direction,
                              const StudioFilter* studio = nullptr) const;
  /// Distance from `point` to the nearest part's box (full detail), or +inf when empty.
  double nearestSurfaceDistance(const glm::dvec3& point) const;

 private:
  std::vector<Prototype> m_prototypes;
  std::vector<Aabb> m_meshBounds;
  // Per mesh and per prototype, from countTriangles. Opening a prototype one level adds its
  // parts' triangles plus, per child, a proxy box or (a child without one opens with it) the
  // child's own opening.
  std::vector<uint32_t> m_meshTriangles;
  std::vector<uint64_t> m_openTriangles;  // parts, the proxy-less children's included
  std::vector<uint32_t> m_openProxies;    // proxy boxes of children, so opened
  std::vector<uint64_t> m_fullTriangles;  // everything below opened too
  PrototypeId m_root;
  glm::dmat4 m_rootTransform{1.0};

  /// Part bounds and the prototype's bounds from its parts and children.
  void computeBounds(Prototype& prototype) const;
};

/// The GPU instance of a unit mesh under world transform `m`, its translation made relative to
/// the camera at `eye` (in double, then float), with light along its edges of `glow` (linear RGB
/// and strength; nullptr: none).
gpu::Instance makeInstance(const glm::dmat4& m, const glm::dvec3& eye, const Look& look,
                           const Look* glow = nullptr);
/// translate(center) * scale(size): a unit mesh made into an axis-aligned box.
glm::dmat4 boxTransform(const glm::dvec3& center, const glm::dvec3& size);
/// Part helper: a box of `size` (metres) centred at `center` in the prototype frame.
Part boxPart(MeshId mesh, const glm::dvec3& center, const glm::dvec3& size, Look look,
             std::string name);
/// A child placed at `offset`, rotated by `yaw_rad` about +Y.
ChildInstance placeChild(PrototypeId prototype, const glm::dvec3& offset, std::string name,
                         double yaw_rad = 0.0);

}  // namespace world
