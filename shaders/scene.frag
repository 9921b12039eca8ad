#version 450
// Soft, readable shading: hemisphere ambient, one sun, a touch of specular, emissive, distance fog.
// The colour target is UNORM, so the shader encodes to sRGB itself (the UI pass then draws
// ImGui's sRGB colours unchanged).
#include "shared/scene.h"

layout(location = 0) in vec3 inWorldOffset;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec4 inColor;
layout(location = 3) flat in vec4 inParams;
layout(location = 4) in vec2 inUv;
layout(location = 5) flat in vec4 inMaterial;

layout(push_constant) uniform Push { FrameConstants frame; };
// Pipeline variants, so that the built-in world pays for neither: the alpha-tested one (without
// it the shader has no discard, which keeps early depth testing on for everything opaque) and
// the textured one (without it no texture coordinates are interpolated or sampled).
layout(constant_id = 0) const bool ALPHA_TEST = false;
layout(constant_id = 1) const bool TEXTURED = false;
// Imported models' base colour images, one per layer; layer 0 is plain white.
layout(set = 0, binding = 0) uniform sampler2DArray baseColorTextures;

layout(location = 0) out vec4 outColor;

vec3 linearToSrgb(vec3 c) {
  c = clamp(c, 0.0, 1.0);
  return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

// 4x4 ordered-dither thresholds (Bayer): alpha blending without sorting.
float ditherThreshold() {
  const float bayer[16] = float[16](0.0, 8.0, 2.0, 10.0, 12.0, 4.0, 14.0, 6.0, 3.0, 11.0, 1.0,
                                    9.0, 15.0, 7.0, 13.0, 5.0);
  ivec2 p = ivec2(gl_FragCoord.xy) & 3;
  return (bayer[p.y * 4 + p.x] + 0.5) / 16.0;
}

void main() {
  vec4 base = inColor;
  if (TEXTURED) {
    // Layer 0 is white, so untextured parts of a textured batch sample plain white.
    base *= texture(baseColorTextures, vec3(inUv, inMaterial.x));
  }
  if (ALPHA_TEST) {
    if (base.a < inMaterial.y) discard;
    if (inMaterial.z > 0.5 && base.a < ditherThreshold()) discard;
  }

  vec3 n = normalize(inNormal);
  float distanceToCamera = length(inWorldOffset);
  vec3 toEye = -inWorldOffset / max(distanceToCamera, 1e-12);
  if (dot(n, toEye) < 0.0) n = -n;  // two-sided lighting for thin parts
  vec3 sun = normalize(frame.sunDirection.xyz);
  float ambient = frame.sunDirection.w;

  float hemi = 0.5 + 0.5 * n.y;  // sky above, ground bounce below
  vec3 color = base.rgb * ambient * mix(0.55, 1.0, hemi);
  color += base.rgb * max(dot(n, sun), 0.0) * (1.0 - ambient);
  vec3 halfway = normalize(sun + toEye);
  // Blinn-Phong with exponent 32 by repeated squaring: software rasterizers pay dearly for pow.
  float spec = max(dot(n, halfway), 0.0);
  spec *= spec;
  spec *= spec;
  spec *= spec;
  spec *= spec;
  spec *= spec;
  color += vec3(inParams.y) * spec;
  color = mix(color, base.rgb, clamp(inParams.x, 0.0, 1.0));  // emissive: full colour, unlit
  float facing = 1.0 - max(dot(n, toEye), 0.0);
  float rim = facing * facing * facing;
  color += inParams.z * rim * vec3(1.0, 0.85, 0.3);  // selection highlight

  float fog = 1.0 - exp(-distanceToCamera / max(frame.fogColor.a, 1e-9));
  color = mix(color, frame.fogColor.rgb, fog);
  outColor = vec4(linearToSrgb(color), 1.0);
}
