// The fuzzed asset override file (see entry_points.h), apart because it needs world/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "fuzz/entry_points.h"
#include "sim/json_checker.h"
#include "world/builders/asset_overrides.h"
#include "world/builders/builders.h"

namespace fuzzentry {

/// The name the override part is written as.
inline constexpr const char* OVERRIDES_FILE = "overrides.json";

/// "" when what modelPrototype registers for `model` (meshes and images) is what modelCost
/// predicted: the figures `dcwalk asset check` prints and the budget is checked against.
inline std::string checkCostIsWhatIsHeld(const world::ImportedModel& model) {
  world::MeshLibrary meshes;
  world::TextureLibrary textures;
  world::Scene scene;
  auto proto = world::modelPrototype(model, glm::dmat4(1.0), "fuzz", {meshes, textures, scene});
  if (!proto) return "";  // a model that draws nothing: refused when the world is built
  world::ModelCost held;
  for (const world::MeshData& m : meshes.meshes()) {
    held.triangles += m.triangleCount();
    held.bytes += m.vertices.size() * sizeof(world::MeshVertex) + m.indices.size() * 4;
  }
  for (const world::TextureImage& image : textures.images()) {
    held.texels += uint64_t(image.width) * image.height;
    held.bytes += image.rgba8.size();
  }
  const world::ModelCost predicted = world::modelCost(model);
  if (held.triangles != predicted.triangles || held.texels != predicted.texels ||
      held.bytes != predicted.bytes)
    return "modelCost predicted " + std::to_string(predicted.triangles) + " triangles, " +
           std::to_string(predicted.texels) + " texels, " + std::to_string(predicted.bytes) +
           " bytes; the world holds " + std::to_string(held.triangles) + ", " +
           std::to_string(held.texels) + ", " + std::to_string(held.bytes);
  return "";
}

/// Empties `workDir`, writes the part before the first separator as overrides.json and each
/// later part i as model<i>.gltf (model<i>.glb when it starts with the GLB magic), then loads
/// overrides.json with world::loadAssetOverrides and the default budget. A refusal must name
/// overrides.json; an accepted file must name known components once each, models that stay in
/// workDir and place geometry, and a total cost within the budget that each model, drawn, holds.
inline std::string assets(const uint8_t* data, size_t size, const std::filesystem::path& workDir) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(workDir, ec))
    std::filesystem::remove_all(entry.path(), ec);
  auto parts = splitParts(std::string_view(reinterpret_cast<const char*>(data), size));
  for (size_t i = 0; i < parts.size(); ++i) {
    const bool glb = i > 0 && parts[i].size() >= 4 && std::memcmp(parts[i].data(), "glTF", 4) == 0;
    const std::string name =
        i == 0 ? OVERRIDES_FILE : "model" + std::to_string(i - 1) + (glb ? ".glb" : ".gltf");
    std::ofstream out(workDir / name, std::ios::binary | std::ios::trunc);
    out.write(parts[i].data(), static_cast<std::streamsize>(parts[i].size()));
    if (!out) return "";  // the work folder is unusable: not a finding about the loader
  }
  auto loaded = world::loadAssetOverrides(workDir / OVERRIDES_FILE);
  if (!loaded) return checkNamed(loaded.error(), OVERRIDES_FILE);
  const std::filesystem::path folder = std::filesystem::canonical(workDir, ec);
  std::set<std::string> components;
  std::set<const world::ImportedModel*> distinct;
  world::ModelCost total;
  for (const world::ComponentModel& entry : loaded->models) {
    if (!sim::contains(world::componentKeys(), entry.component))
      return "accepted an unknown component \"" + entry.component + "\"";
    if (!components.insert(entry.component).second) return "accepted " + entry.component + " twice";
    if (!entry.model) return "accepted an entry without a model";
    const std::filesystem::path rel = entry.model->source.lexically_relative(folder);
    if (rel.empty() || *rel.begin() == "..")
      return "accepted a model outside the file's folder: " + entry.model->source.string();
    if (entry.model->instances.empty() || entry.model->bounds.empty())
      return "accepted a model that places no geometry";
    if (!distinct.insert(entry.model.get()).second) continue;
    total += world::modelCost(*entry.model);
    if (std::string problem = checkCostIsWhatIsHeld(*entry.model); !problem.empty()) return problem;
  }
  if (total.triangles != loaded->cost.triangles || total.texels != loaded->cost.texels ||
      total.bytes != loaded->cost.bytes)
    return "the file's cost is not the sum of its models' costs";
  if (std::string over = world::overBudget(loaded->cost, world::AssetBudget{}); !over.empty())
    return "accepted models beyond the budget: " + over;
  return "";
}

}  // namespace fuzzentry
