// `dcwalk asset check FILE`: says whether a glTF 2.0 file (.gltf or .glb) loads and what it holds
// (meshes, triangles, materials, textures), or the reason it does not, naming the file and the
// place in it. Exit 0 when it loads, 2 when it is refused. `dcwalk asset components`: the
// built-in components an asset override file (--assets) may replace.
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "app/cli/commands.h"
#include "world/build/builders.h"
#include "world/gltf/gltf_import.h"

namespace app {
namespace {

int runAssetCheck(const std::string& file) {
  sim::Result<world::ImportedModel> model = world::importGltf(file);
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
      "check", "Say whether a .gltf/.glb loads (counts) or why not (file and place)");
  check->add_option("FILE", *file, "The .gltf or .glb file")->required();
  CLI::App* components = sub->add_subcommand(
      "components", "List the built-in components an asset override file (--assets) may replace");
  return Command{sub, [file, check, components] {
                   if (components->parsed()) return runAssetComponents();
                   return runAssetCheck(*file);
                 }};
}

}  // namespace app
