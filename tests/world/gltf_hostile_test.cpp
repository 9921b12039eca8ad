// Hostile glTF written by the test itself: reads outside the asset's folder, oversized
// declarations, bad indices, NaN, cycles, deep hierarchies, truncated and corrupted GLBs. Each is
// refused with a message naming the file and the place, or loads safely; nothing crashes.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/common/paths.h"
#include "tests/world/gltf_test_files.h"
#include "world/gltf/gltf_import.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace gltftest;

void writeBytes(const fs::path& path, const std::vector<uint8_t>& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

void writeJson(const fs::path& path, const json& doc) {
  const std::string text = doc.dump(1);
  writeBytes(path, std::vector<uint8_t>(text.begin(), text.end()));
}

/// One mesh, one node, one scene: POSITION (and NORMAL when given) and optional indices of
/// `indexType`, all in buffer 0 embedded as a data: URI. `mode` is the primitive mode.
json meshAsset(const std::vector<float>& positions, const std::vector<uint32_t>& indices,
               int indexType = U16, int mode = 4, const std::vector<float>& normals = {}) {
  std::vector<uint8_t> bin;
  json views = json::array(), accessors = json::array();
  auto addView = [&](size_t offset, size_t length) {
    views.push_back({{"buffer", 0}, {"byteOffset", offset}, {"byteLength", length}});
    return views.size() - 1;
  };
  const size_t vertexCount = positions.size() / 3;
  size_t offset = bin.size();
  append(&bin, positions);
  accessors.push_back({{"bufferView", addView(offset, positions.size() * 4)},
                       {"componentType", F32},
                       {"count", vertexCount},
                       {"type", "VEC3"}});
  json attributes = {{"POSITION", 0}};
  if (!normals.empty()) {
    offset = bin.size();
    append(&bin, normals);
    accessors.push_back({{"bufferView", addView(offset, normals.size() * 4)},
                         {"componentType", F32},
                         {"count", vertexCount},
                         {"type", "VEC3"}});
    attributes["NORMAL"] = accessors.size() - 1;
  }
  json primitive = {{"attributes", attributes}, {"mode", mode}};
  if (!indices.empty()) {
    offset = bin.size();
    size_t bytes = 0;
    if (indexType == U8) {
      append(&bin, std::vector<uint8_t>(indices.begin(), indices.end()));
      bytes = indices.size();
    } else if (indexType == U16) {
      append(&bin, std::vector<uint16_t>(indices.begin(), indices.end()));
      bytes = indices.size() * 2;
    } else {
      append(&bin, indices);
      bytes = indices.size() * 4;
    }
    accessors.push_back({{"bufferView", addView(offset, bytes)},
                         {"componentType", indexType},
                         {"count", indices.size()},
                         {"type", "SCALAR"}});
    primitive["indices"] = accessors.size() - 1;
  }
  return {{"asset", {{"version", "2.0"}}},
          {"buffers",
           {{{"byteLength", bin.size()},
             {"uri", "data:application/octet-stream;base64," + base64(bin)}}}},
          {"bufferViews", views},
          {"accessors", accessors},
          {"meshes", {{{"primitives", {primitive}}}}},
          {"nodes", {{{"mesh", 0}}}},
          {"scenes", {{{"nodes", {0}}}}},
          {"scene", 0}};
}

const std::vector<float> TRIANGLE = {0, 0, 0, 1, 0, 0, 0, 1, 0};

/// Loads `doc` written as `name` in `dir`; returns the result.
sim::Result<world::ImportedModel> load(const TempDir& dir, const json& doc,
                                       const std::string& name = "asset.gltf",
                                       const world::GltfLimits& limits = {}) {
  writeJson(dir.path / name, doc);
  return world::importGltf(dir.path / name, limits);
}

/// The refusal names the file and contains every fragment.
void expectRefused(const sim::Result<world::ImportedModel>& model,
                   const std::vector<std::string>& fragments,
                   const std::string& file = "asset.gltf") {
  ASSERT_FALSE(model.ok()) << "loaded, but should have been refused";
  EXPECT_NE(model.error().find(file), std::string::npos) << model.error();
  for (const std::string& f : fragments)
    EXPECT_NE(model.error().find(f), std::string::npos) << model.error();
}

TEST(GltfHostile, Base64HelperMatchesKnownEncodings) {  // RFC 4648 section 10 test vectors
  auto enc = [](std::string s) { return base64(std::vector<uint8_t>(s.begin(), s.end())); };
  EXPECT_EQ(enc("f"), "Zg==");
  EXPECT_EQ(enc("fo"), "Zm8=");
  EXPECT_EQ(enc("foo"), "Zm9v");
  EXPECT_EQ(enc("foob"), "Zm9vYg==");
  EXPECT_EQ(enc("fooba"), "Zm9vYmE=");
  EXPECT_EQ(enc("foobar"), "Zm9vYmFy");
}

TEST(GltfHostile, WellFormedSyntheticTriangleLoads) {
  TempDir dir;
  for (int type : {U8, U16, U32}) {
    auto model = load(dir, meshAsset(TRIANGLE, {0, 1, 2}, type));
    ASSERT_TRUE(model.ok()) << model.error();
    ASSERT_EQ(model->meshes.size(), 1u);
    EXPECT_EQ(model->triangleCount(), 1u);
    EXPECT_EQ(model->instances.size(), 1u);
  }
}

TEST(GltfHostile, IndexOutOfRangeIsRefusedAtItsPlace) {
  TempDir dir;
  expectRefused(load(dir, meshAsset(TRIANGLE, {0, 1, 7})),
                {"/meshes/0/primitives/0/indices", "index 7 >= vertex count 3"});
}

TEST(GltfHostile, NonFinitePositionsAreRefused) {
  TempDir dir;
  for (float bad : {NAN, INFINITY, -INFINITY}) {
    std::vector<float> positions = TRIANGLE;
    positions[4] = bad;
    expectRefused(load(dir, meshAsset(positions, {0, 1, 2})),
                  {"/accessors/0", "element 1 component 1"});
  }
}

TEST(GltfHostile, UrisThatLeaveTheFolderOrNameASchemeAreRefused) {
  TempDir dir;
  writeBytes(dir.path / "outside.bin", std::vector<uint8_t>(36, 0));  // exists: refusal is policy
  for (const std::string uri :
       {"../outside.bin", "sub/../../outside.bin", "%2e%2e/outside.bin", "..\\outside.bin",
        "/etc/passwd", "file:///etc/passwd", "http://example.com/a.bin", "C:/a.bin"}) {
    json doc = meshAsset(TRIANGLE, {});
    doc["buffers"][0]["uri"] = uri;
    expectRefused(load(dir, doc, "asset/asset.gltf"), {"/buffers/0/uri"}, "asset.gltf");
  }
}

TEST(GltfHostile, SymlinkLeavingTheFolderIsRefusedOneInsideIsFollowed) {
  TempDir dir;
  json doc = meshAsset(TRIANGLE, {});
  std::vector<uint8_t> bin(TRIANGLE.size() * 4);  // the same bytes meshAsset embeds
  std::memcpy(bin.data(), TRIANGLE.data(), bin.size());
  ASSERT_EQ(doc["buffers"][0]["byteLength"], bin.size());
  writeBytes(dir.path / "elsewhere" / "data.bin", bin);
  writeBytes(dir.path / "asset" / "real.bin", bin);
  fs::create_symlink("../elsewhere/data.bin", dir.path / "asset" / "out.bin");
  fs::create_symlink("real.bin", dir.path / "asset" / "in.bin");

  doc["buffers"][0]["uri"] = "out.bin";
  expectRefused(load(dir, doc, "asset/asset.gltf"), {"outside the asset's folder"}, "asset.gltf");
  doc["buffers"][0]["uri"] = "in.bin";
  auto model = load(dir, doc, "asset/asset.gltf");
  ASSERT_TRUE(model.ok()) << model.error();
  EXPECT_EQ(model->triangleCount(), 1u);
}

TEST(GltfHostile, ImageUrisThatAreNotFilesAreRefused) {
  // invalid/tinygltf-regressions/issue-416.gltf with a valid version: plain tinygltf 2.7.0 dies
  // of std::bad_alloc on this URI (invalid/INDEX.md); a folder or "." must not be read either.
  TempDir dir;
  fs::create_directories(dir.path / "sub");
  for (const std::string uri : {"%!QAAAQAAA5", "sub", ".", "sub/"}) {
    const json doc = {{"asset", {{"version", "2.0"}}}, {"images", {{{"uri", uri}}}}};
    expectRefused(load(dir, doc), {"/images/0"});
  }
}

TEST(GltfHostile, DeclaredSizesAreCappedBeforeAllocation) {
  TempDir dir;
  json doc = meshAsset(TRIANGLE, {});
  doc["buffers"][0]["byteLength"] = 1000000000000000ull;  // 1 PB
  expectRefused(load(dir, doc), {"/buffers/0/byteLength", "cap"});
  doc = meshAsset(TRIANGLE, {});
  doc["accessors"][0]["count"] = 1ull << 40;
  expectRefused(load(dir, doc), {"/accessors/0/count", "cap"});
}

TEST(GltfHostile, OutputCapsAreEnforced) {
  TempDir dir;
  const std::vector<float> quad = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
  const json doc = meshAsset(quad, {0, 1, 2, 2, 1, 3});  // 2 triangles, no normals: 6 vertices
  world::GltfLimits limits;
  limits.maxTotalTriangles = 1;
  expectRefused(load(dir, doc, "asset.gltf", limits), {"/meshes/0/primitives/0", "triangles"});
  limits = {};
  limits.maxTotalVertices = 5;
  expectRefused(load(dir, doc, "asset.gltf", limits), {"/meshes/0/primitives/0", "vertices"});
  limits = {};
  limits.maxTotalAccessorBytes =
      48 + 11;  // positions (4 x 12 bytes) fit, the 12 index bytes do not
  expectRefused(load(dir, doc, "asset.gltf", limits), {"/accessors/1", "cap"});
  limits.maxTotalAccessorBytes = 48 + 12;
  EXPECT_TRUE(load(dir, doc, "asset.gltf", limits).ok());
}

TEST(GltfHostile, ImageDimensionsAreCheckedBeforeDecoding) {
  // A PNG signature and IHDR claiming 100000 x 100000 pixels (40 GB decoded), nothing else.
  std::vector<uint8_t> png = {0x89, 'P',  'N', 'G', '\r', '\n', 0x1A, '\n', 0,    0,    0,
                              13,   'I',  'H', 'D', 'R',  0x00, 0x01, 0x86, 0xA0, 0x00, 0x01,
                              0x86, 0xA0, 8,   6,   0,    0,    0,    0,    0,    0,    0};
  json doc = meshAsset(TRIANGLE, {});
  doc["images"] = {{{"uri", "data:image/png;base64," + base64(png)}}};
  TempDir dir;
  expectRefused(load(dir, doc), {"/images/0", "100000x100000"});
  doc["images"] = {{{"uri", "data:image/gif;base64," + base64(png)}}};
  expectRefused(load(dir, doc), {"/images/0/uri", "image/gif"});
}

TEST(GltfHostile, ImageBufferViewPastItsBufferIsRefusedBeforeDecoding) {
  // Found by fuzz_gltf: tinygltf passes an image's bufferView to the decoder as a pointer into
  // the buffer and the view's byteLength, unchecked; a view longer than its buffer made the PNG
  // decoder read past the end of the heap block (AddressSanitizer: heap-buffer-overflow). A 1x1
  // PNG header in a 40-byte buffer, behind a view that claims 8192 bytes:
  std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 13, 'I', 'H',
                              'D',  'R', 0,   0,   0,    1,    0,    0,    0, 1, 8, 6,  0,   0,
                              0,    0,   0,   0,   0,    0,    0,    0,    0, 0, 0, 0};
  json doc = meshAsset(TRIANGLE, {});
  doc["buffers"].push_back(
      {{"byteLength", png.size()}, {"uri", "data:application/octet-stream;base64," + base64(png)}});
  const size_t buffer = doc["buffers"].size() - 1;
  doc["bufferViews"].push_back({{"buffer", buffer}, {"byteOffset", 0}, {"byteLength", 8192}});
  doc["images"] = {{{"bufferView", doc["bufferViews"].size() - 1}, {"mimeType", "image/png"}}};
  TempDir dir;
  expectRefused(load(dir, doc), {"/images/0", "runs past the end of its 40-byte buffer"});
  // The same view within the buffer gets as far as the decoder, which refuses the truncated PNG.
  doc["bufferViews"].back()["byteLength"] = png.size();
  expectRefused(load(dir, doc), {"/images/0"});
}

