// What loading models costs the world, and the budget loading keeps to (issue 19, reproducer 2:
// override models that `asset check` accepted made `shot` run out of memory, because every
// prototype drawing a model got its own copy of the meshes and images).
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "tests/common/paths.h"
#include "world/builders/asset_overrides.h"
#include "world/builders/builders.h"
#include "world/builders/dimensions.h"
#include "world/world.h"

namespace {

namespace fs = std::filesystem;

const fs::path VALID = testpaths::sharedDir() / "testdata/gltf/valid";

world::ImportedModel load(const fs::path& file) {
  auto model = world::importGltf(file);
  EXPECT_TRUE(model) << model.error();
  return model ? std::move(*model) : world::ImportedModel{};
}

// Bytes of what `meshes` and `textures` hold from index `meshFrom` / `imageFrom` on.
uint64_t heldBytes(const world::World& w, size_t meshFrom, size_t imageFrom) {
  uint64_t bytes = 0;
  for (size_t i = meshFrom; i < w.meshes().meshes().size(); ++i) {
    const world::MeshData& m = w.meshes().meshes()[i];
    bytes += m.vertices.size() * sizeof(world::MeshVertex) + m.indices.size() * sizeof(uint32_t);
  }
  for (size_t i = imageFrom; i < w.textures().images().size(); ++i)
    bytes += w.textures().images()[i].rgba8.size();
  return bytes;
}

// A folder with copies of Box.glb (box1.glb, box2.glb) and an override file naming them.
struct OverrideDir {
  testpaths::TempDir folder{"asset-budget-test"};
  fs::path dir = folder.path;
  OverrideDir() {
    for (const char* name : {"box1.glb", "box2.glb"})
      fs::copy_file(VALID / "Box/glTF-Binary/Box.glb", dir / name,
                    fs::copy_options::overwrite_existing);
  }
  fs::path write(const std::string& entries) const {
    std::ofstream(dir / "overrides.json") << "{\"overrides\": [\n" << entries << "\n]}\n";
    return dir / "overrides.json";
  }
};

}  // namespace

// Box: one mesh of 12 triangles on 24 vertices (glTF/INDEX.md); BoxTextured the same with a
// 256x256 base colour image (CesiumLogoFlat.png's IHDR).
TEST(AssetBudget, CostCountsTrianglesVerticesImagesAndBytes) {
  const world::ModelCost box = world::modelCost(load(VALID / "Box/glTF-Binary/Box.glb"));
  EXPECT_EQ(box.triangles, 12u);
  EXPECT_EQ(box.vertices, 24u);
  EXPECT_EQ(box.texels, 0u);
  EXPECT_EQ(box.bytes, 24u * 36 + 36u * 4);
  const world::ModelCost textured =
      world::modelCost(load(VALID / "BoxTextured/glTF-Binary/BoxTextured.glb"));
  ASSERT_EQ(textured.images.size(), 1u);
  EXPECT_EQ(textured.images[0], std::make_pair(256u, 256u));
  EXPECT_EQ(textured.texels, 256u * 256);
  EXPECT_EQ(textured.bytes, 24u * 36 + 36u * 4 + 256u * 256 * 4);
}

// The prediction is what the world then holds: for every prototype the model replaces, its
// meshes and images once (mirrored instances included: NegativeScaleTest has them).
TEST(AssetBudget, TheWorldHoldsExactlyWhatTheCostPredicts) {
  auto dims = world::Dimensions::loadDefault();
  ASSERT_TRUE(dims) << dims.error();
  auto plain = world::World::create(*dims);
  ASSERT_TRUE(plain) << plain.error();
  const size_t meshes = (*plain)->meshes().meshes().size();
  const size_t images = (*plain)->textures().images().size();
  for (const char* file : {"BoxTextured/glTF-Binary/BoxTextured.glb",
                           "NegativeScaleTest/glTF-Binary/NegativeScaleTest.glb"}) {
    auto model = std::make_shared<const world::ImportedModel>(load(VALID / file));
    const world::ModelCost cost = world::modelCost(*model);
    world::WorldDesc desc;
    // One model on every tray, switch tray, rack and CDU: dozens of prototypes.
    for (const char* component : {world::component::COMPUTE_TRAY, world::component::SWITCH_TRAY,
                                  world::component::RACK, world::component::CDU})
      desc.componentModels.push_back({component, model});
    auto replaced = world::World::create(*dims, desc);
    ASSERT_TRUE(replaced) << replaced.error();
    uint64_t triangles = 0;
    for (size_t i = meshes; i < (*replaced)->meshes().meshes().size(); ++i)
      triangles += (*replaced)->meshes().meshes()[i].triangleCount();
    EXPECT_EQ(triangles, cost.triangles) << file;
    EXPECT_EQ((*replaced)->textures().images().size() - images, cost.images.size()) << file;
    EXPECT_EQ(heldBytes(**replaced, meshes, images), cost.bytes) << file;
  }
}

