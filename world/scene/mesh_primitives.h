// The few meshes every station is made of, all inside the unit cube [-0.5, 0.5]^3 so that a
// part's transform is simply translate(centre) * rotate * scale(size in metres).
#pragma once

#include <vector>

#include "world/scene/render_list.h"

namespace world {

/// Axis-aligned unit box centred at the origin, 24 vertices with face normals, 12 triangles.
MeshData makeUnitBox();
/// Unit cylinder along Y (diameter 1, height 1, centred), `segments` sides, capped.
MeshData makeUnitCylinder(int segments);
/// The unit box's +Z face alone: 2 triangles at z = 0.5, facing +Z.
MeshData makeUnitFrontFace();
/// The unit box's four sides without its top and bottom: 8 triangles.
MeshData makeUnitBoxSides();

/// A rectangle of the unit box's top face, x and z within [-0.5, 0.5].
struct FaceRect {
  float x0, z0, x1, z1;
};
/// The unit box's +Y face less `holes` (where what stands on the box hides its top): the cells of
/// the grid the holes' edges cut the face into that lie in no hole, facing +Y at y = 0.5. Its edge
/// lines are the whole face's, as the box's top draws them (the shader finds them in the unit
/// frame), so a box drawn as its sides and this top looks as it did.
MeshData makeUnitTopWithHoles(const std::vector<FaceRect>& holes);

/// Ids of the primitives once registered in a MeshLibrary.
struct PrimitiveMeshes {
  MeshId box;
  MeshId cylinder;     // 16 sides: pipes, fans, towers, TSVs up close
  MeshId cylinderLow;  // 6 sides: many small round things (microbumps, TSV columns)
  MeshId frontFace;    // the unit box's +Z face alone: far-off lines only ever seen from the front
  MeshId boxSides;     // the unit box without top and bottom: a layer under another of its size
};

/// Registers the primitives in `library` (once per library).
PrimitiveMeshes registerPrimitives(MeshLibrary& library);

}  // namespace world