TEST(GltfHostile, CyclesSharedChildrenAndDeepHierarchiesAreRefused) {
  TempDir dir;
  json doc = meshAsset(TRIANGLE, {});
  doc["nodes"] = {{{"children", {1}}, {"mesh", 0}}, {{"children", {0}}}};
  doc["scenes"] = {{{"nodes", json::array()}}};
  expectRefused(load(dir, doc), {"cycle"});

  doc["nodes"] = {{{"children", {2}}}, {{"children", {2}}}, {{"mesh", 0}}};
  doc["scenes"] = {{{"nodes", {0, 1}}}};
  expectRefused(load(dir, doc), {"/nodes/1/children/0", "two parents"});

  const int depth = 100;
  doc["nodes"] = json::array();
  for (int i = 0; i < depth; ++i)
    doc["nodes"].push_back(i + 1 < depth ? json{{"children", {i + 1}}} : json{{"mesh", 0}});
  doc["scenes"] = {{{"nodes", {0}}}};
  expectRefused(load(dir, doc), {"levels deep"});
  world::GltfLimits limits;
  limits.maxNodeDepth =
      depth;  // the same chain within a larger cap loads, one instance at the leaf
  auto model = load(dir, doc, "asset.gltf", limits);
  ASSERT_TRUE(model.ok()) << model.error();
  EXPECT_EQ(model->instances.size(), 1u);
}