TEST(AssetBudget, OverridesBeyondTheBudgetAreRefusedNamingTheEntryAndTheLimit) {
  OverrideDir dir;
  world::AssetBudget budget;
  budget.maxTriangles = 20;  // one Box (12) fits, two do not
  const fs::path twoFiles = dir.write(
      "{\"component\": \"cooling.cdu\", \"model\": \"box1.glb\"},\n"
      "{\"component\": \"nvl72.rack\", \"model\": \"box2.glb\"}");
  auto refused = world::loadAssetOverrides(twoFiles, budget);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("overrides.json:3 (/overrides/1/model)"), std::string::npos)
      << refused.error();
  // The importer's cap is what the first model left (20 - 12), and the message says why.
  EXPECT_NE(refused.error().find("cap of 8 triangles"), std::string::npos) << refused.error();
  EXPECT_NE(refused.error().find("share 20 triangles"), std::string::npos) << refused.error();
  EXPECT_NE(refused.error().find("the models above use 12,"), std::string::npos) << refused.error();
  // The same file for both components is loaded once, and costs once.
  const fs::path oneFile = dir.write(
      "{\"component\": \"cooling.cdu\", \"model\": \"box1.glb\"},\n"
      "{\"component\": \"nvl72.rack\", \"model\": \"./box1.glb\"}");
  auto shared = world::loadAssetOverrides(oneFile, budget);
  ASSERT_TRUE(shared) << shared.error();
  ASSERT_EQ(shared->models.size(), 2u);
  EXPECT_EQ(shared->models[0].model, shared->models[1].model);
  EXPECT_EQ(shared->cost.triangles, 12u);
}

TEST(AssetBudget, TheImporterRefusesImagesBeyondTheTexelCapBeforeDecodingThem) {
  world::AssetBudget budget;
  budget.maxTexels = 256 * 256 - 1;
  auto refused =
      world::importWithinBudget(VALID / "BoxTextured/glTF-Binary/BoxTextured.glb", budget);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("BoxTextured.glb:"), std::string::npos) << refused.error();
  EXPECT_NE(refused.error().find("(/images/0)"), std::string::npos) << refused.error();
  EXPECT_NE(refused.error().find("65535"), std::string::npos) << refused.error();
  budget.maxTexels = 256 * 256;
  budget.maxBytes = 256 * 256 * 4;  // the image alone: the mesh tips it over
  auto bytes = world::importWithinBudget(VALID / "BoxTextured/glTF-Binary/BoxTextured.glb", budget);
  ASSERT_FALSE(bytes);
  EXPECT_NE(bytes.error().find("bytes, more than the 262,144 allowed"), std::string::npos)
      << bytes.error();
}

// The default budget holds the worst accepted cases: one 8192x8192 image, 4 Mi
// triangles and vertices; the importer's caps agree with it.
TEST(AssetBudget, DefaultLimitsAgree) {
  const world::AssetBudget budget;
  const world::GltfLimits limits = world::importLimits(budget);
  EXPECT_EQ(limits.maxTotalTexels, uint64_t(8192) * 8192);
  EXPECT_EQ(budget.maxTexels, uint64_t(8192) * 8192);
  EXPECT_EQ(limits.maxTotalTriangles, budget.maxTriangles);
  EXPECT_EQ(limits.maxTotalVertices, budget.maxVertices);
  world::ModelCost used;
  used.triangles = budget.maxTriangles - 5;
  used.texels = budget.maxTexels + 1;
  EXPECT_EQ(world::importLimits(budget, used).maxTotalTriangles, 5u);
  EXPECT_EQ(world::importLimits(budget, used).maxTotalTexels, 0u);
}
