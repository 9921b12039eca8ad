#version 450
// Bloom, upsampling: a 3x3 tent of the smaller level (nine bilinear taps), added onto the level
// above it by the pipeline's additive blend; every level's blur sums into the largest.
layout(set = 0, binding = 0) uniform sampler2D source;
layout(push_constant) uniform Push { vec4 texel; };  // xy: one source texel in uv

layout(location = 0) in vec2 inUv;
layout(location = 0) out vec4 outColor;

void main() {
  vec2 d = texel.xy;
  vec3 sum = 4.0 * texture(source, inUv).rgb;
  sum += 2.0 * (texture(source, inUv + vec2(d.x, 0.0)).rgb + texture(source, inUv - vec2(d.x, 0.0)).rgb +
                texture(source, inUv + vec2(0.0, d.y)).rgb + texture(source, inUv - vec2(0.0, d.y)).rgb);
  sum += texture(source, inUv + d).rgb + texture(source, inUv - d).rgb +
         texture(source, inUv + vec2(d.x, -d.y)).rgb + texture(source, inUv + vec2(-d.x, d.y)).rgb;
  outColor = vec4(sum / 16.0, 1.0);
}
