// Issue 19, reproducer 2, end to end: override models that `dcwalk asset check` accepted made
// `shot` run out of memory (two 8192x8192 textures: 3.8 GB then std::bad_alloc; a 1M-triangle
// model on four components: 3.3 GB). `asset check` now says what loading costs, and loading
// keeps to the same budget.
#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/platform/capture.h"
#include "tests/common/cli.h"
#include "tests/world/gltf_test_files.h"

namespace {

namespace fs = std::filesystem;
using gltftest::F32;
using gltftest::U32;

fs::path folder() {
  const fs::path dir = fs::path(DCWALK_BINARY_DIR) / "asset-budget-cli-test";
  fs::create_directories(dir);
  return dir;
}

std::string quoted(const fs::path& p) {
  std::string text = "'";  // built up: GCC 12 warns (-Wrestrict) on "'" + string + "'"
  text += p.string();
  return text += "'";
}

// An n x n grid of quads in the unit square (2 n^2 triangles), with uvs, in one embedded buffer;
// each of `images` (file names) is the base colour of one primitive drawing the whole grid.
void writeGrid(const fs::path& file, uint32_t n, const std::vector<std::string>& images) {
  std::vector<float> positions, uvs;
  std::vector<uint32_t> indices;
  for (uint32_t j = 0; j <= n; ++j)
    for (uint32_t i = 0; i <= n; ++i) {
      positions.insert(positions.end(), {float(i) / n, float(j) / n, 0.0f});
      uvs.insert(uvs.end(), {float(i) / n, float(j) / n});
    }
  for (uint32_t j = 0; j < n; ++j)
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
      indices.insert(indices.end(), {a, b, d, a, d, c});
    }
  std::vector<uint8_t> bytes;
  gltftest::append(&bytes, positions);
  const size_t uvAt = bytes.size();
  gltftest::append(&bytes, uvs);
  const size_t indexAt = bytes.size();
  gltftest::append(&bytes, indices);
  const size_t vertices = positions.size() / 3;
  std::string primitives, materials, textures, imageList;
  const size_t drawn = images.empty() ? 1 : images.size();
  for (size_t m = 0; m < drawn; ++m) {
    if (m) primitives += ",";
    primitives += R"({"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "indices": 2)";
    if (!images.empty()) primitives += ", \"material\": " + std::to_string(m);
    primitives += "}";
  }
  for (size_t m = 0; m < images.size(); ++m) {
    const std::string i = std::to_string(m), comma = m ? "," : "";
    materials += comma;
    materials += R"({"pbrMetallicRoughness": {"baseColorTexture": {"index": )" + i + "}}}";
    textures += comma;
    textures += R"({"source": )" + i + "}";
    imageList += comma;
    imageList += R"({"uri": ")" + images[m] + "\"}";
  }
  std::ofstream out(file);
  out << R"({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],)"
      << R"("nodes": [{"mesh": 0}], "meshes": [{"primitives": [)" << primitives << "]}],"
      << R"("buffers": [{"byteLength": )" << bytes.size()
      << R"(, "uri": "data:application/octet-stream;base64,)" << gltftest::base64(bytes) << "\"}],"
      << R"("bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": )" << uvAt << "},"
      << R"({"buffer": 0, "byteOffset": )" << uvAt << R"(, "byteLength": )" << indexAt - uvAt
      << "},"
      << R"({"buffer": 0, "byteOffset": )" << indexAt << R"(, "byteLength": )"
      << bytes.size() - indexAt << "}],"
      << R"("accessors": [{"bufferView": 0, "componentType": )" << F32 << R"(, "count": )"
      << vertices << R"(, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},)"
      << R"({"bufferView": 1, "componentType": )" << F32 << R"(, "count": )" << vertices
      << R"(, "type": "VEC2"},)"
      << R"({"bufferView": 2, "componentType": )" << U32 << R"(, "count": )" << indices.size()
      << R"(, "type": "SCALAR"}])";
  if (!images.empty()) {
    out << R"(, "materials": [)" << materials << R"(], "textures": [)" << textures
        << R"(], "images": [)" << imageList << "]";
  }
  out << "}\n";
}

