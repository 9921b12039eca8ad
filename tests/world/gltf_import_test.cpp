// glTF import over the Khronos sample models in ../shared/testdata/gltf/valid: every file loads,
// and its counts and bounds agree with what the test reads itself from the JSON, the .bin files and
// the validator figures in valid/INDEX.md. Also the fit to a real size.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "tests/common/paths.h"
#include "world/gltf/gltf_import.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path validDir() {
  return testpaths::sharedDir() / "testdata" / "gltf" / "valid";
}

std::vector<unsigned char> readBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The JSON of a .gltf, or of a .glb's first chunk (read here, independently of the importer).
json readGltfJson(const fs::path& path) {
  std::vector<unsigned char> bytes = readBytes(path);
  if (path.extension() == ".glb") {
    uint32_t length = 0;
    std::memcpy(&length, bytes.data() + 12, 4);
    return json::parse(bytes.begin() + 20, bytes.begin() + 20 + length);
  }
  return json::parse(bytes.begin(), bytes.end());
}

/// Validator triangle counts per file, from the model table of valid/INDEX.md.
std::map<std::string, uint64_t> indexTriangles() {
  std::ifstream in(validDir() / "INDEX.md");
  std::map<std::string, uint64_t> out;
  std::string line;
  const std::regex file("`([^`]+\\.gl(tf|b))`");
  while (std::getline(in, line)) {
    if (line.rfind("| dev |", 0) != 0 && line.rfind("| test |", 0) != 0) continue;
    std::vector<std::string> cells;
    size_t start = 1;
    for (size_t bar = line.find('|', start); bar != std::string::npos;
         bar = line.find('|', start)) {
      cells.push_back(line.substr(start, bar - start));
      start = bar + 1;
    }
    if (cells.size() < 7) continue;
    const uint64_t triangles = std::stoull(cells[5]);
    for (std::sregex_iterator it(cells[2].begin(), cells[2].end(), file), end; it != end; ++it)
      out[(*it)[1].str()] = triangles;
  }
  return out;
}

