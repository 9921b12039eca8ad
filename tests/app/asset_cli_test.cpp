// `dcwalk asset check FILE` end to end: the built executable, run with popen.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
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