uint64_t peakChildBytes() {
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);  // the largest child waited for so far
  return uint64_t(usage.ru_maxrss) * 1024;
}

}  // namespace

TEST(AssetBudgetCli, TwoHugeTexturesAreRefusedByCheckAndByShotNamingFileAndLimit) {
  const fs::path dir = folder() / "textures";
  fs::create_directories(dir);
  renderer::Pixels big;
  big.width = big.height = 8192;
  big.rgba.assign(size_t(8192) * 8192 * 4, 0x80);
  auto written = app::writePng(dir / "big.png", big);
  ASSERT_TRUE(written.ok()) << written.error();
  big.rgba = {};
  writeGrid(dir / "two.gltf", 1, {"big.png", "big.png"});
  std::ofstream(dir / "overrides.json")
      << R"({"overrides": [{"component": "nvl72.compute_tray", "model": "two.gltf"}]})";

  auto check = testcli::dcwalk("asset check " + quoted(dir / "two.gltf"));
  EXPECT_EQ(check.status, 2) << check.out;
  EXPECT_NE(check.out.find("two.gltf:1 (/images/1)"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("more than the cap of 67108864"), std::string::npos) << check.out;
  auto overrides = testcli::dcwalk("asset check " + quoted(dir / "overrides.json"));
  EXPECT_EQ(overrides.status, 2) << overrides.out;
  auto shot = testcli::dcwalk("shot --size 64x64 --station rack --assets " +
                              quoted(dir / "overrides.json") + " --out " + quoted(dir / "x.png"));
  EXPECT_EQ(shot.status, 2) << shot.out;
  EXPECT_NE(shot.out.find("overrides.json:1 (/overrides/0/model)"), std::string::npos) << shot.out;
  EXPECT_LT(peakChildBytes(), 1ull << 30);  // was 3.8 GB, then std::bad_alloc

  // One of them is within the budget: check predicts it, shot draws it.
  writeGrid(dir / "one.gltf", 1, {"big.png"});
  auto one = testcli::dcwalk("asset check " + quoted(dir / "one.gltf"));
  EXPECT_EQ(one.status, 0) << one.out;
  EXPECT_NE(one.out.find("images     1: 8192x8192 (67108864 texels of 67108864)"),
            std::string::npos)
      << one.out;
}

TEST(AssetBudgetCli, AMillionTrianglesOnFourComponentsAreHeldOnce) {
  const fs::path dir = folder() / "triangles";
  fs::create_directories(dir);
  const uint32_t n = 500;  // 2 n^2 = 500,000 triangles
  writeGrid(dir / "grid.gltf", n, {});
  std::ofstream(dir / "overrides.json") << R"({"overrides": [
    {"component": "nvl72.compute_tray", "model": "grid.gltf"},
    {"component": "nvl72.switch_tray", "model": "grid.gltf"},
    {"component": "nvl72.power_shelf", "model": "grid.gltf"},
    {"component": "cooling.cdu", "model": "grid.gltf"}]})";
  auto check = testcli::dcwalk("asset check " + quoted(dir / "overrides.json"));
  ASSERT_EQ(check.status, 0) << check.out;
  EXPECT_NE(check.out.find("drawn      " + std::to_string(2 * n * n) + " triangles"),
            std::string::npos)
      << check.out;
  auto shot = testcli::dcwalk("shot --size 320x180 --station rack --assets " +
                              quoted(dir / "overrides.json") + " --out " + quoted(dir / "r.png"));
  EXPECT_EQ(shot.status, 0) << shot.out;
  EXPECT_LT(peakChildBytes(), 1ull << 30);  // was 3.3 GB for the 1M-triangle model
}
