#include "world/scene/mesh_primitives.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <utility>

namespace world {
namespace {

void addVertex(MeshData& mesh, float px, float py, float pz, float nx, float ny, float nz, float u,
               float v) {
  mesh.vertices.push_back(MeshVertex{{px, py, pz}, {nx, ny, nz}, {u, v}});
}

// The unit box's faces, its top and bottom only with `caps`.
MeshData unitBoxFaces(std::string name, bool caps) {
  MeshData mesh;
  mesh.name = std::move(name);
  mesh.boxFaces = true;
  // Each face: normal n, in-plane axes a and b with a x b = n, so triangles wind outward (CCW).
  const float faces[6][3][3] = {
      {{1, 0, 0}, {0, 0, -1}, {0, 1, 0}}, {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
      {{0, 1, 0}, {1, 0, 0}, {0, 0, -1}}, {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
      {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},  {{0, 0, -1}, {-1, 0, 0}, {0, 1, 0}},
  };
  for (const auto& face : faces) {
    if (!caps && face[0][1] != 0) continue;
    const float* n = face[0];
    const float* a = face[1];
    const float* b = face[2];
    const uint32_t base = static_cast<uint32_t>(mesh.vertices.size());
    const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (const auto& c : corners) {
      float p[3];
      for (int i = 0; i < 3; ++i) p[i] = 0.5f * (n[i] + c[0] * a[i] + c[1] * b[i]);
      addVertex(mesh, p[0], p[1], p[2], n[0], n[1], n[2], 0.5f * (c[0] + 1), 0.5f * (c[1] + 1));
    }
    for (uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) mesh.indices.push_back(base + i);
  }
  return mesh;
}

}  // namespace

MeshData makeUnitBox() {
  return unitBoxFaces("unit_box", true);
}

MeshData makeUnitBoxSides() {
  return unitBoxFaces("unit_box_sides", false);
}

MeshData makeUnitFrontFace() {
  MeshData mesh;
  mesh.name = "unit_front_face";
  mesh.boxFaces = true;
  // The unit box's +Z face alone (z = 0.5, so it lies where that box's front would).
  const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  for (const auto& c : corners) {
    addVertex(mesh, 0.5f * c[0], 0.5f * c[1], 0.5f, 0, 0, 1, 0.5f * (c[0] + 1), 0.5f * (c[1] + 1));
  }
  for (uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) mesh.indices.push_back(i);
  return mesh;
}

MeshData makeUnitTopWithHoles(const std::vector<FaceRect>& holes) {
  MeshData mesh;
  mesh.name = "unit_top_with_holes";
  mesh.boxFaces = true;
  std::vector<float> xs{-0.5f, 0.5f}, zs{-0.5f, 0.5f};
  for (const FaceRect& h : holes) {
    for (float x : {h.x0, h.x1}) xs.push_back(std::clamp(x, -0.5f, 0.5f));
    for (float z : {h.z0, h.z1}) zs.push_back(std::clamp(z, -0.5f, 0.5f));
  }
  for (std::vector<float>* cuts : {&xs, &zs}) {
    std::sort(cuts->begin(), cuts->end());
    cuts->erase(std::unique(cuts->begin(), cuts->end()), cuts->end());
  }
  for (size_t i = 0; i + 1 < xs.size(); ++i) {
    for (size_t j = 0; j + 1 < zs.size(); ++j) {
      const float cx = 0.5f * (xs[i] + xs[i + 1]), cz = 0.5f * (zs[j] + zs[j + 1]);
      const bool hidden = std::any_of(holes.begin(), holes.end(), [&](const FaceRect& h) {
        return cx > h.x0 && cx < h.x1 && cz > h.z0 && cz < h.z1;
      });
      if (hidden) continue;
      // As the box's top: u along +X, v along -Z, wound counter-clockwise seen from above.
      const uint32_t base = static_cast<uint32_t>(mesh.vertices.size());
      for (const auto& [x, z] : {std::pair{xs[i], zs[j + 1]}, std::pair{xs[i + 1], zs[j + 1]},
                                 std::pair{xs[i + 1], zs[j]}, std::pair{xs[i], zs[j]}}) {
        addVertex(mesh, x, 0.5f, z, 0, 1, 0, x + 0.5f, 0.5f - z);
      }
      for (uint32_t k : {0u, 1u, 2u, 0u, 2u, 3u}) mesh.indices.push_back(base + k);
    }
  }
  return mesh;
}

MeshData makeUnitCylinder(int segments) {
  MeshData mesh;
  mesh.name = "unit_cylinder_" + std::to_string(segments);
  const float radius = 0.5f;
  for (int i = 0; i <= segments; ++i) {  // side: a seam column duplicated for the uv wrap
    const float t = float(i) / float(segments);
    const float angle = t * 2.0f * std::numbers::pi_v<float>;
    const float c = std::cos(angle), s = std::sin(angle);
    addVertex(mesh, radius * c, -0.5f, radius * s, c, 0, s, t, 0);
    addVertex(mesh, radius * c, 0.5f, radius * s, c, 0, s, t, 1);
  }
  for (int i = 0; i < segments; ++i) {
    const uint32_t b = uint32_t(2 * i);
    // Outward winding seen from outside (CCW): bottom i, top i, top i+1 ...
    for (uint32_t k : {b, b + 1, b + 3, b, b + 3, b + 2}) mesh.indices.push_back(k);
  }
  for (int cap = 0; cap < 2; ++cap) {
    const float y = cap == 0 ? -0.5f : 0.5f;
    const float ny = cap == 0 ? -1.0f : 1.0f;
    const uint32_t center = static_cast<uint32_t>(mesh.vertices.size());
    addVertex(mesh, 0, y, 0, 0, ny, 0, 0.5f, 0.5f);
    for (int i = 0; i < segments; ++i) {
      const float angle = float(i) / float(segments) * 2.0f * std::numbers::pi_v<float>;
      const float c = std::cos(angle), s = std::sin(angle);
      addVertex(mesh, radius * c, y, radius * s, 0, ny, 0, 0.5f + 0.5f * c, 0.5f + 0.5f * s);
    }
    for (int i = 0; i < segments; ++i) {
      const uint32_t a = center + 1 + uint32_t(i);
      const uint32_t b = center + 1 + uint32_t((i + 1) % segments);
      if (cap == 1) {
        for (uint32_t k : {center, b, a}) mesh.indices.push_back(k);
      } else {
        for (uint32_t k : {center, a, b}) mesh.indices.push_back(k);
      }
    }
  }
  return mesh;
}

PrimitiveMeshes registerPrimitives(MeshLibrary& library) {
  PrimitiveMeshes ids;
  library.add(makeUnitBox(), &ids.box);
  library.add(makeUnitCylinder(16), &ids.cylinder);
  library.add(makeUnitCylinder(6), &ids.cylinderLow);
  library.add(makeUnitFrontFace(), &ids.frontFace);
  library.add(makeUnitBoxSides(), &ids.boxSides);
  return ids;
}

}  // namespace world
