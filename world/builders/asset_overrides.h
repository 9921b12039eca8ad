// The asset override file: built-in components of the world drawn as the user's glTF models,
// each scaled to the component's real size. A JSON object:
//   {"overrides": [{"component": "nvl72.compute_tray", "model": "models/tray.glb"}, ...]}
// Model paths are relative to the file and stay inside its folder (no absolute path, no "..",
// no symbolic link out of it). Components are those of builders.h COMPONENTS; each may appear
// once; a model named twice is loaded once. Every model is imported (and so checked) here,
// before the world changes, and all of them together must fit the asset budget.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "sim/result.h"
#include "world/builders/model_prototype.h"

namespace world {

/// What the models a world loads (every override model together, or the one viewed on its own)
/// may cost it, as modelCost counts it. With the renderer's copies (the meshes once more on the
/// device, host memory on software Vulkan, and a texture array of at most 256 MiB) a run that
/// loads models at these limits stays under 2 GB (docs/reliability.md).
struct AssetBudget {
  uint64_t maxTriangles = 1ull << 22;  // drawn (4 Mi)
  uint64_t maxVertices = 1ull << 22;   // 4 Mi, 36 bytes each
  uint64_t maxTexels = 1ull << 26;     // base colour pixels: 64 Mi (one 8192x8192), 256 MiB
  uint64_t maxBytes = 384ull << 20;    // meshes and images held: 384 MiB
};

/// "" when `cost` fits `budget`; else the first limit it passes, with both figures.
std::string overBudget(const ModelCost& cost, const AssetBudget& budget);

/// The importer's caps for one more model when `used` of `budget` is spent: the triangle,
/// vertex and texel caps shrink to what is left, so a model beyond it is refused before its
/// data is allocated.
GltfLimits importLimits(const AssetBudget& budget, const ModelCost& used = {});

/// Imports `file` as a model to view on its own, within `budget`; errors name the file and the
/// limit.
sim::Result<ImportedModel> importWithinBudget(const std::filesystem::path& file,
                                              const AssetBudget& budget = {});

struct AssetOverrides {
  std::vector<ComponentModel> models;  // in file order; one model may serve several components
  ModelCost cost;                      // of every distinct model together
};

/// Reads `file` and imports its models within `budget`. Errors name the file, the line and the
/// JSON pointer (for a model that does not load: the entry, then the importer's own message).
sim::Result<AssetOverrides> loadAssetOverrides(const std::filesystem::path& file,
                                               const AssetBudget& budget = {});

}  // namespace world
