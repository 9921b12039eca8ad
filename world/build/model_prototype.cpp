#include "world/build/model_prototype.h"

#include <algorithm>
#include <map>
#include <optional>

#include <glm/gtc/matrix_transform.hpp>

#include "sim/json_checker.h"
#include "world/build/builders.h"

namespace world {
namespace {

// Reverses each triangle's winding (mirrored instances) or appends the reversed triangles too
// (double-sided materials).
MeshData rewound(const MeshData& mesh, bool keepOriginal) {
  MeshData out = mesh;
  if (!keepOriginal) out.indices.clear();
  for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    out.indices.insert(out.indices.end(),
                       {mesh.indices[t], mesh.indices[t + 2], mesh.indices[t + 1]});
  }
  return out;
}

Aabb boundsOf(const MeshData& mesh) {
  Aabb box;
  for (const MeshVertex& v : mesh.vertices) {
    box.extend(glm::dvec3(v.position[0], v.position[1], v.position[2]));
  }
  return box;
}

glm::dmat4 toMatrix(const double* columnMajor) {
  glm::dmat4 m;
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) m[c][r] = columnMajor[c * 4 + r];
  }
  return m;
}

}  // namespace

Look lookOf(const ImportedMaterial* material, uint32_t textureLayer) {
  const ImportedMaterial fallback;  // glTF 2.0 spec 3.9.6: the default material
  const ImportedMaterial& m = material ? *material : fallback;
  Look look;
  look.r = m.baseColorFactor[0];
  look.g = m.baseColorFactor[1];
  look.b = m.baseColorFactor[2];
  look.alpha = m.baseColorFactor[3];
  look.texture = textureLayer;
  // Smooth surfaces show a highlight; metals tint theirs, which this shading does not model,
  // so a metal keeps a little less of it.
  look.specular = 0.5f * (1.0f - m.roughnessFactor) * (1.0f - 0.3f * m.metallicFactor);
  look.emissive = 0.0f;
  if (m.alphaMode == AlphaMode::Mask) look.alphaCutoff = std::max(m.alphaCutoff, 1e-3f);
  look.alphaBlend = m.alphaMode == AlphaMode::Blend;
  look.wrapS = static_cast<uint8_t>(m.wrapS);
  look.wrapT = static_cast<uint8_t>(m.wrapT);
  return look;
}

sim::Result<Prototype> modelPrototype(const ImportedModel& model, const glm::dmat4& placement,
                                      const std::string& name, ModelTargets targets) {
  using R = sim::Result<Prototype>;
  std::map<int32_t, uint32_t> layerOfImage;
  auto layer = [&](int32_t image) -> uint32_t {
    if (image < 0 || size_t(image) >= model.images.size()) return 0;
    auto it = layerOfImage.find(image);
    if (it == layerOfImage.end()) {
      it = layerOfImage.emplace(image, targets.textures.add(model.images[size_t(image)])).first;
    }
    return it->second;
  };
  // (mesh, mirrored) -> the library's mesh.
  std::map<std::pair<uint32_t, bool>, MeshId> registered;
  auto meshFor = [&](uint32_t index, bool mirrored) -> std::optional<MeshId> {
    const ImportedMesh& mesh = model.meshes[index];
    const bool doubleSided = mesh.material >= 0 && size_t(mesh.material) < model.materials.size() &&
                             model.materials[size_t(mesh.material)].doubleSided;
    if (doubleSided) mirrored = false;  // both windings are there already
    auto it = registered.find({index, mirrored});
    if (it != registered.end()) return it->second;
    MeshData data =
        doubleSided ? rewound(mesh.data, true) : (mirrored ? rewound(mesh.data, false) : mesh.data);
    if (data.name.empty()) data.name = name + " mesh " + std::to_string(index);
    const Aabb box = boundsOf(data);
    MeshId id;
    if (!targets.meshes.add(std::move(data), &id)) return std::nullopt;
    targets.scene.setMeshBounds(id, box);
    registered.emplace(std::pair{index, mirrored}, id);
    return id;
  };

  Prototype proto;
  proto.name = name;
  for (const ImportedInstance& instance : model.instances) {
    if (instance.mesh >= model.meshes.size()) continue;
    const ImportedMesh& mesh = model.meshes[instance.mesh];
    if (mesh.data.indices.empty()) continue;
    const glm::dmat4 local = placement * toMatrix(instance.transform);
    const bool mirrored = glm::determinant(glm::dmat3(local)) < 0;
    const std::optional<MeshId> id = meshFor(instance.mesh, mirrored);
    if (!id)
      return R::failure(model.source.string() + ": mesh " + std::to_string(instance.mesh) +
                        " has an index outside its vertices");
    const ImportedMaterial* material =
        mesh.material >= 0 && size_t(mesh.material) < model.materials.size()
            ? &model.materials[size_t(mesh.material)]
            : nullptr;
    Part part;
    part.mesh = *id;
    part.local = local;
    part.look = lookOf(material, layer(material ? material->baseColorImage : -1));
    part.name = mesh.data.name.empty() ? name : mesh.data.name;
    proto.parts.push_back(std::move(part));
  }
  if (proto.parts.empty()) return R::failure(model.source.string() + ": no triangles to draw");
  proto.lod.proxyLook = proto.parts.front().look;
  proto.lod.proxyLook.texture = 0;
  proto.lod.proxyLook.alphaCutoff = 0;
  proto.lod.proxyLook.alphaBlend = false;
  proto.lod.proxyLook.alpha = 1;
  return proto;
}

sim::Result<bool> replaceComponents(const std::vector<ComponentModel>& models,
                                    ModelTargets targets) {
  using R = sim::Result<bool>;
  // Every model is checked and fitted before the scene changes.
  std::vector<std::pair<PrototypeId, Prototype>> replacements;
  for (const ComponentModel& entry : models) {
    if (!sim::contains(componentKeys(), entry.component))
      return R::failure("no built-in component called \"" + entry.component + "\"");
    if (!entry.model) return R::failure(entry.component + ": no model");
    for (uint32_t i = 0; i < targets.scene.prototypeCount(); ++i) {
      const Prototype& target = targets.scene.prototype(PrototypeId{i});
      if (target.component != entry.component || target.bounds.empty()) continue;
      ImportedModel fitted = *entry.model;
      FitDesc fit;
      const glm::dvec3 size = target.bounds.size();
      fit.size_m[0] = size.x;
      fit.size_m[1] = size.y;
      fit.size_m[2] = size.z;
      const auto scaled = fitToSize(fitted, fit);
      if (!scaled) return R::failure(entry.component + ": " + scaled.error());
      const glm::dmat4 placement = glm::translate(glm::dmat4(1.0), target.bounds.center());
      auto contents = modelPrototype(fitted, placement, target.name, targets);
      if (!contents) return R::failure(entry.component + ": " + contents.error());
      replacements.emplace_back(PrototypeId{i}, std::move(*contents));
    }
  }
  for (auto& [id, contents] : replacements) targets.scene.replaceContents(id, std::move(contents));
  return true;
}

}  // namespace world