std::vector<std::string> validFiles() {
  std::vector<std::string> out;
  if (!fs::is_directory(validDir())) return out;
  for (const auto& entry : fs::recursive_directory_iterator(validDir())) {
    const std::string ext = entry.path().extension().string();
    if (ext == ".gltf" || ext == ".glb")
      out.push_back(fs::relative(entry.path(), validDir()).generic_string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// Mesh instances the default scene places: nodes reachable from its roots, times their
/// triangle primitives (modes 4, 5, 6; absent means 4).
size_t expectedInstances(const json& doc) {
  const json nodes = doc.value("nodes", json::array());
  std::vector<int> stack;
  if (doc.contains("scenes")) {
    const json& scene = doc["scenes"][doc.value("scene", 0)];
    for (const json& n : scene.value("nodes", json::array())) stack.push_back(n.get<int>());
  } else {
    std::set<int> children;
    for (const json& node : nodes)
      for (const json& c : node.value("children", json::array())) children.insert(c.get<int>());
    for (int i = 0; i < int(nodes.size()); ++i)
      if (!children.count(i)) stack.push_back(i);
  }
  size_t count = 0;
  while (!stack.empty()) {
    const json& node = nodes[size_t(stack.back())];
    stack.pop_back();
    if (node.contains("mesh")) {
      for (const json& p : doc["meshes"][node["mesh"].get<size_t>()]["primitives"])
        if (p.value("mode", 4) >= 4) ++count;
    }
    for (const json& c : node.value("children", json::array())) stack.push_back(c.get<int>());
  }
  return count;
}

class ValidModel : public testing::TestWithParam<std::string> {};

TEST(GltfValidCorpus, EveryFileIsListedInTheIndex) {
  const auto triangles = indexTriangles();
  const auto files = validFiles();
  ASSERT_GE(files.size(), 21u) << "missing test data under " << validDir();
  for (const std::string& file : files) EXPECT_TRUE(triangles.count(file)) << file;
  for (const auto& [file, count] : triangles) EXPECT_TRUE(fs::exists(validDir() / file)) << file;
}

TEST_P(ValidModel, LoadsWithTheCountsItsJsonDeclares) {
  const fs::path path = validDir() / GetParam();
  sim::Result<world::ImportedModel> model = world::importGltf(path);
  ASSERT_TRUE(model.ok()) << model.error();
  const json doc = readGltfJson(path);

  EXPECT_EQ(model->triangleCount(), indexTriangles().at(GetParam()));
  EXPECT_EQ(model->gltfMeshCount, doc.value("meshes", json::array()).size());
  EXPECT_EQ(model->materials.size(), doc.value("materials", json::array()).size());
  EXPECT_EQ(model->images.size(), doc.value("images", json::array()).size());
  EXPECT_EQ(model->instances.size(), expectedInstances(doc));

  world::MeshLibrary library;
  for (const world::ImportedMesh& mesh : model->meshes) {
    world::MeshId id;
    EXPECT_TRUE(library.add(mesh.data, &id))
        << mesh.data.name;  // indices in range, whole triangles
    // The POSITION accessor's declared min/max is the box of the imported vertices.
    const json& primitive = doc["meshes"][mesh.sourceMesh]["primitives"][mesh.sourcePrimitive];
    const json& accessor = doc["accessors"][primitive["attributes"]["POSITION"].get<size_t>()];
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (const world::MeshVertex& v : mesh.data.vertices) {
      for (int k = 0; k < 3; ++k) {
        lo[k] = std::min(lo[k], v.position[k]);
        hi[k] = std::max(hi[k], v.position[k]);
        const float n = std::hypot(v.normal[0], v.normal[1], v.normal[2]);
        EXPECT_NEAR(n, 1.0f, 2e-2f) << mesh.data.name;
      }
    }
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(lo[k], accessor["min"][size_t(k)].get<double>(), 1e-4) << mesh.data.name;
      EXPECT_NEAR(hi[k], accessor["max"][size_t(k)].get<double>(), 1e-4) << mesh.data.name;
    }
  }
  for (const world::ImportedImage& image : model->images) {
    EXPECT_GT(image.width, 0u);
    EXPECT_EQ(image.rgba8.size(), size_t(image.width) * image.height * 4);
  }
  for (const world::ImportedMaterial& material : model->materials)
    EXPECT_LT(material.baseColorImage, int32_t(model->images.size()));
}

INSTANTIATE_TEST_SUITE_P(Khronos, ValidModel, testing::ValuesIn(validFiles()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

TEST(GltfImport, BoxIsAUnitCubeAfterItsRootMatrix) {
  // Box.gltf: a cube from -0.5 to 0.5 (POSITION min/max), turned 90 degrees about x by its root.
  auto model = world::importGltf(validDir() / "Box/glTF/Box.gltf");
  ASSERT_TRUE(model.ok()) << model.error();
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(model->bounds.min_m[k], -0.5, 1e-6);
    EXPECT_NEAR(model->bounds.max_m[k], 0.5, 1e-6);
  }
  ASSERT_EQ(model->materials.size(), 1u);
  EXPECT_EQ(model->materials[0].baseColorImage, -1);
  EXPECT_FLOAT_EQ(model->materials[0].metallicFactor, 0.0f);  // Box.gltf: "metallicFactor": 0.0
}

TEST(GltfImport, TriangleWithoutIndicesGetsItsFaceNormal) {
  auto model =
      world::importGltf(validDir() / "TriangleWithoutIndices/glTF/TriangleWithoutIndices.gltf");
  ASSERT_TRUE(model.ok()) << model.error();
  ASSERT_EQ(model->meshes.size(), 1u);
  const auto& v = model->meshes[0].data.vertices;
  ASSERT_EQ(v.size(), 3u);
  const double a[3] = {v[1].position[0] - v[0].position[0], v[1].position[1] - v[0].position[1],
                       v[1].position[2] - v[0].position[2]};
  const double b[3] = {v[2].position[0] - v[0].position[0], v[2].position[1] - v[0].position[1],
                       v[2].position[2] - v[0].position[2]};
  double n[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  const double length = std::hypot(n[0], n[1], n[2]);
  for (const auto& corner : v)
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(corner.normal[k], n[k] / length, 1e-6);
}

TEST(GltfImport, SparseValuesReplaceTheirVertices) {
  // SimpleSparseAccessor.gltf: accessor 1 (POSITION, 14 x VEC3 in bufferView 1) has sparse
  // {count 3, u16 indices in bufferView 2, values in bufferView 3}; indices are accessor 0 (u16,
  // bufferView 0). Rebuild the expected positions here from the .bin bytes. The mesh has no
  // normals, so the importer gives every triangle corner its own vertex, in index order.
  const fs::path dir = validDir() / "SimpleSparseAccessor/glTF";
  auto model = world::importGltf(dir / "SimpleSparseAccessor.gltf");
  ASSERT_TRUE(model.ok()) << model.error();
  const json doc = readGltfJson(dir / "SimpleSparseAccessor.gltf");
  const std::vector<unsigned char> bin = readBytes(dir / "SimpleSparseAccessor.bin");
  auto viewStart = [&](const json& ref) {
    return doc["bufferViews"][ref["bufferView"].get<size_t>()].value("byteOffset", size_t(0)) +
           ref.value("byteOffset", size_t(0));
  };
  const json& positionAccessor = doc["accessors"][1];
  const json& indexAccessor = doc["accessors"][0];
  const json& sparse = positionAccessor["sparse"];
  std::vector<float> positions(positionAccessor["count"].get<size_t>() * 3);
  std::memcpy(positions.data(), bin.data() + viewStart(positionAccessor), positions.size() * 4);
  for (int s = 0; s < sparse["count"].get<int>(); ++s) {
    uint16_t index = 0;
    std::memcpy(&index, bin.data() + viewStart(sparse["indices"]) + 2 * size_t(s), 2);
    std::memcpy(&positions[size_t(index) * 3],
                bin.data() + viewStart(sparse["values"]) + 12 * size_t(s), 12);
  }
  std::vector<uint16_t> indices(indexAccessor["count"].get<size_t>());
  std::memcpy(indices.data(), bin.data() + viewStart(indexAccessor), indices.size() * 2);

  ASSERT_EQ(model->meshes.size(), 1u);
  const auto& vertices = model->meshes[0].data.vertices;
  ASSERT_EQ(vertices.size(), indices.size());
  for (size_t corner = 0; corner < indices.size(); ++corner) {
    for (int k = 0; k < 3; ++k)
      EXPECT_EQ(vertices[corner].position[k], positions[size_t(indices[corner]) * 3 + size_t(k)])
          << corner;
  }
}

TEST(GltfImport, TexturedBoxDecodesItsPngAtTheHeaderSize) {
  const fs::path dir = validDir() / "BoxTextured/glTF";
  auto model = world::importGltf(dir / "BoxTextured.gltf");
  ASSERT_TRUE(model.ok()) << model.error();
  const json doc = readGltfJson(dir / "BoxTextured.gltf");
  const std::vector<unsigned char> png =
      readBytes(dir / doc["images"][0]["uri"].get<std::string>());
  ASSERT_GE(png.size(), 24u);
  const uint32_t width = (uint32_t(png[16]) << 24) | (png[17] << 16) | (png[18] << 8) | png[19];
  const uint32_t height = (uint32_t(png[20]) << 24) | (png[21] << 16) | (png[22] << 8) | png[23];
  ASSERT_EQ(model->images.size(), 1u);
  EXPECT_EQ(model->images[0].width, width);
  EXPECT_EQ(model->images[0].height, height);
  ASSERT_EQ(model->materials.size(), 1u);
  EXPECT_EQ(model->materials[0].baseColorImage, doc["textures"][0]["source"].get<int>());
}

TEST(GltfImport, ImageDimensionCapIsEnforced) {
  world::GltfLimits limits;
  limits.maxImageDimension = 16;
  auto model = world::importGltf(validDir() / "BoxTextured/glTF-Binary/BoxTextured.glb", limits);
  ASSERT_FALSE(model.ok());
  EXPECT_NE(model.error().find("BoxTextured.glb"), std::string::npos) << model.error();
  EXPECT_NE(model.error().find("/images/0"), std::string::npos) << model.error();
}

TEST(GltfFit, UniformFitUsesTheTightestAxisAndCentres) {
  auto model = world::importGltf(validDir() / "Box/glTF/Box.gltf");
  ASSERT_TRUE(model.ok()) << model.error();
  // A rack-sized box (600 x 2236 x 1068 mm): the unit cube must shrink to the 0.6 m side.
  auto scale = world::fitToSize(*model, {.size_m = {0.6, 2.236, 1.068}});
  ASSERT_TRUE(scale.ok()) << scale.error();
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR((*scale)[size_t(k)], 0.6, 1e-12);
    EXPECT_NEAR(model->bounds.min_m[k], -0.3, 1e-9);
    EXPECT_NEAR(model->bounds.max_m[k], 0.3, 1e-9);
  }
}

TEST(GltfFit, NonUniformFitMatchesEveryAxisAtTheMinCorner) {
  auto model = world::importGltf(validDir() / "Box/glTF-Binary/Box.glb");
  ASSERT_TRUE(model.ok()) << model.error();
  const double size[3] = {0.6, 0.04445, 1.068};  // a 1U tray: 44.45 mm high
  auto scale = world::fitToSize(*model, {.size_m = {size[0], size[1], size[2]},
                                         .uniform = false,
                                         .anchor = world::FitAnchor::MinCorner});
  ASSERT_TRUE(scale.ok()) << scale.error();
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(model->bounds.min_m[k], 0.0, 1e-9);
    EXPECT_NEAR(model->bounds.max_m[k], size[k], 1e-9);
  }
}

TEST(GltfFit, RefusesNonPositiveSizes) {
  auto model = world::importGltf(validDir() / "Box/glTF/Box.gltf");
  ASSERT_TRUE(model.ok()) << model.error();
  EXPECT_FALSE(world::fitToSize(*model, {.size_m = {1, 0, 1}}).ok());
  EXPECT_FALSE(world::fitToSize(*model, {.size_m = {1, NAN, 1}}).ok());
}

}  // namespace
