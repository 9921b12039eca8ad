// The backdrop seen along a world direction: a gradient from the horizon colour up to the top
// colour, and below the horizon a darker band (the far floor). The scene's fog fades into the
// same colour, so what recedes dissolves into the backdrop instead of into a flat grey.
#ifndef DCWALK_SHADERS_SHARED_BACKDROP_GLSL
#define DCWALK_SHADERS_SHARED_BACKDROP_GLSL

vec3 backdropColor(vec3 dir, vec3 top, vec3 horizon) {
  float up = clamp(dir.y, -1.0, 1.0);
  // sqrt instead of pow: software rasterizers pay dearly for pow.
  return up >= 0.0 ? mix(horizon, top, sqrt(up)) : horizon * mix(1.0, 0.45, min(-up * 3.0, 1.0));
}

// Linear fog between `start` and `end` metres, smoothed at both ends.
float fogAmount(float distance, float start, float end) {
  return smoothstep(start, max(end, start + 1e-6), distance);
}

#endif
