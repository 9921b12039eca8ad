// The primitive meshes: closed, unit-sized, normals unit length, triangles wound outward.
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include <glm/glm.hpp>

#include "world/scene/mesh_primitives.h"

namespace {

void expectOutwardUnitMesh(const world::MeshData& mesh) {
  ASSERT_EQ(mesh.indices.size() % 3, 0u);
  for (const auto& v : mesh.vertices) {
    for (float c : v.position) {
      EXPECT_GE(c, -0.5f - 1e-6f);
      EXPECT_LE(c, 0.5f + 1e-6f);
    }
    EXPECT_NEAR(glm::length(glm::vec3(v.normal[0], v.normal[1], v.normal[2])), 1.0f, 1e-5f);
  }
  for (size_t i = 0; i < mesh.indices.size(); i += 3) {
    const auto& a = mesh.vertices[mesh.indices[i]];
    const auto& b = mesh.vertices[mesh.indices[i + 1]];
    const auto& c = mesh.vertices[mesh.indices[i + 2]];
    const glm::vec3 pa(a.position[0], a.position[1], a.position[2]);
    const glm::vec3 pb(b.position[0], b.position[1], b.position[2]);
    const glm::vec3 pc(c.position[0], c.position[1], c.position[2]);
    const glm::vec3 n = glm::cross(pb - pa, pc - pa);
    // Counter-clockwise seen from outside: the face normal points away from the centre.
    EXPECT_GT(glm::dot(n, (pa + pb + pc) / 3.0f), 0.0f) << mesh.name << " triangle " << i / 3;
    EXPECT_GT(glm::dot(n, glm::vec3(a.normal[0], a.normal[1], a.normal[2])), 0.0f);
  }
}

TEST(MeshPrimitives, BoxIsTwelveOutwardTriangles) {
  const world::MeshData box = world::makeUnitBox();
  EXPECT_EQ(box.triangleCount(), 12u);
  EXPECT_EQ(box.vertices.size(), 24u);
  expectOutwardUnitMesh(box);
}

TEST(MeshPrimitives, CylinderHasFourTrianglesPerSide) {
  for (int segments : {6, 16}) {
    const world::MeshData cylinder = world::makeUnitCylinder(segments);
    EXPECT_EQ(cylinder.triangleCount(), uint32_t(4 * segments));
    expectOutwardUnitMesh(cylinder);
  }
}

// The front face alone: the box's +Z face, two outward triangles where that face would be.
TEST(MeshPrimitives, FrontFaceIsTheBoxsPlusZFace) {
  const world::MeshData face = world::makeUnitFrontFace();
  EXPECT_EQ(face.triangleCount(), 2u);
  expectOutwardUnitMesh(face);
  for (const auto& v : face.vertices) {
    EXPECT_FLOAT_EQ(v.position[2], 0.5f);
    EXPECT_FLOAT_EQ(v.normal[2], 1.0f);
  }
}

TEST(MeshPrimitives, RegisterAddsDistinctMeshes) {
  world::MeshLibrary library;
  const world::PrimitiveMeshes ids = world::registerPrimitives(library);
  EXPECT_EQ(library.meshes().size(), 5u);
  EXPECT_FALSE(ids.box == ids.cylinder);
  EXPECT_FALSE(ids.cylinder == ids.cylinderLow);
  EXPECT_FALSE(ids.frontFace == ids.box);
  EXPECT_FALSE(ids.boxSides == ids.box);
}

TEST(MeshPrimitives, BoxSidesAreTheBoxLessItsTopAndBottom) {
  const world::MeshData box = world::makeUnitBox();
  const world::MeshData sides = world::makeUnitBoxSides();
  EXPECT_EQ(sides.triangleCount(), box.triangleCount() - 4);  // two faces of two triangles
  expectOutwardUnitMesh(sides);
  for (const world::MeshVertex& v : sides.vertices) {
    EXPECT_FLOAT_EQ(v.normal[1], 0.0f);
    EXPECT_FLOAT_EQ(std::abs(v.normal[0]) + std::abs(v.normal[2]), 1.0f);
  }
  // Every side vertex is one of the box's, with its normal.
  for (const world::MeshVertex& v : sides.vertices) {
    bool found = false;
    for (const world::MeshVertex& b : box.vertices) {
      found = found || (std::equal(v.position, v.position + 3, b.position) &&
                        std::equal(v.normal, v.normal + 3, b.normal));
    }
    EXPECT_TRUE(found);
  }
}

}  // namespace

// A top with holes is the box's top face less its holes: facing up at y = 0.5, wound outward,
// its area the face's less the holes' (two holes, one cut at the face's edge), and no triangle
// inside a hole.
TEST(MeshPrimitives, TopWithHolesCoversTheFaceLessItsHoles) {
  const std::vector<world::FaceRect> holes = {{-0.3f, -0.2f, 0.1f, 0.2f},   // 0.4 x 0.4
                                              {0.3f, 0.25f, 0.7f, 0.45f}};  // 0.2 x 0.2 inside
  const world::MeshData top = world::makeUnitTopWithHoles(holes);
  expectOutwardUnitMesh(top);
  EXPECT_TRUE(top.boxFaces);
  double area = 0;
  for (size_t i = 0; i < top.indices.size(); i += 3) {
    const auto& a = top.vertices[top.indices[i]].position;
    const auto& b = top.vertices[top.indices[i + 1]].position;
    const auto& c = top.vertices[top.indices[i + 2]].position;
    for (const float* p : {a, b, c}) EXPECT_FLOAT_EQ(p[1], 0.5f);
    area += 0.5 * std::abs((b[0] - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (b[2] - a[2]));
    const float cx = (a[0] + b[0] + c[0]) / 3, cz = (a[2] + b[2] + c[2]) / 3;
    for (const world::FaceRect& h : holes) {
      EXPECT_FALSE(cx > h.x0 && cx < h.x1 && cz > h.z0 && cz < h.z1) << "triangle " << i / 3;
    }
  }
  EXPECT_NEAR(area, 1.0 - 0.4 * 0.4 - 0.2 * 0.2, 1e-6);
  EXPECT_EQ(world::makeUnitTopWithHoles({}).triangleCount(), 2u);  // no hole: the whole face
}
