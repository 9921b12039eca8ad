// An imported glTF model made into a prototype of the world: its meshes and base colour images
// go into the world's libraries, each of its node instances becomes a part. Mirrored instances
// (negative determinant) get a copy of their mesh with the winding flipped, double-sided
// materials get both windings, so back-face culling stays right for every part.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <glm/glm.hpp>

#include "sim/result.h"
#include "world/gltf/gltf_import.h"
#include "world/scene/render_list.h"
#include "world/scene/scene.h"

namespace world {

/// Where a model's meshes, images and prototype go.
struct ModelTargets {
  MeshLibrary& meshes;
  TextureLibrary& textures;
  Scene& scene;
};

/// The look of `material` (nullptr: glTF's default material): base colour and alpha, the
/// texture layer `textureLayer` (0: none) and its sampler's wrap modes, alpha mode; specular from
/// metallic and roughness.
Look lookOf(const ImportedMaterial* material, uint32_t textureLayer);

/// Which of the world's meshes an instance of `model` placed by `placement` draws: a mirrored
/// instance (negative determinant) a copy with the winding flipped, a double-sided material one
/// copy holding both windings (never mirrored: both windings are there already).
struct MeshVariant {
  uint32_t mesh = 0;  // index into model.meshes
  bool mirrored = false;
  bool doubleSided = false;
  bool operator<(const MeshVariant& o) const {
    return std::pair{mesh, mirrored} < std::pair{o.mesh, o.mirrored};
  }
};
MeshVariant meshVariant(const ImportedModel& model, const ImportedInstance& instance,
                        const glm::dmat4& placement);

/// The meshes and images one model has registered in the world's libraries, so that every
/// prototype drawing the model shares them (a model on 30 tray prototypes is held once).
struct RegisteredModel {
  std::map<int32_t, uint32_t> layerOfImage;  // model image -> texture layer
  std::map<MeshVariant, MeshId> meshes;
};

/// What loading a model costs the world: what its libraries will hold once every prototype
/// drawing it shares its meshes and images (see RegisteredModel), and the images' sizes.
struct ModelCost {
  uint64_t triangles = 0;  // as drawn: a double-sided mesh twice, a mirrored copy extra
  uint64_t vertices = 0;
  uint64_t texels = 0;  // of the base colour images drawn
  uint64_t bytes = 0;   // vertices (36 bytes), indices (4) and images (RGBA8) held
  std::vector<std::pair<uint32_t, uint32_t>> images;  // width x height of each image drawn

  ModelCost& operator+=(const ModelCost& o);
};
/// The cost of `model` drawn at a placement that mirrors nothing (as components and the viewer
/// place it).
ModelCost modelCost(const ImportedModel& model);

/// A prototype called `name` holding `model` placed by `placement` (model space -> prototype
/// frame); registers its meshes and images in `targets`, each once per call, or once across the
/// calls that pass the same `shared`. Not added to the scene: the caller adds it, or puts it in
/// place of a built-in prototype.
sim::Result<Prototype> modelPrototype(const ImportedModel& model, const glm::dmat4& placement,
                                      const std::string& name, ModelTargets targets,
                                      RegisteredModel* shared = nullptr);

/// A built-in component (builders.h COMPONENTS) drawn as an imported model instead.
struct ComponentModel {
  std::string component;                       // e.g. "nvl72.compute_tray"
  std::shared_ptr<const ImportedModel> model;  // fitted to the component's real size
};

/// Replaces the contents of every prototype whose component is one of `models`' by its model,
/// scaled uniformly to fit the prototype's bounds and centred in them; the prototypes drawing
/// one model (the same pointer) share its meshes and images. Fails, changing no prototype, when
/// a component is not one of COMPONENTS or a model cannot be drawn.
sim::Result<bool> replaceComponents(const std::vector<ComponentModel>& models,
                                    ModelTargets targets);

}  // namespace world
