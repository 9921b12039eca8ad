// The few meshes every station is made of, all inside the unit cube [-0.5, 0.5]^3 so that a
// part's transform is simply translate(centre) * rotate * scale(size in metres).
#pragma once

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
