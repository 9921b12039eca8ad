#version 450
// The high preset's last step: the linear scene plus its bloom, encoded to sRGB into the UNORM
// target (as the low preset's scene shader does directly).
#include "shared/srgb.glsl"

layout(set = 0, binding = 0) uniform sampler2D scene;
layout(set = 0, binding = 1) uniform sampler2D bloom;
layout(push_constant) uniform Push { vec4 params; };  // x: bloom strength

layout(location = 0) in vec2 inUv;
layout(location = 0) out vec4 outColor;

void main() {
  vec3 color = texture(scene, inUv).rgb + params.x * texture(bloom, inUv).rgb;
  outColor = vec4(linearToSrgb(color), 1.0);
}
