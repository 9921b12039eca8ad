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
  vec4 color;   // linear RGB base colour; a: 1 opaque
  vec4 params;  // x: emissive strength 0..1, y: specular 0..1, z: outline 0/1, w: reserved
  // x: texture layer (0: none), y: alpha cutoff (fragments with alpha below it are discarded;
  // 0: opaque), z: 1 = alpha blend approximated by ordered dithering (no sorting), w: texture wrap
  // modes as wrapS + 4 * wrapT, each 0 repeat, 1 clamp to edge, 2 mirrored repeat (world::Look).
  // The fragment's alpha is color.a times the texture's alpha.
  vec4 material;
};

// Push constants of the scene pass.
struct FrameConstants {
  mat4 viewProj;      // rotation-only view (camera at origin) times reverse-Z infinite projection
  vec4 sunDirection;  // xyz: unit vector towards the sun, world axes; w: ambient strength
  vec4 fogColor;      // rgb linear; a: fog distance in metres at which fog reaches ~63 %
};

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
#define SCENE_INSTANCE_VEC4_COUNT 6
#define SCENE_VERTEX_COLOR_LOCATION 9

#ifdef __cplusplus
static_assert(sizeof(Instance) == 96, "Instance must match the GLSL layout");
static_assert(sizeof(FrameConstants) == 96, "FrameConstants must match the GLSL layout");
static_assert(sizeof(ShadowConstants) == 80, "ShadowConstants must match the GLSL std140 layout");
}  // namespace gpu
#endif

#endif
