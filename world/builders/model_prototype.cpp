#include "world/builders/model_prototype.h"

#include <algorithm>
#include <map>
#include <optional>

#include <glm/gtc/matrix_transform.hpp>

#include "sim/json_checker.h"
#include "world/builders/builders.h"

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

const ImportedMaterial* materialOf(const ImportedModel& model, const ImportedMesh& mesh) {
  return mesh.material >= 0 && size_t(mesh.material) < model.materials.size()
             ? &model.materials[size_t(mesh.material)]
             : nullptr;
}

// The instances that draw something: a mesh that exists and has triangles.
bool draws(const ImportedModel& model, const ImportedInstance& instance) {
  return instance.mesh < model.meshes.size() && !model.meshes[instance.mesh].data.indices.empty();
}

}  // namespace

MeshVariant meshVariant(const ImportedModel& model, const ImportedInstance& instance,
                        const glm::dmat4& placement) {
  const ImportedMaterial* material = materialOf(model, model.meshes[instance.mesh]);
  MeshVariant v;
  v.mesh = instance.mesh;
  v.doubleSided = material && material->doubleSided;
  const glm::dmat4 local = placement * toMatrix(instance.transform);
  v.mirrored = !v.doubleSided && glm::determinant(glm::dmat3(local)) < 0;
  return v;
}

ModelCost& ModelCost::operator+=(const ModelCost& o) {
  triangles += o.triangles;
  vertices += o.vertices;
  texels += o.texels;
  bytes += o.bytes;
  images.insert(images.end(), o.images.begin(), o.images.end());
  return *this;
}

ModelCost modelCost(const ImportedModel& model) {
  ModelCost cost;
  std::map<MeshVariant, bool> meshes;
  std::map<int32_t, bool> images;
  for (const ImportedInstance& instance : model.instances) {
    if (!draws(model, instance)) continue;
    const MeshVariant v = meshVariant(model, instance, glm::dmat4(1.0));
    if (meshes.emplace(v, true).second) {
      const MeshData& data = model.meshes[v.mesh].data;
      const uint64_t windings = v.doubleSided ? 2 : 1;
      cost.triangles += data.triangleCount() * windings;
      cost.vertices += data.vertices.size();
      cost.bytes += data.vertices.size() * sizeof(MeshVertex) +
                    data.indices.size() * windings * sizeof(uint32_t);
    }
    const ImportedMaterial* material = materialOf(model, model.meshes[v.mesh]);
    const int32_t image = material ? material->baseColorImage : -1;
    if (image < 0 || size_t(image) >= model.images.size() || !images.emplace(image, true).second)
      continue;
    const ImportedImage& picture = model.images[size_t(image)];
    cost.texels += uint64_t(picture.width) * picture.height;
    cost.bytes += picture.rgba8.size();
    cost.images.emplace_back(picture.width, picture.height);
  }
  return cost;
}

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
                                      const std::string& name, ModelTargets targets,
                                      RegisteredModel* shared) {
  using R = sim::Result<Prototype>;
  RegisteredModel local;
  RegisteredModel& registered = shared ? *shared : local;
  auto layer = [&](int32_t image) -> uint32_t {
    if (image < 0 || size_t(image) >= model.images.size()) return 0;
    auto it = registered.layerOfImage.find(image);
    if (it == registered.layerOfImage.end()) {
      it = registered.layerOfImage.emplace(image, targets.textures.add(model.images[size_t(image)]))
               .first;
    }
    return it->second;
  };
  auto meshFor = [&](const MeshVariant& v) -> std::optional<MeshId> {
    auto it = registered.meshes.find(v);
    if (it != registered.meshes.end()) return it->second;
    const MeshData& source = model.meshes[v.mesh].data;
    MeshData data =
        v.doubleSided ? rewound(source, true) : (v.mirrored ? rewound(source, false) : source);
    if (data.name.empty()) data.name = name + " mesh " + std::to_string(v.mesh);
    const Aabb box = boundsOf(data);
    MeshId id;
    if (!targets.meshes.add(std::move(data), &id)) return std::nullopt;
    targets.scene.setMeshBounds(id, box);
    registered.meshes.emplace(v, id);
    return id;
  };

  Prototype proto;
  proto.name = name;
  for (const ImportedInstance& instance : model.instances) {
    if (!draws(model, instance)) continue;
    const ImportedMesh& mesh = model.meshes[instance.mesh];
    const std::optional<MeshId> id = meshFor(meshVariant(model, instance, placement));
    if (!id)
      return R::failure(model.source.string() + ": mesh " + std::to_string(instance.mesh) +
                        " has an index outside its vertices");
    const glm::dmat4 local = placement * toMatrix(instance.transform);
    const ImportedMaterial* material = materialOf(model, mesh);
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
  std::map<const ImportedModel*, RegisteredModel> registered;
  for (const ComponentModel& entry : models) {
    if (!sim::contains(componentKeys(), entry.component))
      return R::failure("no built-in component called \"" + entry.component + "\"");
    if (!entry.model) return R::failure(entry.component + ": no model");
    for (uint32_t i = 0; i < targets.scene.prototypeCount(); ++i) {
      const Prototype& target = targets.scene.prototype(PrototypeId{i});
      if (target.component != entry.component || target.bounds.empty()) continue;
      FitDesc fitDesc;
      const glm::dvec3 size = target.bounds.size();
      fitDesc.size_m[0] = size.x;
      fitDesc.size_m[1] = size.y;
      fitDesc.size_m[2] = size.z;
      const auto fit = fitTransform(*entry.model, fitDesc);
      if (!fit) return R::failure(entry.component + ": " + fit.error());
      // Centred in the prototype's bounds, after the fit (the model itself is shared, not copied).
      const glm::dmat4 placement =
          glm::translate(glm::dmat4(1.0), target.bounds.center()) *
          glm::translate(glm::dmat4(1.0),
                         glm::dvec3(fit->offset_m[0], fit->offset_m[1], fit->offset_m[2])) *
          glm::scale(glm::dmat4(1.0), glm::dvec3(fit->scale[0], fit->scale[1], fit->scale[2]));
      auto contents = modelPrototype(*entry.model, placement, target.name, targets,
                                     &registered[entry.model.get()]);
      if (!contents) return R::failure(entry.component + ": " + contents.error());
      replacements.emplace_back(PrototypeId{i}, std::move(*contents));
    }
  }
  for (auto& [id, contents] : replacements) targets.scene.replaceContents(id, std::move(contents));
  return true;
}

}  // namespace world
