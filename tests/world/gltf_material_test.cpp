// What glTF materials carry into the world: COLOR_0 vertex colours (every format the spec allows,
// interleaved and sparse), KHR_texture_transform baked into the uvs with its texCoord override,
// and the samplers' wrap modes on world::Look and gpu::Instance::material.w. Expected values are
// decoded by the test itself from the JSON and the binary data, or written into the test's files.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <glm/glm.hpp>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/common/paths.h"
#include "tests/world/gltf_test_files.h"
#include "world/builders/model_prototype.h"
#include "world/gltf/gltf_import.h"
#include "world/scene/scene.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace gltftest;

constexpr int REPEAT = 10497, CLAMP_TO_EDGE = 33071, MIRRORED_REPEAT = 33648;  // glTF 2.0, 5.26

fs::path validDir() {
  return testpaths::sharedDir() / "testdata" / "gltf" / "valid";
}

std::vector<uint8_t> readBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The JSON and buffer 0 of a .gltf (its .bin) or a .glb (its chunks), read by the test itself.
std::pair<json, std::vector<uint8_t>> readAsset(const fs::path& path) {
  const std::vector<uint8_t> bytes = readBytes(path);
  if (path.extension() != ".glb") {
    json doc = json::parse(bytes.begin(), bytes.end());
    return {doc, readBytes(path.parent_path() / doc["buffers"][0]["uri"].get<std::string>())};
  }
  uint32_t jsonLength = 0, binLength = 0;
  std::memcpy(&jsonLength, bytes.data() + 12, 4);
  std::memcpy(&binLength, bytes.data() + 20 + jsonLength, 4);
  const auto bin = bytes.begin() + 20 + jsonLength + 8;
  return {json::parse(bytes.begin() + 20, bytes.begin() + 20 + jsonLength),
          std::vector<uint8_t>(bin, bin + binLength)};
}

/// Accessor `index` of buffer 0 as floats (FLOAT, or normalized UNSIGNED_BYTE/SHORT), no sparse.
std::vector<double> decodeAccessor(const json& doc, const std::vector<uint8_t>& bin, int index) {
  const json& accessor = doc["accessors"][index];
  const json& view = doc["bufferViews"][accessor["bufferView"].get<int>()];
  const int type = accessor["componentType"];
  const std::string shape = accessor["type"];
  const size_t n = shape == "VEC2" ? 2 : shape == "VEC3" ? 3 : 4;
  const size_t bytes = type == F32 ? 4 : type == U16 ? 2 : 1;
  const size_t stride = view.value("byteStride", size_t(n * bytes));
  const size_t base = view.value("byteOffset", size_t(0)) + accessor.value("byteOffset", size_t(0));
  std::vector<double> out;
  for (size_t i = 0; i < accessor["count"].get<size_t>(); ++i) {
    for (size_t c = 0; c < n; ++c) {
      const uint8_t* p = bin.data() + base + i * stride + c * bytes;
      if (type == F32) {
        float f;
        std::memcpy(&f, p, 4);
        out.push_back(f);
      } else if (type == U16) {
        uint16_t v;
        std::memcpy(&v, p, 2);
        out.push_back(v / 65535.0);
      } else {
        out.push_back(*p / 255.0);
      }
    }
  }
  return out;
}

/// 8-bit unorm of a colour component: clamped to [0, 1], rounded to nearest.
uint8_t unorm8(double v) {
  return uint8_t(std::lround(std::clamp(v, 0.0, 1.0) * 255.0));
}

const world::ImportedMesh& meshOf(const world::ImportedModel& model, uint32_t mesh,
                                  uint32_t primitive = 0) {
  for (const world::ImportedMesh& m : model.meshes) {
    if (m.sourceMesh == mesh && m.sourcePrimitive == primitive) return m;
  }
  ADD_FAILURE() << "no imported mesh for meshes[" << mesh << "].primitives[" << primitive << "]";
  return model.meshes.front();
}

// --- BoxVertexColors (Khronos sample): COLOR_0, VEC3 FLOAT in an interleaved-stride view ----

class VertexColorFile : public testing::TestWithParam<std::string> {};