TEST(GltfHostile, StripsAndFansBecomeTriangleLists) {
  // glTF 2.0 spec 3.7.2.1: strip triangle i = (v[i], v[i+1+i%2], v[i+2-i%2]); fan i = (v[i+1],
  // v[i+2], v[0]).
  const std::vector<float> quad = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
  const std::vector<float> up = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
  TempDir dir;
  auto strip = load(dir, meshAsset(quad, {}, U16, 5, up));
  ASSERT_TRUE(strip.ok()) << strip.error();
  EXPECT_EQ(strip->meshes.at(0).data.indices, (std::vector<uint32_t>{0, 1, 2, 1, 3, 2}));
  auto fan = load(dir, meshAsset(quad, {}, U16, 6, up));
  ASSERT_TRUE(fan.ok()) << fan.error();
  EXPECT_EQ(fan->meshes.at(0).data.indices, (std::vector<uint32_t>{1, 2, 0, 2, 3, 0}));
  auto points = load(dir, meshAsset(quad, {}, U16, 0, up));
  ASSERT_TRUE(points.ok()) << points.error();
  EXPECT_TRUE(points->meshes.empty());
  ASSERT_FALSE(points->warnings.empty());
  EXPECT_NE(points->warnings[0].find("/meshes/0/primitives/0/mode"), std::string::npos);
}

