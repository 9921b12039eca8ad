// Every file in ../shared/testdata/gltf/invalid (glTF-Validator, tinygltf and glTF-SDK cases) is
// refused or sanitized with a message, never a crash. invalid/INDEX.md suggests a tier per file:
// REJECT must fail with a message naming the file; SANITIZE must fail or load with a warning;
// TOLERATE may load, and if it fails the message must still name the file.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>

#include "tests/common/paths.h"
#include "world/gltf/gltf_import.h"

namespace {

namespace fs = std::filesystem;

fs::path invalidDir() {
  return testpaths::sharedDir() / "testdata" / "gltf" / "invalid";
}

/// File (relative to invalid/) -> "REJECT" / "SANITIZE" / "TOLERATE", from the tables in INDEX.md.
std::map<std::string, std::string> tiers() {
  std::map<std::string, std::string> out;
  std::ifstream in(invalidDir() / "INDEX.md");
  std::string line;
  const std::regex row(
      R"(^\| [a-z]+ \| `([^`]+)` \|.*\| (REJECT|SANITIZE|TOLERATE)[^|]*\| [^|]*\|\s*$)");
  std::smatch match;
  while (std::getline(in, line)) {
    if (std::regex_match(line, match, row)) out[match[1].str()] = match[2].str();
  }
  return out;
}

std::vector<std::string> invalidFiles() {
  std::vector<std::string> out;
  if (!fs::is_directory(invalidDir())) return out;
  for (const auto& entry : fs::recursive_directory_iterator(invalidDir())) {
    const std::string ext = entry.path().extension().string();
    if (ext == ".gltf" || ext == ".glb")
      out.push_back(fs::relative(entry.path(), invalidDir()).generic_string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(GltfInvalidCorpus, HasEveryCaseTheIndexLists) {
  const auto files = invalidFiles();
  const auto tier = tiers();
  EXPECT_EQ(files.size(), 133u) << "invalid/INDEX.md: 'Total cases: 133'; data under "
                                << invalidDir();
  EXPECT_EQ(tier.size(), files.size());
  for (const std::string& file : files) EXPECT_TRUE(tier.count(file)) << file << " has no tier";
}

class InvalidFile : public testing::TestWithParam<std::string> {};

TEST_P(InvalidFile, IsRefusedOrSanitizedWithAMessage) {
  const auto tier = tiers();
  ASSERT_TRUE(tier.count(GetParam())) << GetParam();
  const fs::path path = invalidDir() / GetParam();
  const sim::Result<world::ImportedModel> model = world::importGltf(path);
  const std::string fileName = path.filename().string();
  if (!model.ok()) {
    EXPECT_NE(model.error().find(fileName), std::string::npos)
        << "the message must name the file: " << model.error();
    // Issue 40: in our words, naming the field, not tinygltf's ("primitive indices accessor out
    // of bounds", "accessor[1] invalid bufferView", "image[0] bufferView \"3\" not found in the
    // scene.", "'byteLength' property is not a positive integer.", "Failed to decode 'uri'").
    for (const char* theirs : {"out of bounds", "invalid bufferView", "not found in the scene",
                               "property is not a positive integer", "Failed to decode"})
      EXPECT_EQ(model.error().find(theirs), std::string::npos) << model.error();
    return;
  }
  EXPECT_NE(tier.at(GetParam()), "REJECT") << "accepted a file that must be refused";
  if (tier.at(GetParam()) == "SANITIZE") {
    ASSERT_FALSE(model->warnings.empty()) << "loaded without saying what it sanitized";
    EXPECT_NE(model->warnings[0].find(fileName), std::string::npos) << model->warnings[0];
  }
  world::MeshLibrary library;  // whatever loads must be safe to hand on
  for (const world::ImportedMesh& mesh : model->meshes) {
    world::MeshId id;
    EXPECT_TRUE(library.add(mesh.data, &id)) << mesh.data.name;
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, InvalidFile, testing::ValuesIn(invalidFiles()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

}  // namespace