TEST_P(VertexColorFile, ColoursAreTheAccessorValuesAsUnorm8) {
  const fs::path file = validDir() / "BoxVertexColors" / GetParam();
  auto model = world::importGltf(file);
  ASSERT_TRUE(model.ok()) << model.error();
  const auto [doc, bin] = readAsset(file);
  const json& attributes = doc["meshes"][0]["primitives"][0]["attributes"];
  ASSERT_EQ(doc["accessors"][attributes["COLOR_0"].get<int>()]["type"], "VEC3");
  const std::vector<double> colors = decodeAccessor(doc, bin, attributes["COLOR_0"].get<int>());
  const world::ImportedMesh& mesh = meshOf(*model, 0);
  ASSERT_EQ(mesh.data.vertices.size() * 3, colors.size());  // NORMAL given: vertices kept in order
  std::set<uint32_t> distinct;
  for (size_t i = 0; i < mesh.data.vertices.size(); ++i) {
    const uint8_t* got = mesh.data.vertices[i].color;
    for (size_t c = 0; c < 3; ++c) EXPECT_EQ(got[c], unorm8(colors[i * 3 + c])) << i << "." << c;
    EXPECT_EQ(got[3], 255) << "VEC3 colours are opaque";
    distinct.insert(uint32_t(got[0]) | uint32_t(got[1]) << 8 | uint32_t(got[2]) << 16);
  }
  EXPECT_GT(distinct.size(), 4u) << "the box's corners have different colours";
}

INSTANTIATE_TEST_SUITE_P(Khronos, VertexColorFile,
                         testing::Values("glTF/BoxVertexColors.gltf",
                                         "glTF-Binary/BoxVertexColors.glb"),
                         [](const auto& info) { return info.index == 0 ? "gltf" : "glb"; });

// --- Files written by the test ------------------------------------------------------------------

/// A quad (4 vertices with normals, 2 triangles) in buffer 0; attributes and materials are
/// added by each test.
struct QuadAsset {
  std::vector<uint8_t> bin;
  json views = json::array(), accessors = json::array();
  json attributes;

