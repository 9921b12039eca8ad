// `dcwalk asset check FILE` end to end: the built executable, run with popen.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/common/cli.h"
#include "tests/common/paths.h"

namespace {

using testcli::CliRun;

CliRun runDcwalk(const std::string& args) {
  return testcli::dcwalk(args);
}

std::string quoted(const std::filesystem::path& path) {
  return "'" + path.string() + "'";
}

const std::filesystem::path GLTF = testpaths::sharedDir() / "testdata" / "gltf";

TEST(AssetCli, ValidModelExitsZeroWithItsCounts) {
  // Box.gltf: one mesh of 12 triangles, one material, no texture (valid/INDEX.md).
  const CliRun run = runDcwalk("asset check " + quoted(GLTF / "valid/Box/glTF/Box.gltf"));
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("triangles  12"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("materials  1"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("textures   0"), std::string::npos) << run.out;
}

TEST(AssetCli, FileNamesWithSpacesWork) {
  const CliRun run =
      runDcwalk("asset check " + quoted(GLTF / "valid/Box With Spaces/glTF/Box With Spaces.gltf"));
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("textures   3"), std::string::npos) << run.out;
}

TEST(AssetCli, InvalidModelExitsTwoNamingFileAndPlace) {
  const CliRun run =
      runDcwalk("asset check " + quoted(GLTF / "invalid/glTF-Validator/node/unresolved_mesh.gltf"));
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_NE(run.out.find("unresolved_mesh.gltf"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("/nodes/0/mesh"), std::string::npos) << run.out;
}

TEST(AssetCli, TheTinygltfCrashCaseExitsTwo) {
  // invalid/INDEX.md: issue-416.gltf makes plain tinygltf 2.7.0 abort with std::bad_alloc.
  const CliRun run =
      runDcwalk("asset check " + quoted(GLTF / "invalid/tinygltf-regressions/issue-416.gltf"));
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_NE(run.out.find("issue-416.gltf"), std::string::npos) << run.out;
}

TEST(AssetCli, MissingFileAndMissingArgumentExitTwo) {
  const CliRun missing = runDcwalk("asset check /nonexistent/dir/model.glb");
  EXPECT_EQ(missing.status, 2) << missing.out;
  EXPECT_NE(missing.out.find("/nonexistent/dir/model.glb"), std::string::npos) << missing.out;
  EXPECT_EQ(runDcwalk("asset check").status, 2);
  EXPECT_EQ(runDcwalk("asset").status, 2);
}

}  // namespace

TEST(AssetCli, ComponentsListsEveryOverridableKey) {
  const CliRun run = runDcwalk("asset components");
  EXPECT_EQ(run.status, 0) << run.out;
  for (const char* key : {"nvl72.compute_tray", "nvl72.rack", "cooling.cdu", "plant.pump"}) {
    EXPECT_NE(run.out.find(key), std::string::npos) << key << "\n" << run.out;
  }
}

TEST(AssetCli, ShotRendersAModelOnItsOwn) {
  const testpaths::TempDir folder("asset-cli-model");
  const std::filesystem::path out = folder.path / "model.png";
  const CliRun run = runDcwalk("shot --validation --size 320x240 --model " +
                               quoted(GLTF / "valid/BoxTextured/glTF-Binary/BoxTextured.glb") +
                               " --out " + quoted(out));
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_TRUE(std::filesystem::exists(out));
  // BoxTextured is 12 triangles (valid/INDEX.md); it stands on the studio's floor.
  EXPECT_NE(run.out.find("station model, 12 triangles"), std::string::npos) << run.out;
}

TEST(AssetCli, ShotRefusesAMalformedModelWithExitTwo) {
  const std::filesystem::path invalid = GLTF / "invalid";
  std::filesystem::path file;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(invalid)) {
    if (entry.path().extension() == ".gltf") {
      file = entry.path();
      break;
    }
  }
  ASSERT_FALSE(file.empty());
  const CliRun run =
      runDcwalk("shot --size 64x64 --model " + quoted(file) + " --out " + testcli::scratchPng());
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_NE(run.out.find(file.filename().string()), std::string::npos) << run.out;
}

TEST(AssetCli, ShotWithAnAssetOverrideFile) {
  const testpaths::TempDir folder("asset-cli");
  const std::filesystem::path& dir = folder.path;
  std::filesystem::copy_file(GLTF / "valid/Box/glTF-Binary/Box.glb", dir / "Box.glb",
                             std::filesystem::copy_options::overwrite_existing);
  const std::filesystem::path good = dir / "overrides.json";
  std::ofstream(good)
      << "{\"overrides\": [{\"component\": \"nvl72.compute_tray\", \"model\": \"Box.glb\"}]}\n";
  const CliRun ok = runDcwalk("shot --validation --size 320x180 --station rack --assets " +
                              quoted(good) + " --out " + quoted(dir / "rack.png"));
  EXPECT_EQ(ok.status, 0) << ok.out;

  const std::filesystem::path bad = dir / "bad.json";
  std::ofstream(bad)
      << "{\"overrides\": [\n  {\"component\": \"nvl72.toaster\", \"model\": \"x.glb\"}]}\n";
  const CliRun refused = runDcwalk("shot --size 64x64 --assets " + quoted(bad) + " --out " +
                                   quoted(dir / "never.png"));
  EXPECT_EQ(refused.status, 2) << refused.out;
  EXPECT_NE(refused.out.find("bad.json:2 (/overrides/0/component)"), std::string::npos)
      << refused.out;
  EXPECT_FALSE(std::filesystem::exists(dir / "never.png"));
}
