// Linear light to the sRGB transfer curve (IEC 61966-2-1), for shaders that write UNORM targets.
#ifndef DCWALK_SHADERS_SHARED_SRGB_GLSL
#define DCWALK_SHADERS_SHARED_SRGB_GLSL

vec3 linearToSrgb(vec3 c) {
  c = clamp(c, 0.0, 1.0);
  return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

#endif