  template <class T>
  size_t addView(const std::vector<T>& values, size_t stride = 0) {
    const size_t offset = bin.size();
    bin.resize(offset + values.size() * sizeof(T));
    std::memcpy(bin.data() + offset, values.data(), values.size() * sizeof(T));
    while (bin.size() % 4) bin.push_back(0);
    json view = {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", values.size() * sizeof(T)}};
    if (stride) view["byteStride"] = stride;
    views.push_back(view);
    return views.size() - 1;
  }
  size_t addAccessor(json accessor) {
    accessors.push_back(std::move(accessor));
    return accessors.size() - 1;
  }
  template <class T>
  size_t add(const std::vector<T>& values, int componentType, const char* type,
             bool normalized = false) {
    json accessor = {{"bufferView", addView(values)},
                     {"componentType", componentType},
                     {"count", 4},
                     {"type", type}};
    if (normalized) accessor["normalized"] = true;
    return addAccessor(accessor);
  }
  explicit QuadAsset(bool withPositions = true) {
    if (!withPositions) return;
    attributes["POSITION"] = add(POSITIONS, F32, "VEC3");
    attributes["NORMAL"] = add(NORMALS, F32, "VEC3");
  }
  /// The document with one primitive per material in `materials` (none: one primitive without).
  json document(const json& materials = json::array(), const json& extra = json::object()) {
    const size_t indices =
        addAccessor({{"bufferView", addView(std::vector<uint16_t>{0, 1, 2, 0, 2, 3})},
                     {"componentType", U16},
                     {"count", 6},
                     {"type", "SCALAR"}});
    json primitives = json::array();
    for (size_t m = 0; m < std::max<size_t>(materials.size(), 1); ++m) {
      json primitive = {{"attributes", attributes}, {"indices", indices}};
      if (!materials.empty()) primitive["material"] = m;
      primitives.push_back(primitive);
    }
    json doc = {{"asset", {{"version", "2.0"}}},
                {"buffers",
                 {{{"byteLength", bin.size()},
                   {"uri", "data:application/octet-stream;base64," + base64(bin)}}}},
                {"bufferViews", views},
                {"accessors", accessors},
                {"meshes", {{{"primitives", primitives}}}},
                {"nodes", {{{"mesh", 0}}}},
                {"scenes", {{{"nodes", {0}}}}},
                {"scene", 0}};
    if (!materials.empty()) doc["materials"] = materials;
    for (const auto& [key, value] : extra.items()) doc[key] = value;
    return doc;
  }
  static inline const std::vector<float> POSITIONS = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
  static inline const std::vector<float> NORMALS = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
};

sim::Result<world::ImportedModel> load(const TempDir& dir, const json& doc) {
  const fs::path file = dir.path / "asset.gltf";
  std::ofstream(file) << doc.dump(1);
  return world::importGltf(file);
}

/// The colour of each of the quad's 4 vertices.
std::vector<std::array<int, 4>> quadColors(const world::ImportedModel& model) {
  std::vector<std::array<int, 4>> out;
  for (const world::MeshVertex& v : model.meshes.at(0).data.vertices)
    out.push_back({v.color[0], v.color[1], v.color[2], v.color[3]});
  return out;
}

TEST(GltfVertexColor, NormalizedUnsignedByteVec4IsKeptAsIs) {
  TempDir dir;
  QuadAsset quad;
  const std::vector<uint8_t> rgba = {255, 0, 0, 255, 0, 128, 0, 64, 1, 2, 3, 4, 10, 20, 30, 0};
  quad.attributes["COLOR_0"] = quad.add(rgba, U8, "VEC4", true);
  auto model = load(dir, quad.document());
  ASSERT_TRUE(model.ok()) << model.error();
  const auto colors = quadColors(*model);
  ASSERT_EQ(colors.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    for (size_t c = 0; c < 4; ++c) EXPECT_EQ(colors[i][c], rgba[i * 4 + c]) << i << "." << c;
  }
  EXPECT_TRUE(model->warnings.empty());
}

TEST(GltfVertexColor, NormalizedUnsignedShortRoundsToTheNearestStep) {
  TempDir dir;
  QuadAsset quad;
  const std::vector<uint16_t> rgba = {0,   65535, 32768, 1000,  40000, 65535, 0, 65535,
                                      257, 514,   771,   65535, 65535, 65535, 1, 2};
  quad.attributes["COLOR_0"] = quad.add(rgba, U16, "VEC4", true);
  auto model = load(dir, quad.document());
  ASSERT_TRUE(model.ok()) << model.error();
  const auto colors = quadColors(*model);
  // 32768/65535*255 = 127.502 -> 128; 1000 -> 3.891 -> 4; 40000 -> 155.646 -> 156; 257k -> k.
  const int expected[16] = {0, 255, 128, 4, 156, 255, 0, 255, 1, 2, 3, 255, 255, 255, 0, 0};
  for (size_t i = 0; i < 4; ++i) {
    for (size_t c = 0; c < 4; ++c) EXPECT_EQ(colors[i][c], expected[i * 4 + c]) << i << "." << c;
  }
}

TEST(GltfVertexColor, FloatVec3IsOpaqueAndClampedWithAWarning) {
  TempDir dir;
  QuadAsset quad;
  quad.attributes["COLOR_0"] = quad.add(
      std::vector<float>{1.5f, -0.5f, 0.25f, 0, 0, 0, 1, 1, 1, 0.5f, 0.2f, 0.7f}, F32, "VEC3");
  auto model = load(dir, quad.document());
  ASSERT_TRUE(model.ok()) << model.error();
  const auto colors = quadColors(*model);
  // 0.25*255 = 63.75 -> 64; 0.5 -> 127.5 -> 128; 0.2 -> 51; 0.7 -> 178.5 -> 179.
  const std::array<int, 4> expected[4] = {
      {255, 0, 64, 255}, {0, 0, 0, 255}, {255, 255, 255, 255}, {128, 51, 179, 255}};
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(colors[i], expected[i]) << i;
  ASSERT_EQ(model->warnings.size(), 1u);
  EXPECT_NE(model->warnings[0].find("asset.gltf"), std::string::npos) << model->warnings[0];
  EXPECT_NE(model->warnings[0].find("/meshes/0/primitives/0/attributes/COLOR_0"), std::string::npos)
      << model->warnings[0];
}

TEST(GltfVertexColor, InterleavedWithPositionAndNormal) {
  TempDir dir;
  QuadAsset quad(false);
  // Per vertex: position (12 bytes), normal (12), RGBA8 (4): byteStride 28.
  std::vector<uint8_t> interleaved;
  const uint8_t rgba[4][4] = {
      {10, 20, 30, 40}, {50, 60, 70, 80}, {90, 100, 110, 120}, {1, 2, 3, 4}};
  for (size_t i = 0; i < 4; ++i) {
    const auto* p = reinterpret_cast<const uint8_t*>(&QuadAsset::POSITIONS[i * 3]);
    const auto* n = reinterpret_cast<const uint8_t*>(&QuadAsset::NORMALS[i * 3]);
    interleaved.insert(interleaved.end(), p, p + 12);
    interleaved.insert(interleaved.end(), n, n + 12);
    interleaved.insert(interleaved.end(), rgba[i], rgba[i] + 4);
  }
  const size_t view = quad.addView(interleaved, 28);
  auto attribute = [&](size_t offset, int componentType, const char* type, bool normalized) {
    json accessor = {{"bufferView", view},
                     {"byteOffset", offset},
                     {"componentType", componentType},
                     {"count", 4},
                     {"type", type}};
    if (normalized) accessor["normalized"] = true;
    return quad.addAccessor(accessor);
  };
  quad.attributes["POSITION"] = attribute(0, F32, "VEC3", false);
  quad.attributes["NORMAL"] = attribute(12, F32, "VEC3", false);
  quad.attributes["COLOR_0"] = attribute(24, U8, "VEC4", true);
  auto model = load(dir, quad.document());
  ASSERT_TRUE(model.ok()) << model.error();
  const auto colors = quadColors(*model);
  for (size_t i = 0; i < 4; ++i) {
    for (size_t c = 0; c < 4; ++c) EXPECT_EQ(colors[i][c], rgba[i][c]) << i << "." << c;
    EXPECT_EQ(model->meshes[0].data.vertices[i].position[0], QuadAsset::POSITIONS[i * 3]);
  }
}

TEST(GltfVertexColor, SparseValuesReplaceTheirVertices) {
  TempDir dir;
  QuadAsset quad;
  const size_t base = quad.addView(std::vector<float>(16, 0.5f));
  const size_t sparseIndices = quad.addView(std::vector<uint16_t>{1, 3});
  const size_t sparseValues = quad.addView(std::vector<float>{1, 0, 0, 1, 0, 0, 1, 0.25f});
  quad.attributes["COLOR_0"] =
      quad.addAccessor({{"bufferView", base},
                        {"componentType", F32},
                        {"count", 4},
                        {"type", "VEC4"},
                        {"sparse",
                         {{"count", 2},
                          {"indices", {{"bufferView", sparseIndices}, {"componentType", U16}}},
                          {"values", {{"bufferView", sparseValues}}}}}});
  auto model = load(dir, quad.document());
  ASSERT_TRUE(model.ok()) << model.error();
  const auto colors = quadColors(*model);
  const std::array<int, 4> half = {128, 128, 128, 128};  // 0.5*255 = 127.5 -> 128
  EXPECT_EQ(colors[0], half);
  EXPECT_EQ(colors[1], (std::array<int, 4>{255, 0, 0, 255}));
  EXPECT_EQ(colors[2], half);
  EXPECT_EQ(colors[3], (std::array<int, 4>{0, 0, 255, 64}));  // 0.25*255 = 63.75 -> 64
}

TEST(GltfVertexColor, WithoutColor0VerticesAreWhite) {
  TempDir dir;
  QuadAsset quad;
  auto model = load(dir, quad.document());
  ASSERT_TRUE(model.ok()) << model.error();
  for (const auto& color : quadColors(*model))
    EXPECT_EQ(color, (std::array<int, 4>{255, 255, 255, 255}));
}

// --- KHR_texture_transform --------------------------------------------------------------------

using Mat3 = std::array<double, 9>;  // row-major

Mat3 multiply(const Mat3& a, const Mat3& b) {
  Mat3 out{};
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      for (int k = 0; k < 3; ++k)
        out[size_t(r * 3 + c)] += a[size_t(r * 3 + k)] * b[size_t(k * 3 + c)];
    }
  }
  return out;
}

