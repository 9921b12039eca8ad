// Push constants of the sky pass (a full-screen gradient behind everything).
#ifndef DCWALK_SHADERS_SHARED_SKY_H
#define DCWALK_SHADERS_SHARED_SKY_H

#include "scene.h"

#ifdef __cplusplus
namespace gpu {
#endif

struct SkyConstants {
  mat4 inverseViewRotation;  // view space -> world axes
  vec4 projection;           // x: tan(fovY/2), y: aspect (w/h)
  vec4 top;                  // linear RGB
  vec4 horizon;              // linear RGB
};

#ifdef __cplusplus
static_assert(sizeof(SkyConstants) == 112, "SkyConstants must match the GLSL layout");
}  // namespace gpu
#endif

#endif
