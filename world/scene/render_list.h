// The one interface between world/ and renderer/: plain structs and ids, no scene graph, no sim.
// world/ fills a RenderList each frame (already culled, LOD chosen, camera-relative); renderer/
// uploads it and draws it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "shaders/shared/scene.h"

namespace world {

struct MeshId {
  uint32_t index = 0;
  friend bool operator==(MeshId, MeshId) = default;
};

/// One vertex of a mesh: position in the mesh's local frame (metres), unit normal, texture uv,
/// and a linear RGBA colour (glTF COLOR_0, 8-bit unorm) that multiplies the instance's colour.
struct MeshVertex {
  float position[3];
  float normal[3];
  float uv[2];
  uint8_t color[4] = {255, 255, 255, 255};
};
static_assert(sizeof(MeshVertex) == 36);

/// Triangle mesh, indexed. Index values are always < vertices.size() (checked on add()).
struct MeshData {
  std::string name;
  std::vector<MeshVertex> vertices;
  std::vector<uint32_t> indices;
  // Its faces lie on the unit box's (the box, its sides, its front, a top with holes): drawn with
  // the box's edge lines and contact darkening (DrawBatch::boxDetail), found from its local frame.
  bool boxFaces = false;
  uint32_t triangleCount() const { return static_cast<uint32_t>(indices.size() / 3); }
};

/// All meshes the world may draw. The renderer uploads it whole when revision() changes
/// (revisions are unique across every library of the process; 0: empty).
class MeshLibrary {
 public:
  /// Adds a mesh and returns its id; out-of-range indices or a non-multiple-of-3 index count
  /// make it return false and leave the library unchanged.
  bool add(MeshData mesh, MeshId* outId);
  const std::vector<MeshData>& meshes() const { return m_meshes; }
  const MeshData& mesh(MeshId id) const { return m_meshes[id.index]; }
  uint64_t revision() const { return m_revision; }

 private:
  std::vector<MeshData> m_meshes;
  uint64_t m_revision = 0;
};

/// An RGBA8 image (sRGB-encoded colour, linear alpha), rows top to bottom, width*height*4 bytes.
struct TextureImage {
  std::string name;
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint8_t> rgba8;
};

/// The images instances may sample (gpu::Instance::material.x: layer = index + 1; 0 is plain
/// white). The renderer packs them into one 2D array texture (no descriptor indexing needed) and
/// uploads it whole when revision() changes.
class TextureLibrary {
 public:
  /// Adds an image and returns its layer (>= 1); an empty image or a byte count that does not
  /// match width x height x 4 makes it return 0 and leave the library unchanged.
  uint32_t add(TextureImage image);
  const std::vector<TextureImage>& images() const { return m_images; }
  uint64_t revision() const { return m_revision; }

 private:
  std::vector<TextureImage> m_images;
  uint64_t m_revision = 0;
};

/// A run of instances drawn with one mesh: instances[firstInstance, firstInstance+instanceCount).
struct DrawBatch {
  MeshId mesh;
  uint32_t firstInstance = 0;
  uint32_t instanceCount = 0;
  bool alphaTest = false;  // some instance cuts or dithers by alpha (gpu::Instance::material.yz)
  bool textured = false;   // some instance samples a texture layer (gpu::Instance::material.x)
  bool boxDetail = false;  // the unit box: edge lines and contact darkening (params.w flags)
};

/// A text label anchored at a camera-relative point (metres).
struct Label {
  float anchor[3] = {0, 0, 0};
  std::string text;
  uint32_t rgba = 0xffffffffu;  // packed as ImGui's IM_COL32 (R in the low byte)
  float priority = 0;           // larger wins when labels overlap
};

/// What the camera sees, already reduced to float: rotation only (the camera sits at the origin).
struct ViewParams {
  float viewRotation[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};  // column-major
  float verticalFovRadians = 1.0f;
  float nearMeters = 0.1f;  // reverse-Z infinite projection: only the near plane matters
  float sunDirection[3] = {0.4f, 0.8f, 0.45f};  // towards the key light
  float ambient = 0.35f;      // the hemisphere fill (1: unlit, the base colour as it is)
  float keyStrength = 1.0f;   // the warm key (the sun), times (1 - ambient)
  float rimStrength = 0.0f;   // the cool back light on silhouettes
  float edgeStrength = 0.0f;  // box edge lines (instances with DETAIL_EDGES)
  float xrayStrength = 0.0f;  // the x-ray look: box edges drawn in light (chips' floor plans)
  float skyTop[3] = {0.10f, 0.13f, 0.19f};      // linear RGB: the backdrop straight up
  float skyHorizon[3] = {0.30f, 0.34f, 0.40f};  // linear RGB: at the horizon; also the fog
  float fogStartMeters = 1.0e6f;  // fog fades what lies between start and end into the backdrop
  float fogEndMeters = 2.0e6f;
  /// A studio floor under a hero (the backdrop draws it where nothing else is): its height
  /// relative to the eye (metres, < 0 below), the hero's centre and half extent over it (x, z,
  /// camera-relative metres) and the radius of the pool of light round it.
  bool studioFloor = false;
  float floorHeightMeters = 0.0f;
  float heroCenter[2] = {0.0f, 0.0f};
  float heroHalfExtent[2] = {0.0f, 0.0f};
  float poolRadiusMeters = 1.0f;
  /// How far ahead of the camera the high preset's sun casts shadows, d (metres; 0: none): the
  /// shadow map covers a square of half-side d, seen from the sun, centred SHADOW_CENTRE_AHEAD * d
  /// ahead of the camera, with casters up to SHADOW_CASTER_REACH * d towards the sun.
  float shadowDistanceMeters = 0.0f;
  /// The eye's world position along shadowAxes(), modulo 2 * shadowDistanceMeters (metres): the
  /// renderer snaps the map to whole texels of a grid fixed in the world, so shadow edges stay
  /// put while the camera moves (the world keeps the distance a power of two, whose texel size
  /// only changes when the distance does).
  float shadowGridOffset[2] = {0.0f, 0.0f};
};

/// The shadow map's axes across the sun: two unit vectors perpendicular to `sun` (towards the
/// sun, any non-zero length) and to each other; both the world and the renderer use these.
void shadowAxes(const float sun[3], float outX[3], float outY[3]);

inline constexpr float SHADOW_CENTRE_AHEAD = 0.6f;
inline constexpr float SHADOW_CASTER_REACH = 8.0f;

/// A part of the view in Vulkan normalised device coordinates (x right, y down, -1..1 across the
/// whole view): one tile of a still drawn in parts. The default is the whole view.
struct ViewRect {
  float x0 = -1, y0 = -1, x1 = 1, y1 = 1;
};

/// Column-major reverse-Z infinite perspective times the view rotation: camera-relative metres to
/// Vulkan clip space (y down, depth 1 at the near plane, 0 at infinity). `aspect` is the whole
/// view's (width / height); with a `part`, the off-axis projection that stretches that part of
/// the view over the whole clip space (the same camera, the same field of view).
void viewProjection(const ViewParams& view, float aspect, float outColumnMajor[16],
                    const ViewRect& part = {});

struct RenderList {
  ViewParams view;
  uint64_t generation = 0;  // of the simulation the live parts show (World::sync)
  std::vector<gpu::Instance> instances;
  std::vector<DrawBatch> batches;
  std::vector<Label> labels;

  void clear() {
    instances.clear();
    batches.clear();
    labels.clear();
  }
  /// Triangles this list submits, given the meshes it references.
  uint64_t triangleCount(const MeshLibrary& meshes) const;
};

}  // namespace world