/// T * R * S of a KHR_texture_transform object, as the extension's README writes it: rotation
/// r turns the uvs counter-clockwise, u' = cos r * u + sin r * v, v' = -sin r * u + cos r * v.
Mat3 transformMatrix(const json& extension) {
  const json offset = extension.value("offset", json{0.0, 0.0});
  const json scale = extension.value("scale", json{1.0, 1.0});
  const double r = extension.value("rotation", 0.0);
  const Mat3 t = {1, 0, offset[0].get<double>(), 0, 1, offset[1].get<double>(), 0, 0, 1};
  const Mat3 rot = {std::cos(r), std::sin(r), 0, -std::sin(r), std::cos(r), 0, 0, 0, 1};
  const Mat3 s = {scale[0].get<double>(), 0, 0, 0, scale[1].get<double>(), 0, 0, 0, 1};
  return multiply(t, multiply(rot, s));
}

std::array<double, 2> apply(const Mat3& m, double u, double v) {
  return {m[0] * u + m[1] * v + m[2], m[3] * u + m[4] * v + m[5]};
}

fs::path textureTransformFile() {
  return validDir() / "TextureTransformTest/glTF/TextureTransformTest.gltf";
}

TEST(GltfTextureTransform, SampleModelUvsAreTheTransformOfItsTexcoords) {
  auto model = world::importGltf(textureTransformFile());
  ASSERT_TRUE(model.ok()) << model.error();
  const auto [doc, bin] = readAsset(textureTransformFile());
  int transformed = 0;
  for (uint32_t m = 0; m < doc["meshes"].size(); ++m) {
    const json& primitive = doc["meshes"][m]["primitives"][0];
    const json& info = doc["materials"][primitive["material"].get<int>()]["pbrMetallicRoughness"]
                          ["baseColorTexture"];
    const int set = info.value("texCoord", 0);
    const std::vector<double> uvs = decodeAccessor(
        doc, bin, primitive["attributes"]["TEXCOORD_" + std::to_string(set)].get<int>());
    const std::vector<double> positions =
        decodeAccessor(doc, bin, primitive["attributes"]["POSITION"].get<int>());
    const Mat3 matrix = transformMatrix(
        info.value("extensions", json::object()).value("KHR_texture_transform", json::object()));
    if (info.contains("extensions")) ++transformed;
    const world::ImportedMesh& mesh = meshOf(*model, m);
    ASSERT_FALSE(mesh.data.vertices.empty());
    // No NORMAL: the importer gives each triangle its own corners; match them by position.
    for (const world::MeshVertex& v : mesh.data.vertices) {
      size_t source = SIZE_MAX;
      for (size_t i = 0; i < positions.size() / 3; ++i) {
        if (positions[i * 3] == v.position[0] && positions[i * 3 + 1] == v.position[1]) source = i;
      }
      ASSERT_NE(source, SIZE_MAX);
      const auto expected = apply(matrix, uvs[source * 2], uvs[source * 2 + 1]);
      EXPECT_NEAR(v.uv[0], expected[0], 1e-6) << doc["meshes"][m]["name"] << " vertex " << source;
      EXPECT_NEAR(v.uv[1], expected[1], 1e-6) << doc["meshes"][m]["name"] << " vertex " << source;
    }
  }
  EXPECT_EQ(transformed, 6) << "six quads use KHR_texture_transform (the model's README)";
}

