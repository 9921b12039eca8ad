#version 450
// The sun's shadow map: instanced meshes, depth only, through the light's orthographic clip.
#include "shared/scene.h"

layout(location = 0) in vec3 inPosition;
layout(location = 3) in vec4 instRow0;
layout(location = 4) in vec4 instRow1;
layout(location = 5) in vec4 instRow2;
layout(location = 7) in vec4 instParams;

layout(push_constant) uniform Push { mat4 lightClip; };

void main() {
  vec4 p = vec4(inPosition, 1.0);
  vec3 relative = vec3(dot(instRow0, p), dot(instRow1, p), dot(instRow2, p));
  gl_Position = lightClip * vec4(relative, 1.0);
  // Fully emissive parts (traffic particles, LEDs, coolant dashes) are light, not matter: they
  // cast no shadow. Sending them outside the clip volume drops them before rasterization.
  if (instParams.x >= 0.99) gl_Position = vec4(0.0, 0.0, -2.0, 1.0);
}
