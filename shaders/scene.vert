#version 450
// Instanced meshes. Positions arrive camera-relative (the instance rows carry translation already
// relative to the camera), so float precision holds at any distance from the world origin.
#include "shared/scene.h"

layout(location = 0) in vec3 inPosition;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec2 inUv;
layout(location = 3) in vec4 instRow0;
layout(location = 4) in vec4 instRow1;
layout(location = 5) in vec4 instRow2;
layout(location = 6) in vec4 instColor;
layout(location = 7) in vec4 instParams;
layout(location = 8) in vec4 instMaterial;
layout(location = 9) in vec4 instGlow;
layout(location = SCENE_VERTEX_COLOR_LOCATION) in vec4 inVertexColor;  // linear, unorm

layout(push_constant) uniform Push { FrameConstants frame; };

layout(location = 0) out vec3 outWorldOffset;  // camera-relative position, metres
layout(location = 1) out vec3 outNormal;
layout(location = 2) out vec4 outColor;
layout(location = 3) flat out vec4 outParams;
layout(location = 4) out vec2 outUv;
layout(location = 5) flat out vec4 outMaterial;
layout(location = 6) out vec3 outLocal;  // position in the unit mesh's own frame (-0.5..0.5)
layout(location = 7) flat out vec4 outGlow;

void main() {
  vec4 p = vec4(inPosition, 1.0);
  vec3 relative = vec3(dot(instRow0, p), dot(instRow1, p), dot(instRow2, p));
  // Normal matrix as the cofactor of the 3x3 part: correct under non-uniform scale.
  vec3 c0 = vec3(instRow0.x, instRow1.x, instRow2.x);
  vec3 c1 = vec3(instRow0.y, instRow1.y, instRow2.y);
  vec3 c2 = vec3(instRow0.z, instRow1.z, instRow2.z);
  vec3 n = cross(c1, c2) * inNormal.x + cross(c2, c0) * inNormal.y + cross(c0, c1) * inNormal.z;
  outWorldOffset = relative;
  outNormal = n;
  outColor = instColor * inVertexColor;
  outParams = instParams;
  outUv = inUv;
  if (instMaterial.w < 0.0) {
    // A procedural texture on the faces: the face's own plane in metres (the unit mesh scaled by
    // the instance), one tile per -w metres; flat faces make this exact across each triangle.
    vec3 metres = inPosition * vec3(length(c0), length(c1), length(c2));
    vec3 a = abs(inNormal);
    vec2 plane = a.x > a.y && a.x > a.z ? metres.zy : (a.y > a.z ? metres.xz : metres.xy);
    outUv = plane / -instMaterial.w;
  }
  outMaterial = instMaterial;
  outLocal = inPosition;
  outGlow = instGlow;
  gl_Position = frame.viewProj * vec4(relative, 1.0);
}
