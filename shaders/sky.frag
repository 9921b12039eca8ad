#version 450
#include "shared/sky.h"
#include "shared/srgb.glsl"

// The high preset draws into a linear target (its composite encodes); the low one encodes here.
layout(constant_id = 0) const bool LINEAR_OUTPUT = false;

layout(location = 0) in vec2 inNdc;
layout(push_constant) uniform Push { SkyConstants sky; };
layout(location = 0) out vec4 outColor;

void main() {
  // Vulkan NDC has y down; view space has y up and looks down -z.
  vec3 viewRay = vec3(inNdc.x * sky.projection.x * sky.projection.y, -inNdc.y * sky.projection.x, -1.0);
  vec3 worldRay = normalize((sky.inverseViewRotation * vec4(viewRay, 0.0)).xyz);
  float up = clamp(worldRay.y, -1.0, 1.0);
  vec3 color = up >= 0.0 ? mix(sky.horizon.rgb, sky.top.rgb, pow(up, 0.6))
                         : sky.horizon.rgb * mix(1.0, 0.55, min(-up * 4.0, 1.0));
  // Alpha 0: the sky never blooms.
  outColor = LINEAR_OUTPUT ? vec4(color, 0.0) : vec4(linearToSrgb(color), 1.0);
}
