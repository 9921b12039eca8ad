// Linear light to the sRGB transfer curve (IEC 61966-2-1) and back, for shaders that write (or
// filter) UNORM targets.
#ifndef DCWALK_SHADERS_SHARED_SRGB_GLSL
#define DCWALK_SHADERS_SHARED_SRGB_GLSL

vec3 linearToSrgb(vec3 c) {
  c = clamp(c, 0.0, 1.0);
  return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

// The inverse: an sRGB-encoded value (0..1) back to linear light.
vec3 srgbToLinear(vec3 c) {
  return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), step(vec3(0.04045), c));
}

#endif
