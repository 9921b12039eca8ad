#version 450
// One triangle that covers the target; uv 0..1 across it (top-left origin).
layout(location = 0) out vec2 outUv;

void main() {
  vec2 uv = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
  outUv = uv;
  gl_Position = vec4(uv * 2.0 - 1.0, 0.0, 1.0);
}
