#include "world/scene/render_list.h"

#include <atomic>
#include <cmath>

namespace world {
namespace {

// Revisions are unique in the process, not per library: a renderer that drew one world's
// library never mistakes another world's library for the one it holds.
uint64_t nextRevision() {
  static std::atomic<uint64_t> counter{0};
  return ++counter;
}

}  // namespace

bool MeshLibrary::add(MeshData mesh, MeshId* outId) {
  if (mesh.indices.size() % 3 != 0) return false;
  const size_t vertexCount = mesh.vertices.size();
  for (uint32_t index : mesh.indices) {
    if (index >= vertexCount) return false;
  }
  m_meshes.push_back(std::move(mesh));
  m_revision = nextRevision();
  if (outId) *outId = MeshId{static_cast<uint32_t>(m_meshes.size() - 1)};
  return true;
}

uint32_t TextureLibrary::add(TextureImage image) {
  if (image.width == 0 || image.height == 0 ||
      image.rgba8.size() != uint64_t(image.width) * image.height * 4) {
    return 0;
  }
  m_images.push_back(std::move(image));
  m_revision = nextRevision();
  return static_cast<uint32_t>(m_images.size());
}

void viewProjection(const ViewParams& view, float aspect, float out[16], const ViewRect& part) {
  // Reverse-Z with an infinite far plane: clip = (x*f/a, -y*f, near, -z); depth = near / -z.
  const float f = 1.0f / std::tan(view.verticalFovRadians * 0.5f);
  float proj[16] = {f / aspect, 0, 0, 0, 0, -f, 0, 0, 0, 0, 0, -1, 0, 0, view.nearMeters, 0};
  // A part: ndc' = (ndc - centre) * scale, i.e. clip' = scale * (clip - centre * w); w = -z, so
  // only the third column gains the shift. The whole view (scale 1, centre 0) stays exact.
  const float sx = 2.0f / (part.x1 - part.x0), sy = 2.0f / (part.y1 - part.y0);
  const float cx = 0.5f * (part.x0 + part.x1), cy = 0.5f * (part.y0 + part.y1);
  proj[0] *= sx;
  proj[5] *= sy;
  proj[8] = sx * cx;  // clip x' += sx * cx * z (= -sx * cx * w)
  proj[9] = sy * cy;
  const float* v = view.viewRotation;
  for (int col = 0; col < 4; ++col) {
    for (int row = 0; row < 4; ++row) {
      float sum = 0;
      for (int k = 0; k < 4; ++k) sum += proj[k * 4 + row] * v[col * 4 + k];
      out[col * 4 + row] = sum;
    }
  }
}

uint64_t RenderList::triangleCount(const MeshLibrary& meshes) const {
  uint64_t total = 0;
  for (const DrawBatch& batch : batches) {
    total += uint64_t(meshes.mesh(batch.mesh).triangleCount()) * batch.instanceCount;
  }
  return total;
}

void shadowAxes(const float sun[3], float outX[3], float outY[3]) {
  const float length = std::sqrt(sun[0] * sun[0] + sun[1] * sun[1] + sun[2] * sun[2]);
  const float s[3] = {sun[0] / length, sun[1] / length, sun[2] / length};
  // x = normalize(helper x sun), with helper the world's up unless the sun is nearly overhead.
  const float helper[3] = {std::fabs(s[1]) > 0.99f ? 1.0f : 0.0f,
                           std::fabs(s[1]) > 0.99f ? 0.0f : 1.0f, 0.0f};
  float x[3] = {helper[1] * s[2] - helper[2] * s[1], helper[2] * s[0] - helper[0] * s[2],
                helper[0] * s[1] - helper[1] * s[0]};
  const float xLength = std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
  for (float& c : x) c /= xLength;
  outX[0] = x[0];
  outX[1] = x[1];
  outX[2] = x[2];
  outY[0] = s[1] * x[2] - s[2] * x[1];
  outY[1] = s[2] * x[0] - s[0] * x[2];
  outY[2] = s[0] * x[1] - s[1] * x[0];
}

}  // namespace world
