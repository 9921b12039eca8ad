#version 450
// The backdrop, drawn where nothing else was: the studio's gradient, and with a studio floor a
// dark ground plane under the hero (found by intersecting the view ray with it), lit by a pool
// of light round the hero and darkened by a soft contact shadow of its footprint, fading into
// the backdrop with the same fog as the scene.
#include "shared/backdrop.glsl"
#include "shared/sky.h"
#include "shared/srgb.glsl"

// The high preset draws into a linear target (its composite encodes); the low one encodes here.
layout(constant_id = 0) const bool LINEAR_OUTPUT = false;

layout(location = 0) in vec2 inNdc;
layout(push_constant) uniform Push { SkyConstants sky; };
layout(location = 0) out vec4 outColor;

void main() {
  // Vulkan NDC has y down; view space has y up and looks down -z.
  vec3 viewRay = vec3(inNdc.x * sky.ray.x + sky.ray.z, -(inNdc.y * sky.ray.y + sky.ray.w), -1.0);
  mat3 toWorld = mat3(sky.inverseViewRotation[0].xyz, sky.inverseViewRotation[1].xyz,
                      sky.inverseViewRotation[2].xyz);
  vec3 ray = normalize(toWorld * viewRay);
  vec3 color = backdropColor(ray, sky.top.rgb, sky.horizon.rgb);
  float floorY = sky.floor.x;
  if (sky.floor.z > 0.5 && ray.y < -1e-4 && floorY < 0.0) {
    float t = floorY / ray.y;  // distance along the ray to the floor
    vec2 p = ray.xz * t;       // camera-relative floor point
    vec2 fromHero = p - sky.hero.xy;
    // A pool of light round the hero, falling off with distance.
    float pool = exp(-dot(fromHero, fromHero) / max(sky.floor.y * sky.floor.y, 1e-12));
    vec3 floorColor = sky.horizon.rgb * (0.35 + 1.1 * pool);
    // The contact shadow: the footprint, a little larger, with soft edges.
    vec2 half_ = max(sky.hero.zw, vec2(1e-9));
    vec2 q = abs(fromHero) / half_;
    float inside = max(q.x, q.y);
    float shadow = 1.0 - smoothstep(0.9, 1.35, inside);
    floorColor *= 1.0 - 0.75 * shadow;
    float fog = fogAmount(t, sky.top.a, sky.horizon.a);
    color = mix(floorColor, color, fog);
  }
  // Alpha 0: the backdrop never blooms.
  outColor = LINEAR_OUTPUT ? vec4(color, 0.0) : vec4(linearToSrgb(color), 1.0);
}
