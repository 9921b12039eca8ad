// Structs shared by C++ and GLSL for the scene pass. Valid as both languages: C++ sees plain
// float structs with static_asserted sizes; GLSL sees its own vec4/mat4.
#ifndef DCWALK_SHADERS_SHARED_SCENE_H
#define DCWALK_SHADERS_SHARED_SCENE_H

#ifdef __cplusplus
#include <cstdint>
namespace gpu {
struct vec4 {
  float x, y, z, w;
};
struct mat4 {
  vec4 columns[4];
};
#endif

// Per-instance data, fed as instance-rate vertex attributes (locations 3..8 of scene.vert).
// The model matrix is stored as three rows of a 3x4 affine transform whose translation is
// already relative to the camera (metres), so it fits in float at any distance from the origin.
struct Instance {
  vec4 row0;
  vec4 row1;
  vec4 row2;
  vec4 color;  // linear RGB base colour; a: 1 opaque
  // x: emissive strength 0..1, y: the finish (world::packSurface: 0 no specular; else metalness
  // in quarters + 8 for a thin film, plus the roughness as the fraction), z: outline 0/1,
  // w: detail flags (DETAIL_*)
  vec4 params;
  // x: texture layer (0: none), y: alpha cutoff (fragments with alpha below it are discarded;
  // 0: opaque), z: 1 = alpha blend approximated by ordered dithering (no sorting), w: texture wrap
  // modes as wrapS + 4 * wrapT, each 0 repeat, 1 clamp to edge, 2 mirrored repeat (world::Look);
  // w < 0: a procedural texture laid on the faces, one tile per -w metres (a modulation whose
  // mean is 0.5, doubled). The fragment's alpha is color.a times the texture's alpha.
  vec4 material;
  // Light along the box's edges (or, on other meshes, its silhouette): rgb linear, a strength
  // 0..1. What the overlays show a metric with: light on the part, not paint over it.
  vec4 glow;
};

// Push constants of the scene pass (128 bytes: what every Vulkan device offers).
struct FrameConstants {
  mat4 viewProj;      // rotation-only view (camera at origin) times reverse-Z infinite projection
  vec4 sunDirection;  // xyz: unit vector towards the key light (the sun), world; w: fill strength
  vec4 backdropTop;   // rgb linear: the backdrop straight up; a: fog start (metres from the eye)
  vec4 backdropHorizon;  // rgb linear: the backdrop at the horizon (and the fog); a: fog end
  // x: rim light strength, y: key light strength, z: edge line strength, w: the x-ray look's
  // luminous edge lines (chips: the floor plan drawn in light), 0 none.
  vec4 lights;
};

// Instance detail flags (params.w, summed): what the fragment shader adds to a unit box.
#define DETAIL_EDGES 1.0   // lines of constant pixel width along the box's edges
#define DETAIL_GROUND 2.0  // darker towards the bottom of its vertical faces (contact shadow)

// The sun's shadow map (the high preset; set 1, binding 1 of the scene pass). lightClip takes a
// camera-relative point (metres) to the shadow pass's clip space: x, y in -1..1 across the map,
// z in 0..1 with 0 nearest the sun.
struct ShadowConstants {
  mat4 lightClip;
  // x: normal offset of the lookup (metres), y: depth bias, z: one texel in map uv, w: 1 when a
  // shadow map was drawn this frame, 0 when every point is lit.
  vec4 params;
};

#define SCENE_INSTANCE_FIRST_LOCATION 3
#define SCENE_INSTANCE_VEC4_COUNT 7
#define SCENE_VERTEX_COLOR_LOCATION 10

#ifdef __cplusplus
static_assert(sizeof(Instance) == 112, "Instance must match the GLSL layout");
static_assert(sizeof(FrameConstants) == 128, "FrameConstants must match the GLSL layout");
static_assert(sizeof(ShadowConstants) == 80, "ShadowConstants must match the GLSL std140 layout");
}  // namespace gpu
#endif

#endif
