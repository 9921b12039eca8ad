// The asset override file: built-in components of the world drawn as the user's glTF models,
// each scaled to the component's real size. A JSON object:
//   {"overrides": [{"component": "nvl72.compute_tray", "model": "models/tray.glb"}, ...]}
// Model paths are relative to the file. Components are those of builders.h COMPONENTS; each may
// appear once. Every model is imported (and so checked) here, before the world changes.
#pragma once

#include <filesystem>
#include <vector>

#include "sim/result.h"
#include "world/build/model_prototype.h"

namespace world {

/// Reads `file` and imports its models. Errors name the file, the line and the JSON pointer
/// (for a model that does not load: the entry, then the importer's own message).
sim::Result<std::vector<ComponentModel>> loadAssetOverrides(const std::filesystem::path& file,
                                                            const GltfLimits& limits = {});

}  // namespace world
