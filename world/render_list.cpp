#include "world/render_list.h"

namespace world {

bool MeshLibrary::add(MeshData mesh, MeshId* outId) {
  if (mesh.indices.size() % 3 != 0) return false;
  const size_t vertexCount = mesh.vertices.size();
  for (uint32_t index : mesh.indices) {
    if (index >= vertexCount) return false;
  }
  m_meshes.push_back(std::move(mesh));
  ++m_revision;
  if (outId) *outId = MeshId{static_cast<uint32_t>(m_meshes.size() - 1)};
  return true;
}

uint64_t RenderList::triangleCount(const MeshLibrary& meshes) const {
  uint64_t total = 0;
  for (const DrawBatch& batch : batches) {
    total += uint64_t(meshes.mesh(batch.mesh).triangleCount()) * batch.instanceCount;
  }
  return total;
}

}  // namespace world