TEST(GltfHostile, TruncatedAndCorruptedGlbsNeverCrash) {
  const fs::path box = testpaths::sharedDir() / "testdata/gltf/valid/Box/glTF-Binary/Box.glb";
  std::ifstream in(box, std::ios::binary);
  const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in),
                                   std::istreambuf_iterator<char>()};
  ASSERT_GT(bytes.size(), 100u) << box;
  TempDir dir;
  const fs::path path = dir.path / "cut.glb";
  for (size_t length = 0; length < bytes.size(); length += 7) {
    writeBytes(path, std::vector<uint8_t>(bytes.begin(), bytes.begin() + std::ptrdiff_t(length)));
    auto model = world::importGltf(path);
    EXPECT_FALSE(model.ok()) << "truncated to " << length;
    if (!model.ok()) {
      EXPECT_NE(model.error().find("cut.glb"), std::string::npos) << model.error();
    }
  }
  // Every byte of the header, the JSON chunk and the start of BIN set to 0xFF in turn.
  size_t loaded = 0;
  for (size_t at = 0; at < bytes.size(); ++at) {
    std::vector<uint8_t> corrupt = bytes;
    corrupt[at] = 0xFF;
    writeBytes(path, corrupt);
    auto model = world::importGltf(path);
    if (model.ok()) {
      ++loaded;
      world::MeshLibrary library;
      for (const auto& mesh : model->meshes) {
        world::MeshId id;
        EXPECT_TRUE(library.add(mesh.data, &id)) << "byte " << at;
      }
    } else {
      EXPECT_FALSE(model.error().empty());
    }
  }
  EXPECT_LT(loaded, bytes.size());
}

}  // namespace

