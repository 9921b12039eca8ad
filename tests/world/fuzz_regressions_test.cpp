// Replays every input under fuzz/regressions/gltf/ through the glTF fuzzer's own entry point
// (fuzz/gltf_entry_point.h): once a fuzzing finding is fixed, its input lives there and must stay
// harmless. Inputs still awaiting a fix wait in fuzz/regressions/pending/, which is not replayed.
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fuzz/gltf_entry_point.h"
#include "tests/common/paths.h"

namespace fs = std::filesystem;

namespace {

std::vector<uint8_t> bytesOf(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

fs::path workDir() {
  fs::path dir = fs::temp_directory_path() / ("dcwalk-fuzz-replay-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace

TEST(FuzzRegressions, ReplayGltf) {
  const fs::path dir = testpaths::sourceDir() / "fuzz" / "regressions" / "gltf";
  const fs::path work = workDir();
  if (fs::is_directory(dir)) {
    for (const auto& file : fs::directory_iterator(dir)) {
      if (!file.is_regular_file()) continue;
      std::vector<uint8_t> bytes = bytesOf(file.path());
      EXPECT_EQ(fuzzentry::gltf(bytes.data(), bytes.size(), work), "") << file.path();
    }
  }
  fs::remove_all(work);
}

// The entry point accepts a valid model and names the file when it refuses one, so a replay
// that passes means the importer held its contract (not that the harness saw nothing).
TEST(FuzzRegressions, GltfEntryPointOnValidAndBrokenModels) {
  const fs::path box =
      testpaths::sharedDir() / "testdata" / "gltf" / "valid" / "Box" / "glTF-Binary" / "Box.glb";
  std::vector<uint8_t> bytes = bytesOf(box);
  ASSERT_FALSE(bytes.empty()) << box;
  const fs::path work = workDir();
  EXPECT_EQ(fuzzentry::gltf(bytes.data(), bytes.size(), work), "");
  std::vector<uint8_t> truncated(bytes.begin(), bytes.begin() + bytes.size() / 2);
  EXPECT_EQ(fuzzentry::gltf(truncated.data(), truncated.size(), work), "");
  const std::string notJson = "{\"asset\": {\"version\": \"2.0\"";
  EXPECT_EQ(fuzzentry::gltf(reinterpret_cast<const uint8_t*>(notJson.data()), notJson.size(), work),
            "");
  fs::remove_all(work);
}
