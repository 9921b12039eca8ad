#version 450
// One tile of a supersampled still into the picture: each picture pixel the box-filtered mean of
// the tile's N x N pixels over it (the viewport is the tile's rectangle of the picture). Averaged
// in linear light: the high preset's float tile is linear (its alpha the bloom weight, averaged
// too); the low preset's UNORM tile holds sRGB, decoded, averaged and encoded again.
#include "shared/srgb.glsl"

layout(set = 0, binding = 0) uniform sampler2D tile;
// x, y: the tile's top-left corner in the picture (pixels); z: N; w: 1 when the tile is sRGB.
layout(push_constant) uniform Push { ivec4 params; };

layout(location = 0) out vec4 outColor;

void main() {
  int n = params.z;
  ivec2 first = (ivec2(gl_FragCoord.xy) - params.xy) * n;
  if (n == 1) {  // the tile as it is (no decoding round trip)
    outColor = texelFetch(tile, first, 0);
    return;
  }
  vec4 sum = vec4(0.0);
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      vec4 c = texelFetch(tile, first + ivec2(x, y), 0);
      if (params.w != 0) c.rgb = srgbToLinear(c.rgb);
      sum += c;
    }
  }
  vec4 mean = sum / float(n * n);
  outColor = params.w != 0 ? vec4(linearToSrgb(mean.rgb), mean.a) : mean;
}
