// `dcwalk asset check FILE` end to end: the built executable, run with popen.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "tests/common/paths.h"

namespace {

struct CliRun {
  int status = -1;
  std::string output;  // stdout and stderr together
};

CliRun runDcwalk(const std::string& args) {
  CliRun run;
  const std::string command = std::string("'") + DCWALK_EXE + "' " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return run;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) run.output.append(buffer, n);
  const int raw = pclose(pipe);
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return run;
}

std::string quoted(const std::filesystem::path& path) {
  return "'" + path.string() + "'";
}

const std::filesystem::path GLTF = testpaths::sharedDir() / "testdata" / "gltf";

TEST(AssetCli, ValidModelExitsZeroWithItsCounts) {
  // Box.gltf: one mesh of 12 triangles, one material, no texture (valid/INDEX.md).
  const CliRun run = runDcwalk("asset check " + quoted(GLTF / "valid/Box/glTF/Box.gltf"));
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("triangles  12"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("materials  1"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("textures   0"), std::string::npos) << run.output;
}

TEST(AssetCli, FileNamesWithSpacesWork) {
  const CliRun run =
      runDcwalk("asset check " + quoted(GLTF / "valid/Box With Spaces/glTF/Box With Spaces.gltf"));
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("textures   3"), std::string::npos) << run.output;
}

TEST(AssetCli, InvalidModelExitsTwoNamingFileAndPlace) {
  const CliRun run =
      runDcwalk("asset check " + quoted(GLTF / "invalid/glTF-Validator/node/unresolved_mesh.gltf"));
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find("unresolved_mesh.gltf"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("/nodes/0/mesh"), std::string::npos) << run.output;
}

TEST(AssetCli, TheTinygltfCrashCaseExitsTwo) {
  // invalid/INDEX.md: issue-416.gltf makes plain tinygltf 2.7.0 abort with std::bad_alloc.
  const CliRun run =
      runDcwalk("asset check " + quoted(GLTF / "invalid/tinygltf-regressions/issue-416.gltf"));
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find("issue-416.gltf"), std::string::npos) << run.output;
}

TEST(AssetCli, MissingFileAndMissingArgumentExitTwo) {
  const CliRun missing = runDcwalk("asset check /nonexistent/dir/model.glb");
  EXPECT_EQ(missing.status, 2) << missing.output;
  EXPECT_NE(missing.output.find("/nonexistent/dir/model.glb"), std::string::npos) << missing.output;
  EXPECT_EQ(runDcwalk("asset check").status, 2);
  EXPECT_EQ(runDcwalk("asset").status, 2);
}

}  // namespace
