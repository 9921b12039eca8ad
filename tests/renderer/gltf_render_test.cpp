// Every valid Khronos sample model in ../shared/testdata/gltf/valid rendered in the model
// viewer (World::createViewer): one golden frame per model (looked at against the model's
// reference screenshot when written), and every other encoding of the same model (separate
// .bin, embedded data URIs, .glb) must render the same pixels as the first.
#include <algorithm>
#include <filesystem>
#include <map>

#include <gtest/gtest.h>

#include "tests/renderer/fixtures.h"
#include "tests/renderer/golden.h"
#include "world/world.h"

namespace {

constexpr VkExtent2D SIZE{256, 192};

// Model folder -> its .gltf/.glb files, sorted (glTF-Binary, glTF-Embedded, glTF).
std::map<std::string, std::vector<std::filesystem::path>> validModels() {
  std::map<std::string, std::vector<std::filesystem::path>> models;
  const std::filesystem::path root = testpaths::sharedDir() / "testdata/gltf/valid";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".gltf" && ext != ".glb") continue;
    const std::string model = std::filesystem::relative(entry.path(), root).begin()->string();
    models[model].push_back(entry.path());
  }
  for (auto& [name, files] : models) std::sort(files.begin(), files.end());
  return models;
}

std::string goldenName(std::string model) {
  std::replace(model.begin(), model.end(), ' ', '_');
  return "gltf_" + model;
}

renderer::Pixels renderModel(renderer::Renderer& r, const std::filesystem::path& file) {
  auto model = world::importGltf(file);
  EXPECT_TRUE(model.ok()) << model.error();
  if (!model) return {};
  auto w = world::World::createViewer(*model, world::WorldDesc{}.verticalFov_rad);
  EXPECT_TRUE(w.ok()) << w.error();
  if (!w) return {};
  const world::Station* station = (*w)->station("model");
  EXPECT_NE(station, nullptr);
  world::Camera camera;
  camera.setPose(world::toPose(station->viewpoint));
  world::RenderList list;
  (*w)->buildRenderList(camera, world::FrameDesc{SIZE.width, SIZE.height}, list);
  r.setMeshes((*w)->meshes());
  r.setTextures((*w)->textures());
  return r.renderToPixels(list, nullptr, SIZE);
}

}  // namespace

TEST(GltfRender, EveryValidSampleModelMatchesItsGoldenInEveryEncoding) {
  const auto models = validModels();
  ASSERT_GE(models.size(), 20u) << "the shared sample models are missing";
  auto r = fixtures::makeHeadless();
  ASSERT_TRUE(r);
  const uint32_t before = vkutil::validationErrorCount();
  for (const auto& [name, files] : models) {
    SCOPED_TRACE(name);
    const renderer::Pixels first = renderModel(*r, files.front());
    ASSERT_EQ(first.width, SIZE.width);
    golden::expectMatchesGolden(goldenName(name), first);
    for (size_t i = 1; i < files.size(); ++i) {
      const golden::Comparison c = golden::compare(first, renderModel(*r, files[i]));
      EXPECT_LE(double(c.differing), golden::MAX_DIFFERING_FRACTION * double(c.total))
          << files[i] << " differs from " << files.front() << " in " << c.differing << " pixels";
    }
  }
  EXPECT_EQ(vkutil::validationErrorCount(), before);
}

TEST(GltfRender, TexturedModelShowsItsImageNotPlainWhite) {
  // BoxTextured's base colour factor is white: without its texture the faces would be grey
  // shades only. Its image is mostly blue and green, so a textured face has saturated pixels.
  auto r = fixtures::makeHeadless();
  ASSERT_TRUE(r);
  const renderer::Pixels pixels = renderModel(
      *r, testpaths::sharedDir() / "testdata/gltf/valid/BoxTextured/glTF/BoxTextured.gltf");
  size_t saturated = 0;
  for (size_t i = 0; i + 3 < pixels.rgba.size(); i += 4) {
    const int hi = std::max({pixels.rgba[i], pixels.rgba[i + 1], pixels.rgba[i + 2]});
    const int lo = std::min({pixels.rgba[i], pixels.rgba[i + 1], pixels.rgba[i + 2]});
    if (hi - lo > 60) ++saturated;
  }
  EXPECT_GT(saturated, size_t(SIZE.width) * SIZE.height / 20);
}
