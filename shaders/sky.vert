#version 450
// One triangle that covers the screen; the fragment shader turns each pixel into a view ray.
layout(location = 0) out vec2 outNdc;

void main() {
  vec2 ndc = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2) * 2.0 - 1.0;
  outNdc = ndc;
  gl_Position = vec4(ndc, 0.0, 1.0);  // depth 0 = infinitely far under reverse-Z
}