/// The uv the imported mesh interpolates at model point (x, y) (an affine map over a flat quad).
std::array<double, 2> uvAt(const world::ImportedMesh& mesh, double x, double y) {
  const world::MeshVertex& a = mesh.data.vertices[mesh.data.indices[0]];
  const world::MeshVertex& b = mesh.data.vertices[mesh.data.indices[1]];
  const world::MeshVertex& c = mesh.data.vertices[mesh.data.indices[2]];
  const double e1x = b.position[0] - a.position[0], e1y = b.position[1] - a.position[1];
  const double e2x = c.position[0] - a.position[0], e2y = c.position[1] - a.position[1];
  const double det = e1x * e2y - e2x * e1y;
  const double px = x - a.position[0], py = y - a.position[1];
  const double s = (px * e2y - e2x * py) / det, t = (e1x * py - px * e1y) / det;  // barycentric
  return {a.uv[0] + s * (b.uv[0] - a.uv[0]) + t * (c.uv[0] - a.uv[0]),
          a.uv[1] + s * (b.uv[1] - a.uv[1]) + t * (c.uv[1] - a.uv[1])};
}

/// Translation of the node called `name`.
std::array<double, 2> nodeXY(const json& doc, const std::string& name) {
  for (const json& node : doc["nodes"]) {
    if (node.value("name", "") == name)
      return {node["translation"][0].get<double>(), node["translation"][1].get<double>()};
  }
  ADD_FAILURE() << "no node " << name;
  return {0, 0};
}

