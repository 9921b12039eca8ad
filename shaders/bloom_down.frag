#version 450
// Bloom, downsampling: a 4x4-texel box of the source (four bilinear taps) into one texel of a
// target half its size. The first step (PREFILTER) reads the scene, whose alpha says how much of
// each pixel glows (emissive parts only), so lit surfaces however bright never bloom.
layout(constant_id = 0) const bool PREFILTER = false;
layout(set = 0, binding = 0) uniform sampler2D source;
layout(push_constant) uniform Push { vec4 texel; };  // xy: one source texel in uv

layout(location = 0) in vec2 inUv;
layout(location = 0) out vec4 outColor;

vec3 tap(vec2 uv) {
  vec4 c = texture(source, uv);
  return PREFILTER ? c.rgb * c.a : c.rgb;
}

void main() {
  vec2 d = texel.xy;
  vec3 sum = tap(inUv + vec2(-d.x, -d.y)) + tap(inUv + vec2(d.x, -d.y)) +
             tap(inUv + vec2(-d.x, d.y)) + tap(inUv + vec2(d.x, d.y));
  outColor = vec4(0.25 * sum, 1.0);
}
