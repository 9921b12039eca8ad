#version 450
// "Black box, lit from within": a product-shot light setup in one pass — a warm key (the sun), a
// dim hemisphere fill, a cool rim on the silhouettes — each part's finish (roughness, metalness:
// a GGX highlight of the key and the studio environment by reflection), emissive light for
// meaning, lines of constant pixel width along box edges, contact darkening at the foot of
// vertical faces, and fog into the backdrop's own colour.
// The low preset writes the UNORM target directly, so the shader encodes to sRGB itself (the UI
// pass then draws ImGui's sRGB colours unchanged). The high preset adds the sun's shadow and
// writes linear colour with a bloom weight in alpha to a float target, which its composite
// blurs, adds and encodes.
#include "shared/backdrop.glsl"
#include "shared/scene.h"
#include "shared/srgb.glsl"

layout(location = 0) in vec3 inWorldOffset;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec4 inColor;
layout(location = 3) flat in vec4 inParams;
layout(location = 4) in vec2 inUv;
layout(location = 5) flat in vec4 inMaterial;
layout(location = 6) in vec3 inLocal;
layout(location = 7) flat in vec4 inGlow;

layout(push_constant) uniform Push { FrameConstants frame; };
// Pipeline variants, so that the built-in world pays for neither: the alpha-tested one (without
// it the shader has no discard, which keeps early depth testing on for everything opaque) and
// the textured one (without it no texture coordinates are interpolated or sampled).
layout(constant_id = 0) const bool ALPHA_TEST = false;
layout(constant_id = 1) const bool TEXTURED = false;
// The preset: sun shadows from the shadow map, and linear output with a bloom weight.
layout(constant_id = 2) const bool SHADOWS = false;
layout(constant_id = 3) const bool LINEAR_OUTPUT = false;
// The device compares depth with nearest taps only (lavapipe): blend four of them by hand.
layout(constant_id = 4) const bool SHADOW_MANUAL_BILINEAR = false;
// Box details (edge lines, contact darkening): the batches of the unit box; other meshes skip
// the derivatives they need.
layout(constant_id = 5) const bool BOX_DETAIL = false;
// Target pixels per picture pixel along each axis: a supersampled still draws at N times its
// size, so lines and fades measured in pixels are measured in the picture's (N target pixels).
layout(constant_id = 6) const float SUPERSAMPLE = 1.0;
// Layer 0 is plain white, then the procedural textures, then imported models' base colour images.
layout(set = 0, binding = 0) uniform sampler2DArray baseColorTextures;
layout(set = 1, binding = 0) uniform sampler2DShadow shadowMap;
layout(set = 1, binding = 1) uniform ShadowBlock { ShadowConstants shadow; };

layout(location = 0) out vec4 outColor;

// Emissive strength where bloom starts, and where it is full: heat-map tints (0.6) never bloom;
// traffic, LEDs and coolant dashes (1.0) do.
const float BLOOM_FROM_EMISSIVE = 0.6;

// 4x4 ordered-dither thresholds (Bayer): alpha blending without sorting.
float ditherThreshold() {
  const float bayer[16] = float[16](0.0, 8.0, 2.0, 10.0, 12.0, 4.0, 14.0, 6.0, 3.0, 11.0, 1.0,
                                    9.0, 15.0, 7.0, 13.0, 5.0);
  ivec2 p = ivec2(gl_FragCoord.xy) & 3;
  return (bayer[p.y * 4 + p.x] + 0.5) / 16.0;
}

// glTF's wrap modes on one coordinate (material.w = wrapS + 4 * wrapT): 0 repeat (the
// sampler's own), 1 clamp to the edge texels, 2 mirrored repeat.
float wrapCoordinate(float x, uint mode, float layerSize) {
  if (mode == 1u) return clamp(x, 0.5 / layerSize, 1.0 - 0.5 / layerSize);
  if (mode == 2u) {
    float m = mod(x, 2.0);
    return m > 1.0 ? 2.0 - m : m;
  }
  return x;
}

// How much of the sun reaches a point: 1 lit, 0 in shadow; bilinear compares at four offsets
// soften the edge (one bilinear compare made by hand where the device has only nearest ones).
// Outside the map (and fading towards its rim) everything is lit.
float sunVisibility(vec3 offset, vec3 n) {
  vec4 clip = shadow.lightClip * vec4(offset + n * shadow.params.x, 1.0);
  float rim = max(abs(clip.x), abs(clip.y));
  if (shadow.params.w < 0.5 || rim >= 1.0 || clip.z <= 0.0 || clip.z >= 1.0) return 1.0;
  vec2 uv = clip.xy * 0.5 + 0.5;
  float reference = clip.z - shadow.params.y;
  float t = shadow.params.z;
  float lit;
  if (SHADOW_MANUAL_BILINEAR) {
    vec2 texel = uv / t - 0.5;  // in texels, from the first texel's centre
    vec2 f = fract(texel);
    vec2 corner = (floor(texel) + 0.5) * t;
    float a = texture(shadowMap, vec3(corner, reference));
    float b = texture(shadowMap, vec3(corner + vec2(t, 0.0), reference));
    float c = texture(shadowMap, vec3(corner + vec2(0.0, t), reference));
    float d = texture(shadowMap, vec3(corner + vec2(t, t), reference));
    lit = mix(mix(a, b, f.x), mix(c, d, f.x), f.y);
  } else {
    lit = 0.25 * (texture(shadowMap, vec3(uv + vec2(-t, -t), reference)) +
                  texture(shadowMap, vec3(uv + vec2(t, -t), reference)) +
                  texture(shadowMap, vec3(uv + vec2(-t, t), reference)) +
                  texture(shadowMap, vec3(uv + vec2(t, t), reference)));
  }
  return mix(lit, 1.0, smoothstep(0.85, 1.0, rim));
}

