// Push constants of the backdrop pass (drawn behind everything, where nothing else was): the
// studio's gradient, and under a hero its dark floor with a pool of light and a soft contact
// shadow. 128 bytes: what every Vulkan device offers.
#ifndef DCWALK_SHADERS_SHARED_SKY_H
#define DCWALK_SHADERS_SHARED_SKY_H

#include "scene.h"

#ifdef __cplusplus
namespace gpu {
#endif

struct SkyConstants {
  vec4 inverseViewRotation[3];  // view space -> world axes: the rotation's columns (xyz)
  // The view ray (view space, before normalising) of the pixel at NDC (x, y) of the target:
  // (x * ray.x + ray.z, -(y * ray.y + ray.w), -1). The whole view: (tan(fovY/2) * aspect,
  // tan(fovY/2), 0, 0); a tile of a still maps its own NDC onto its part of the view.
  vec4 ray;
  vec4 top;      // rgb linear; a: fog start (metres from the eye)
  vec4 horizon;  // rgb linear; a: fog end
  // The studio floor: x, y: the hero's centre over the floor (x, z camera-relative, metres);
  // z, w: its half extent along x and z.
  vec4 hero;
  // x: the floor's height relative to the eye (metres, negative below); y: light pool radius
  // (metres); z: 1 with a studio floor; w: unused.
  vec4 floor;
};

#ifdef __cplusplus
static_assert(sizeof(SkyConstants) == 128, "SkyConstants must match the GLSL layout");
}  // namespace gpu
#endif

#endif