// The sample places a green marker where the arrow points when the transform is right and a
// yellow one where it points when the transform is ignored (its README). So the transformed uv
// at the green marker must be the untransformed uv at the yellow one: this checks the rotation's
// direction against the sample's geometry rather than against a formula.
TEST(GltfTextureTransform, ArrowsPointAtTheSamplesCorrectMarkers) {
  auto model = world::importGltf(textureTransformFile());
  ASSERT_TRUE(model.ok()) << model.error();
  const auto [doc, bin] = readAsset(textureTransformFile());
  // The quads' positions span [-0.5, 0.5]^2 with uv (0,0) at the top left (x = u - 0.5,
  // y = 0.5 - v), read from the file's accessors 0 and 1.
  const std::vector<double> positions = decodeAccessor(doc, bin, 0);
  const std::vector<double> uv0 = decodeAccessor(doc, bin, 1);
  for (size_t i = 0; i < 4; ++i) {
    ASSERT_DOUBLE_EQ(positions[i * 3], uv0[i * 2] - 0.5);
    ASSERT_DOUBLE_EQ(positions[i * 3 + 1], 0.5 - uv0[i * 2 + 1]);
  }
  for (const auto& [quad, mesh] : {std::pair{std::string("Rotation"), 3u}, {"Scale", 4u}}) {
    const auto correct = nodeXY(doc, quad + " - Correct");
    const auto ignored = nodeXY(doc, quad + " - Not Supported");
    const auto got = uvAt(meshOf(*model, mesh), correct[0], correct[1]);
    EXPECT_NEAR(got[0], ignored[0] + 0.5, 1e-5) << quad;
    EXPECT_NEAR(got[1], 0.5 - ignored[1], 1e-5) << quad;
  }
}

TEST(GltfTextureTransform, SampleModelSamplersClampToEdge) {
  auto model = world::importGltf(textureTransformFile());
  ASSERT_TRUE(model.ok()) << model.error();
  // Materials 0-5 use textures 0 and 1 with sampler 0 (CLAMP_TO_EDGE both ways); 6-8 have none.
  ASSERT_EQ(model->materials.size(), 9u);
  for (size_t i = 0; i < 9; ++i) {
    const auto expected = i < 6 ? world::WrapMode::ClampToEdge : world::WrapMode::Repeat;
    EXPECT_EQ(model->materials[i].wrapS, expected) << i;
    EXPECT_EQ(model->materials[i].wrapT, expected) << i;
  }
}

/// A material whose base colour texture (texture 0, no image needed) has `info` merged in.
json material(const json& info) {
  json texture = {{"index", 0}};
  for (const auto& [key, value] : info.items()) texture[key] = value;
  return {{"pbrMetallicRoughness", {{"baseColorTexture", texture}}}};
}

/// The quad with TEXCOORD_0 = its corners (0..1) and TEXCOORD_1 = a different set.
QuadAsset twoUvSets() {
  QuadAsset quad;
  quad.attributes["TEXCOORD_0"] = quad.add(std::vector<float>{0, 0, 1, 0, 1, 1, 0, 1}, F32, "VEC2");
  quad.attributes["TEXCOORD_1"] =
      quad.add(std::vector<float>{0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f}, F32, "VEC2");
  return quad;
}

const std::vector<float> UV0 = {0, 0, 1, 0, 1, 1, 0, 1};
const std::vector<float> UV1 = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f};

void expectUvs(const world::ImportedMesh& mesh, const std::vector<float>& source,
               const json& extension) {
  const Mat3 matrix = transformMatrix(extension);
  ASSERT_EQ(mesh.data.vertices.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    const auto expected = apply(matrix, source[i * 2], source[i * 2 + 1]);
    EXPECT_NEAR(mesh.data.vertices[i].uv[0], expected[0], 1e-6) << mesh.data.name << " " << i;
    EXPECT_NEAR(mesh.data.vertices[i].uv[1], expected[1], 1e-6) << mesh.data.name << " " << i;
  }
}

TEST(GltfTextureTransform, PrimitivesSharingVerticesGetTheirOwnTransformedCopies) {
  TempDir dir;
  QuadAsset quad = twoUvSets();
  const json shift = {{"offset", {0.25, -0.5}}};
  const json turn = {{"rotation", 0.7}, {"scale", {2.0, 0.5}}, {"offset", {0.1, 0.3}}};
  const json materials = {material({{"extensions", {{"KHR_texture_transform", shift}}}}),
                          material({{"extensions", {{"KHR_texture_transform", turn}}}}),
                          material(json::object())};
  auto model = load(
      dir, quad.document(materials, {{"textures", json::array({json::object()})},
                                     {"extensionsUsed", json::array({"KHR_texture_transform"})}}));
  ASSERT_TRUE(model.ok()) << model.error();
  ASSERT_EQ(model->meshes.size(), 3u);
  expectUvs(meshOf(*model, 0, 0), UV0, shift);
  expectUvs(meshOf(*model, 0, 1), UV0, turn);
  expectUvs(meshOf(*model, 0, 2), UV0, json::object());
}

