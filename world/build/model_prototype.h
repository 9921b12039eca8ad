// An imported glTF model made into a prototype of the world: its meshes and base colour images
// go into the world's libraries, each of its node instances becomes a part. Mirrored instances
// (negative determinant) get a copy of their mesh with the winding flipped, double-sided
// materials get both windings, so back-face culling stays right for every part.
#pragma once

#include <memory>
#include <string>
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

/// A prototype called `name` holding `model` placed by `placement` (model space -> prototype
/// frame); registers its meshes and images in `targets` (each once per call). Not added to the
/// scene: the caller adds it, or puts it in place of a built-in prototype.
sim::Result<Prototype> modelPrototype(const ImportedModel& model, const glm::dmat4& placement,
                                      const std::string& name, ModelTargets targets);

/// A built-in component (builders.h COMPONENTS) drawn as an imported model instead.
struct ComponentModel {
  std::string component;                       // e.g. "nvl72.compute_tray"
  std::shared_ptr<const ImportedModel> model;  // fitted to the component's real size
};

/// Replaces the contents of every prototype whose component is one of `models`' by its model,
/// scaled uniformly to fit the prototype's bounds and centred in them. Fails, changing no
/// prototype, when a component is not one of COMPONENTS or a model cannot be drawn.
sim::Result<bool> replaceComponents(const std::vector<ComponentModel>& models,
                                    ModelTargets targets);

}  // namespace world