// The studio a reflection sees (not the dark backdrop behind the hero: a product photographer's
// soft boxes): bright overhead, a dim band at the horizon, the floor's faint warm bounce below.
// Rough surfaces see it blurred: the transitions widen towards the hemisphere's average.
vec3 studioEnvironment(vec3 r, float roughness) {
  const vec3 TOP = vec3(0.55, 0.58, 0.65);
  const vec3 HORIZON = vec3(0.2, 0.21, 0.24);
  const vec3 GROUND = vec3(0.07, 0.062, 0.055);
  float s = clamp(r.y / (0.3 + 1.2 * roughness), -1.0, 1.0);
  vec3 sharp = s >= 0.0 ? mix(HORIZON, TOP, s) : mix(HORIZON, GROUND, min(-2.0 * s, 1.0));
  return mix(sharp, 0.3 * (TOP + GROUND), roughness * roughness);
}

void main() {
  vec4 base = inColor;
  float glint = 1.0;  // scales the specular: a hole or a gap between cells does not reflect
  if (TEXTURED && inMaterial.w < 0.0) {
    // A procedural texture: a modulation of mean 0.5, doubled. Gradients doubled too: a feature
    // k texels wide is flat from the mip where it is one texel, so it has faded to the part's
    // own colour once its period is below two pixels (procedural_textures.h).
    vec3 modulation = 2.0 * textureGrad(baseColorTextures, vec3(inUv, inMaterial.x),
                                        2.0 * dFdx(inUv), 2.0 * dFdy(inUv)).rgb;
    base.rgb *= modulation;
    glint = dot(modulation, vec3(1.0 / 3.0));
  } else if (TEXTURED) {
    // Layer 0 is white, so untextured parts of a textured batch sample plain white.
    uint wrap = uint(inMaterial.w);
    float layerSize = float(textureSize(baseColorTextures, 0).x);
    vec2 uv = vec2(wrapCoordinate(inUv.x, wrap & 3u, layerSize),
                   wrapCoordinate(inUv.y, (wrap >> 2u) & 3u, layerSize));
    // Gradients of the unwrapped coordinates: no mip jump where a mirror or clamp folds them.
    base *= textureGrad(baseColorTextures, vec3(uv, inMaterial.x), dFdx(inUv), dFdy(inUv));
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
  float fill = frame.sunDirection.w;
  float sunlight = SHADOWS ? sunVisibility(inWorldOffset, n) : 1.0;

  // The part's finish (world/scene/finish.h): 0 none; else metalness in quarters + 8 for a thin
  // film, plus the roughness as the fraction.
  float surface = inParams.y;
  bool specular = surface > 0.0;
  float whole = floor(surface);
  float roughness = surface - whole;
  float metalness = mod(whole, 8.0) * 0.25;
  vec3 diffuse = base.rgb * (1.0 - metalness);
  vec3 f0 = mix(vec3(0.04), base.rgb, metalness);
  float nv = max(dot(n, toEye), 1e-3);
  // Thin film (silicon's oxide and passivation): the environment's reflection turns its hue with
  // the angle, violet to gold to green, as a die shot's does.
  vec3 film = whole >= 8.0 ? 1.0 + 0.35 * cos(6.2832 * (2.5 * nv + vec3(0.0, 0.33, 0.67)))
                           : vec3(1.0);

  // Fill: a dim hemisphere, the backdrop's cool light from above and a darker ground below.
  float hemi = 0.5 + 0.5 * n.y;
  vec3 color = diffuse * fill * mix(0.45, 1.0, hemi);
  // Key: the warm sun.
  const vec3 KEY = vec3(1.0, 0.94, 0.86);
  float key = frame.lights.y * (1.0 - fill);
  float nl = max(dot(n, sun), 0.0);
  color += diffuse * KEY * (nl * key * sunlight);
  if (specular) {
    // The key's highlight: GGX distribution, Kelemen's visibility, Schlick's Fresnel; the key's
    // irradiance is pi * key in this shader's units (the diffuse term has no 1 / pi). The key is
    // a soft box, not a point: its highlight is never sharper than roughness 0.5's, so that
    // broad flats catch a soft sheen rather than a blown-out spot.
    vec3 halfway = normalize(sun + toEye);
    float keyRoughness = max(roughness, 0.5);
    float a = keyRoughness * keyRoughness;
    float a2 = a * a;
    float nh = max(dot(n, halfway), 0.0);
    float d = nh * nh * (a2 - 1.0) + 1.0;
    float lh = max(dot(sun, halfway), 0.0);
    float f = 1.0 - lh;
    float f2 = f * f;
    vec3 fresnel = f0 + (1.0 - f0) * (f2 * f2 * f);
    float ggx = a2 / (d * d) * 0.25 / max(lh * lh, 0.1);  // D * V * pi
    color += KEY * fresnel * (min(ggx, 64.0) * nl * key * sunlight * glint);
    // The studio environment by reflection (a gradient: soft boxes overhead, a dark horizon, the
    // floor's bounce), blurred by roughness; split-sum with Karis' analytic fit of the BRDF.
    vec3 r = reflect(-toEye, n);
    vec3 env = studioEnvironment(r, roughness) * (fill + key);  // the light's total
    const vec4 C0 = vec4(-1.0, -0.0275, -0.572, 0.022);
    const vec4 C1 = vec4(1.0, 0.0425, 1.04, -0.04);
    vec4 k = roughness * C0 + C1;
    float a004 = min(k.x * k.x, exp2(-9.28 * nv)) * k.x + k.y;
    vec2 ab = vec2(-1.04, 1.04) * a004 + k.zw;
    color += env * film * (f0 * ab.x + ab.y) * glint;
  }
  // Rim: a cool light from behind that outlines the silhouette against the dark.
  float facing = 1.0 - nv;
  float rim = facing * facing * facing;
  const vec3 RIM = vec3(0.55, 0.72, 1.0);
  color += RIM * (frame.lights.x * rim * (0.35 + 0.65 * hemi)) * (0.25 + base.rgb);

  // Light drawn along the edges (the metric of an overlay; the x-ray floor plan), added after
  // the emissive mix so that it always reads as light.
  vec3 edgeLight = vec3(0.0);
  if (BOX_DETAIL) {
    uint detail = uint(inParams.w);
    vec3 w = max(fwidth(inLocal) * SUPERSAMPLE, vec3(1e-9));  // per picture pixel
    if ((detail & 2u) != 0u && abs(n.y) < 0.5) {
      // The foot of a vertical face is darker: contact shadow, and it grounds boxes that stand.
      color *= mix(0.45, 1.0, smoothstep(-0.5, -0.28, inLocal.y));
    }
    if ((detail & 1u) != 0u) {
      // Distance to the face's nearest edge in pixels, along the two axes within the face: the
      // face is the unit box's side at |inLocal| = 0.5 (its own frame, whatever the instance
      // turns it to: a proxy's top is its +Z face turned up).
      vec3 edgePx = (0.5 - abs(inLocal)) / w;
      vec3 a = abs(inLocal);
      float across = a.x > a.y && a.x > a.z ? min(edgePx.y, edgePx.z)
                                             : (a.y > a.z ? min(edgePx.x, edgePx.z)
                                                          : min(edgePx.x, edgePx.y));
      // Lines fade out where a box is a few pixels wide, so arrays do not turn to moiré.
      float size = min(min(1.0 / w.x, 1.0 / w.y), 1.0 / w.z);
      float line = (1.0 - smoothstep(0.5, 1.5, across)) * smoothstep(3.0, 8.0, size);
      // Edges towards the key catch light (a chamfer); the others are seams.
      float lit = max(dot(n, sun), 0.0) * key;
      vec3 edge = mix(color * 0.35, color + KEY * (0.06 + 0.25 * lit), step(0.25, lit));
      color = mix(color, edge, line * frame.lights.z);
      const vec3 XRAY = vec3(0.35, 0.62, 0.85);
      edgeLight = line * (inGlow.rgb * (2.0 * inGlow.a) + XRAY * frame.lights.w);
    }
  } else if (inGlow.a > 0.0) {
    edgeLight = inGlow.rgb * (inGlow.a * rim * 2.0);  // round things glow along the silhouette
  }

  color = mix(color, base.rgb, clamp(inParams.x, 0.0, 1.0));  // emissive: full colour, unlit
  color += edgeLight;
  color += inParams.z * rim * vec3(1.0, 0.85, 0.3);  // selection highlight

  float fog = fogAmount(distanceToCamera, frame.backdropTop.a, frame.backdropHorizon.a);
  color = mix(color, backdropColor(-toEye, frame.backdropTop.rgb, frame.backdropHorizon.rgb), fog);
  if (LINEAR_OUTPUT) {
    float glow = clamp((inParams.x - BLOOM_FROM_EMISSIVE) / (1.0 - BLOOM_FROM_EMISSIVE), 0.0, 1.0);
    glow = max(glow, min(1.0, dot(edgeLight, vec3(0.6))));
    outColor = vec4(color, glow * (1.0 - fog));
  } else {
    outColor = vec4(linearToSrgb(color), 1.0);
  }
}