TEST(GltfTextureTransform, TexCoordSelectsTheSetAndTheExtensionOverridesIt) {
  TempDir dir;
  QuadAsset quad = twoUvSets();
  const json scale = {{"scale", {3.0, 3.0}}, {"texCoord", 0}};
  const json materials = {
      material({{"texCoord", 1}}),
      material({{"texCoord", 1}, {"extensions", {{"KHR_texture_transform", scale}}}}),
      material({{"extensions", {{"KHR_texture_transform", {{"texCoord", 1}}}}}})};
  auto model = load(
      dir, quad.document(materials, {{"textures", json::array({json::object()})},
                                     {"extensionsUsed", json::array({"KHR_texture_transform"})}}));
  ASSERT_TRUE(model.ok()) << model.error();
  expectUvs(meshOf(*model, 0, 0), UV1, json::object());
  expectUvs(meshOf(*model, 0, 1), UV0, scale);
  expectUvs(meshOf(*model, 0, 2), UV1, json::object());
  EXPECT_EQ(model->materials[0].baseColorTexCoord, 1u);
  EXPECT_EQ(model->materials[1].baseColorTexCoord, 0u);
  EXPECT_TRUE(model->warnings.empty()) << model->warnings[0];
}

TEST(GltfTextureTransform, RequiredExtensionLoadsAnUnknownOneIsRefused) {
  TempDir dir;
  const json materials = {
      material({{"extensions", {{"KHR_texture_transform", {{"rotation", 1.0}}}}}})};
  {
    QuadAsset quad = twoUvSets();
    auto model = load(
        dir,
        quad.document(materials, {{"textures", json::array({json::object()})},
                                  {"extensionsUsed", json::array({"KHR_texture_transform"})},
                                  {"extensionsRequired", json::array({"KHR_texture_transform"})}}));
    ASSERT_TRUE(model.ok()) << model.error();
    expectUvs(meshOf(*model, 0, 0), UV0, {{"rotation", 1.0}});
  }
  QuadAsset quad = twoUvSets();
  auto model = load(
      dir,
      quad.document(materials, {{"textures", json::array({json::object()})},
                                {"extensionsUsed", {"KHR_texture_transform", "EXT_unknown"}},
                                {"extensionsRequired", {"KHR_texture_transform", "EXT_unknown"}}}));
  ASSERT_FALSE(model.ok());
  EXPECT_NE(model.error().find("asset.gltf:"), std::string::npos) << model.error();
  EXPECT_NE(model.error().find("(/extensionsRequired/1)"), std::string::npos) << model.error();
  EXPECT_NE(model.error().find("EXT_unknown"), std::string::npos) << model.error();
}

TEST(GltfTextureTransform, MalformedValuesAreRefusedWithTheirPlace) {
  const std::pair<json, std::string> cases[] = {
      {{{"offset", {1.0}}}, "/KHR_texture_transform/offset"},
      {{{"scale", {1.0, "2"}}}, "/KHR_texture_transform/scale/1"},
      {{{"scale", {1.0, 1e39}}}, "/KHR_texture_transform/scale/1"},  // not finite as a float
      {{{"rotation", "half"}}, "/KHR_texture_transform/rotation"},
      {{{"texCoord", -1}}, "/KHR_texture_transform/texCoord"},
  };
  for (const auto& [extension, place] : cases) {
    TempDir dir;
    QuadAsset quad = twoUvSets();
    const json materials = {material({{"extensions", {{"KHR_texture_transform", extension}}}})};
    auto model = load(dir, quad.document(materials, {{"textures", json::array({json::object()})}}));
    ASSERT_FALSE(model.ok()) << extension.dump();
    EXPECT_NE(model.error().find("asset.gltf:"), std::string::npos) << model.error();
    EXPECT_NE(
        model.error().find("/materials/0/pbrMetallicRoughness/baseColorTexture/extensions" + place),
        std::string::npos)
        << model.error();
  }
}

