// The one exposure rule lights each station's hero by its mean albedo (world::heroAlbedo): the
// luminance of its parts' colours weighted by their surface areas, its children's counted once
// per instance, emitters and stand-in drawings left out.
#include <gtest/gtest.h>

#include "world/builders/stations.h"
#include "world/scene/mesh_primitives.h"

namespace {

using glm::dvec3;

double luminance(double r, double g, double b) {  // Rec. 709 / sRGB primaries, linear
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

TEST(HeroAlbedo, WeighsPartsByAreaAndLeavesOutLightAndDrawings) {
  world::MeshLibrary meshes;
  world::Scene scene;
  const world::PrimitiveMeshes prims = world::registerPrimitives(meshes);
  // A child: a 1 m cube of grey 0.5 (area 6 m2), placed twice.
  world::Prototype cube;
  cube.name = "cube";
  cube.parts.push_back(
      world::boxPart(prims.box, dvec3(0), dvec3(1), world::Look{0.5f, 0.5f, 0.5f}, "grey cube"));
  const world::PrototypeId cubeId = scene.add(std::move(cube));
  // A drawing made for one studio: not part of what the hero is.
  world::Prototype drawing;
  drawing.name = "drawing";
  drawing.parts.push_back(
      world::boxPart(prims.box, dvec3(0), dvec3(10), world::Look{1.0f, 1.0f, 1.0f}, "white slab"));
  const world::PrototypeId drawingId = scene.add(std::move(drawing));

  world::Prototype hero;
  hero.name = "hero";
  // A 2 x 1 x 1 m red box (area 10 m2) and an emitter as large, which is light, not a finish.
  hero.parts.push_back(world::boxPart(prims.box, dvec3(5, 0, 0), dvec3(2, 1, 1),
                                      world::Look{0.8f, 0.0f, 0.0f}, "red box"));
  world::Look lamp{1.0f, 1.0f, 1.0f, 1.0f, 0.0f};
  hero.parts.push_back(world::boxPart(prims.box, dvec3(-5, 0, 0), dvec3(2, 1, 1), lamp, "lamp"));
  hero.children.push_back(world::placeChild(cubeId, dvec3(0, 0, 3), "a"));
  hero.children.push_back(world::placeChild(cubeId, dvec3(0, 0, -3), "b"));
  world::ChildInstance model = world::placeChild(drawingId, dvec3(0, 20, 0), "model");
  model.standIn = world::StandIn::Model;
  model.standInDrawing = "drawing";
  hero.children.push_back(model);
  const world::PrototypeId heroId = scene.add(std::move(hero));

  const double expected =
      (10.0 * luminance(0.8, 0, 0) + 2 * 6.0 * luminance(0.5, 0.5, 0.5)) / (10.0 + 2 * 6.0);
  EXPECT_NEAR(world::heroAlbedo(scene, heroId), expected, 1e-6);
  EXPECT_NEAR(world::heroAlbedo(scene, cubeId), 0.5, 1e-6);
}

}  // namespace
