#include "world/render_list.h"

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

void viewProjection(const ViewParams& view, float aspect, float out[16]) {
  // Reverse-Z with an infinite far plane: clip = (x*f/a, -y*f, near, -z); depth = near / -z.
  const float f = 1.0f / std::tan(view.verticalFovRadians * 0.5f);
  const float proj[16] = {f / aspect, 0, 0, 0, 0, -f, 0, 0, 0, 0, 0, -1, 0, 0, view.nearMeters, 0};
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

}  // namespace world
