// The fuzzed glTF entry point (see entry_points.h), apart because it needs world/.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz/entry_points.h"
#include "world/gltf/gltf_import.h"

namespace fuzzentry {

/// Writes the input into `workDir` as model.glb (when it starts with the GLB magic "glTF") or
/// model.gltf and imports it with the default limits; any file it references resolves inside
/// workDir, which holds nothing else.
inline std::string gltf(const uint8_t* data, size_t size, const std::filesystem::path& workDir) {
  const bool binary = size >= 4 && std::memcmp(data, "glTF", 4) == 0;
  const std::string name = binary ? "model.glb" : "model.gltf";
  const std::filesystem::path path = workDir / name;
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) return "";  // the work folder is unusable: not a finding about the importer
  }
  auto model = world::importGltf(path);
  if (!model) return checkNamed(model.error(), name);
  for (const auto& mesh : model->meshes) {
    const auto vertexCount = mesh.data.vertices.size();
    for (uint32_t index : mesh.data.indices)
      if (index >= vertexCount) return "accepted an index past the vertex count";
    for (const auto& vertex : mesh.data.vertices)
      for (float p : vertex.position)
        if (!std::isfinite(p)) return "accepted a non-finite vertex position";
  }
  for (const auto& instance : model->instances) {
    if (instance.mesh >= model->meshes.size()) return "an instance names a missing mesh";
    for (double t : instance.transform)
      if (!std::isfinite(t)) return "accepted a non-finite instance transform";
  }
  return "";
}

}  // namespace fuzzentry