// Issue 40: what tinygltf refused in its own words (or read as 0) is refused in ours, naming the
// field. Old HEAD: "primitive indices accessor out of bounds", "image[0] bufferView "3" not found
// in the scene.", "Failed to decode 'uri' : data:... in Buffer", and a byteOffset of -8 accepted.
TEST(GltfHostile, ReferencesLengthsAndOffsetsAreRefusedInOurWords) {
  TempDir dir;
  json doc = meshAsset(TRIANGLE, {0, 1, 2});
  doc["meshes"][0]["primitives"][0]["indices"] = 5;
  expectRefused(load(dir, doc), {"(/meshes/0/primitives/0/indices)",
                                 "unresolved reference to accessors[5] (there are 2)"});
  doc = meshAsset(TRIANGLE, {});
  doc["images"] = {{{"bufferView", 3}, {"mimeType", "image/png"}}};
  expectRefused(load(dir, doc),
                {"(/images/0/bufferView)", "unresolved reference to bufferViews[3] (there are 1)"});
  doc = meshAsset(TRIANGLE, {});
  doc["accessors"][0]["bufferView"] = 4;
  expectRefused(load(dir, doc), {"(/accessors/0/bufferView)", "bufferViews[4] (there are 1)"});
  // The triangle's 36 bytes are 48 base64 characters; byteLength says 40.
  doc = meshAsset(TRIANGLE, {});
  doc["buffers"][0]["byteLength"] = 40;
  expectRefused(load(dir, doc), {"(/buffers/0/uri)", "holds 36 bytes, byteLength declares 40"});
  doc = meshAsset(TRIANGLE, {});
  doc["buffers"][0]["uri"] = "data:application/octet-stream;base64,AAA*";
  doc["buffers"][0]["byteLength"] = 3;
  expectRefused(load(dir, doc), {"(/buffers/0/uri)", "not valid base64"});
  for (const char* key : {"byteOffset", "byteStride"}) {
    doc = meshAsset(TRIANGLE, {});
    doc["bufferViews"][0][key] = -8;
    expectRefused(load(dir, doc), {std::string("(/bufferViews/0/") + key + ")", "-8 is below"});
  }
  doc = meshAsset(TRIANGLE, {});
  doc["accessors"][0]["byteOffset"] = -12;
  expectRefused(load(dir, doc), {"(/accessors/0/byteOffset)", "-12 is below 0"});
  doc = meshAsset(TRIANGLE, {});
  doc["bufferViews"][0]["byteLength"] = -36;
  expectRefused(load(dir, doc), {"(/bufferViews/0/byteLength)", "-36 is below 1"});
  // The triangle itself still loads: the checks hold real files to the spec, nothing more.
  EXPECT_TRUE(load(dir, meshAsset(TRIANGLE, {0, 1, 2})).ok());
}