TEST(GltfTextureTransform, UvsPastTheFloatRangeBecomeZeroWithAWarning) {
  TempDir dir;
  QuadAsset quad = twoUvSets();
  // u' = 3e38 * u + 3e38: finite (3e38) where u = 0, past FLT_MAX (6e38) where u = 1.
  const json huge = {{"scale", {3e38, 1.0}}, {"offset", {3e38, 0.0}}};
  auto model = load(
      dir,
      quad.document(json::array({material({{"extensions", {{"KHR_texture_transform", huge}}}})}),
                    {{"textures", json::array({json::object()})}}));
  ASSERT_TRUE(model.ok()) << model.error();
  const auto& vertices = meshOf(*model, 0).data.vertices;
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_FLOAT_EQ(vertices[i].uv[0], UV0[i * 2] == 0 ? 3e38f : 0.0f) << i;
    EXPECT_FLOAT_EQ(vertices[i].uv[1], UV0[i * 2 + 1]) << i;
  }
  ASSERT_EQ(model->warnings.size(), 1u);
  EXPECT_NE(model->warnings[0].find("(/meshes/0/primitives/0/attributes/TEXCOORD_0)"),
            std::string::npos)
      << model->warnings[0];
}

// --- Sampler wrap modes -------------------------------------------------------------------------

TEST(GltfSampler, WrapModesReachTheLookAndTheInstance) {
  TempDir dir;
  QuadAsset quad = twoUvSets();
  const json materials = {material(json::object()), material({{"index", 1}}),
                          material({{"index", 2}})};
  const json samplers = {{{"wrapS", CLAMP_TO_EDGE}, {"wrapT", MIRRORED_REPEAT}},
                         {{"wrapS", MIRRORED_REPEAT}, {"wrapT", REPEAT}}};
  const json textures = {{{"sampler", 0}}, {{"sampler", 1}}, json::object()};
  auto model =
      load(dir, quad.document(materials, {{"samplers", samplers}, {"textures", textures}}));
  ASSERT_TRUE(model.ok()) << model.error();
  // Look codes (world/scene/scene.h): 0 repeat, 1 clamp to edge, 2 mirrored repeat; the shader
  // reads material.w = wrapS + 4 * wrapT.
  const int wrapS[3] = {1, 2, 0}, wrapT[3] = {2, 0, 0};
  for (size_t i = 0; i < 3; ++i) {
    const world::Look look = world::lookOf(&model->materials[i], 0);
    EXPECT_EQ(look.wrapS, wrapS[i]) << i;
    EXPECT_EQ(look.wrapT, wrapT[i]) << i;
    const gpu::Instance instance = world::makeInstance(glm::dmat4(1.0), glm::dvec3(0.0), look);
    EXPECT_EQ(instance.material.w, float(wrapS[i] + 4 * wrapT[i])) << i;
  }
  EXPECT_EQ(
      world::makeInstance(glm::dmat4(1.0), glm::dvec3(0.0), world::lookOf(nullptr, 0)).material.w,
      0.0f)
      << "the default material repeats";
}

TEST(GltfSampler, WrapModesSurviveIntoTheModelsPrototype) {
  TempDir dir;
  QuadAsset quad = twoUvSets();
  const json samplers = {{{"wrapS", MIRRORED_REPEAT}, {"wrapT", CLAMP_TO_EDGE}}};
  auto model = load(
      dir, quad.document(json::array({material(json::object())}),
                         {{"samplers", samplers}, {"textures", json::array({{{"sampler", 0}}})}}));
  ASSERT_TRUE(model.ok()) << model.error();
  world::MeshLibrary meshes;
  world::TextureLibrary textures;
  world::Scene scene;
  auto prototype =
      world::modelPrototype(*model, glm::dmat4(1.0), "quad", {meshes, textures, scene});
  ASSERT_TRUE(prototype.ok()) << prototype.error();
  ASSERT_EQ(prototype->parts.size(), 1u);
  EXPECT_EQ(prototype->parts[0].look.wrapS, 2);
  EXPECT_EQ(prototype->parts[0].look.wrapT, 1);
}

TEST(GltfSampler, UnknownWrapModeRepeatsWithAWarning) {
  TempDir dir;
  QuadAsset quad = twoUvSets();
  const json samplers = {{{"wrapS", 12345}, {"wrapT", CLAMP_TO_EDGE}}};
  auto model = load(
      dir, quad.document(json::array({material(json::object())}),
                         {{"samplers", samplers}, {"textures", json::array({{{"sampler", 0}}})}}));
  ASSERT_TRUE(model.ok()) << model.error();
  EXPECT_EQ(model->materials[0].wrapS, world::WrapMode::Repeat);
  EXPECT_EQ(model->materials[0].wrapT, world::WrapMode::ClampToEdge);
  ASSERT_EQ(model->warnings.size(), 1u);
  EXPECT_NE(model->warnings[0].find("(/samplers/0/wrapS)"), std::string::npos)
      << model->warnings[0];
}

}  // namespace
