// `dcwalk asset check FILE`: says whether a glTF 2.0 file (.gltf or .glb), or an asset override
// file (.json, --assets), loads and what it holds (meshes, triangles, materials, textures) and
// will cost (triangles and vertices drawn, image sizes and texels, bytes held) against the asset
// budget that loading applies, or the reason it does not, naming the file and the place in it or
// the limit. Exit 0 when it loads, 2 when it is refused. `dcwalk asset components`: the built-in
// components an asset override file may replace.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "app/cli/commands.h"
#include "world/builders/asset_overrides.h"
#include "world/builders/builders.h"
#include "world/gltf/gltf_import.h"

namespace app {
namespace {

std::string mebibytes(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", double(bytes) / (1 << 20));
  return text;
}

// What loading will cost, against the budget loading applies (world/builders/asset_overrides.h).
void printCost(const world::ModelCost& cost) {
  const world::AssetBudget budget;
  std::cout << "  drawn      " << cost.triangles << " triangles (of " << budget.maxTriangles
            << "), " << cost.vertices << " vertices (of " << budget.maxVertices << ")\n";
  std::cout << "  images     " << cost.images.size();
  for (size_t i = 0; i < cost.images.size(); ++i)
    std::cout << (i ? ", " : ": ") << cost.images[i].first << "x" << cost.images[i].second;
  std::cout << " (" << cost.texels << " texels of " << budget.maxTexels << ")\n";
  std::cout << "  memory     " << mebibytes(cost.bytes) << " held by the world (of "
            << mebibytes(budget.maxBytes) << ")\n";
}

int runOverrideCheck(const std::string& file) {
  auto overrides = world::loadAssetOverrides(file);
  if (!overrides) {
    std::cerr << "dcwalk asset check: " << overrides.error() << "\n";
    return EXIT_BAD_INPUT;
  }
  std::cout << "ok: " << file << " loads\n";
  for (const world::ComponentModel& m : overrides->models)
    std::cout << "  " << m.component << " <- " << m.model->source.string() << "\n";
  printCost(overrides->cost);
  return EXIT_OK;
}

int runAssetCheck(const std::string& file) {
  if (std::filesystem::path(file).extension() == ".json") return runOverrideCheck(file);
  sim::Result<world::ImportedModel> model = world::importWithinBudget(file);
  if (!model) {
    std::cerr << "dcwalk asset check: " << model.error() << "\n";
    return EXIT_BAD_INPUT;
  }
  const world::ImportedModel& m = *model;
  std::cout << "ok: " << file << " loads\n"
            << "  meshes     " << m.gltfMeshCount << " (" << m.meshes.size()
            << " triangle primitives)\n"
            << "  triangles  " << m.triangleCount() << "\n"
            << "  materials  " << m.materials.size() << "\n"
            << "  textures   " << m.images.size() << "\n"
            << "  instances  " << m.instances.size() << "\n";
  if (!m.bounds.empty()) {
    char line[256];
    std::snprintf(line, sizeof line, "  size_m     %.6g x %.6g x %.6g (glTF axes, Y up)\n",
                  m.bounds.max_m[0] - m.bounds.min_m[0], m.bounds.max_m[1] - m.bounds.min_m[1],
                  m.bounds.max_m[2] - m.bounds.min_m[2]);
    std::cout << line;
  }
  printCost(world::modelCost(m));
  for (const std::string& warning : m.warnings) std::cout << "  warning: " << warning << "\n";
  return EXIT_OK;
}

int runAssetComponents() {
  for (const world::ComponentInfo& c : world::COMPONENTS) {
    std::printf("%-22s %s\n", c.key, c.description);
  }
  return EXIT_OK;
}

}  // namespace

Command addAssetCommand(CLI::App& cli) {
  auto file = std::make_shared<std::string>();
  CLI::App* sub = cli.add_subcommand("asset", "inspect user assets (glTF models)");
  sub->require_subcommand(1);
  CLI::App* check = sub->add_subcommand(
      "check",
      "Say whether a .gltf/.glb or an asset override file (.json) loads, what it holds and will "
      "cost, or why not (file and place, or the limit)");
  check->add_option("FILE", *file, "The .gltf or .glb file, or an asset override file")->required();
  CLI::App* components = sub->add_subcommand(
      "components", "List the built-in components an asset override file (--assets) may replace");
  return Command{sub, [file, check, components] {
                   if (components->parsed()) return runAssetComponents();
                   return runAssetCheck(*file);
                 }};
}

}  // namespace app
