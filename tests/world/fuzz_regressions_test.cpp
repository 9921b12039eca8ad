// Replays every input under fuzz/regressions/gltf/ and fuzz/regressions/tour/ through the glTF
// and tour fuzzers' own entry points (fuzz/gltf_entry_point.h, fuzz/tour_entry_point.h): once a
// fuzzing finding is fixed, its input lives there and must stay harmless. Inputs still awaiting a
// fix wait in fuzz/regressions/pending/, which is not replayed.
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "fuzz/assets_entry_point.h"
#include "fuzz/gltf_entry_point.h"
#include "fuzz/tour_entry_point.h"
#include "tests/common/paths.h"
#include "tests/world/world_test_fixture.h"

namespace fs = std::filesystem;

namespace {

std::vector<uint8_t> bytesOf(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

std::string textOf(const fs::path& path) {
  std::vector<uint8_t> bytes = bytesOf(path);
  return std::string(bytes.begin(), bytes.end());
}

const uint8_t* data(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
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
  ASSERT_TRUE(fs::is_directory(dir)) << dir << " is missing: the replay would pass on nothing";
  const fs::path work = workDir();
  int replayed = 0;
  for (const auto& file : fs::directory_iterator(dir)) {
    if (!file.is_regular_file()) continue;
    std::vector<uint8_t> bytes = bytesOf(file.path());
    EXPECT_EQ(fuzzentry::gltf(bytes.data(), bytes.size(), work), "") << file.path();
    ++replayed;
  }
  EXPECT_GE(replayed, 4);
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

TEST(FuzzRegressions, ReplayTour) {
  const fs::path dir = testpaths::sourceDir() / "fuzz" / "regressions" / "tour";
  ASSERT_TRUE(fs::is_directory(dir)) << dir << " is missing: the replay would pass on nothing";
  int replayed = 0;
  for (const auto& file : fs::directory_iterator(dir)) {
    if (!file.is_regular_file()) continue;
    std::vector<uint8_t> bytes = bytesOf(file.path());
    EXPECT_EQ(fuzzentry::tour(bytes.data(), bytes.size()), "") << file.path();
    ++replayed;
  }
  EXPECT_GE(replayed, 6);
}

// The fixed station names the tour fuzzer checks against are real stations of the default world,
// so a fuzzed tour is held to the same names the app gives the loader.
TEST(FuzzRegressions, TourReferencesAreRealStations) {
  std::vector<std::string> real;
  for (const world::Station& s : worldtest::defaultWorld().stations()) real.push_back(s.name);
  const world::TourReferences& refs = fuzzentry::tourReferences();
  ASSERT_FALSE(refs.stations.empty());
  for (const std::string& name : refs.stations)
    EXPECT_NE(std::find(real.begin(), real.end(), name), real.end()) << name;
  EXPECT_FALSE(refs.scenarios.empty());
  EXPECT_FALSE(refs.engineScenarios.empty());
}

// The shipped tour with its strings, joined as the fuzzer's seed is, goes all the way through the
// loader and the accepted-tour checks; broken variants are refused naming the file.
TEST(FuzzRegressions, TourEntryPointOnShippedAndBrokenTours) {
  const fs::path tours = testpaths::sourceDir() / "assets" / "tours";
  const std::string tourText = textOf(tours / "default.json");
  const std::string en = textOf(tours / "strings.en.json");
  const std::string de = textOf(tours / "strings.de.json");
  ASSERT_FALSE(tourText.empty());
  const std::string sep(fuzzentry::PART_SEPARATOR);
  const std::string whole = tourText + sep + en + sep + de;

  // Accepted by the loader itself, so the entry point's "" below means the contract held.
  auto file = sim::parseJsonText(tourText, fuzzentry::TOUR_FILE);
  ASSERT_TRUE(file.ok()) << file.error();
  auto parsed = world::parseTour(*file, fuzzentry::tourReferences());
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  std::vector<world::StringTable> languages;
  for (auto [text, code] : {std::pair{en, "en"}, std::pair{de, "de"}}) {
    auto strings = sim::parseJsonText(text, std::string("strings.") + code + ".json");
    ASSERT_TRUE(strings.ok()) << strings.error();
    auto table = world::parseStrings(*strings, code);
    ASSERT_TRUE(table.ok()) << table.error();
    languages.push_back(std::move(*table));
  }
  ASSERT_TRUE(world::checkStrings(*parsed, languages).ok());
  EXPECT_EQ(fuzzentry::checkAcceptedTour(*parsed, languages), "");
  EXPECT_EQ(fuzzentry::tour(data(whole), whole.size()), "");

  // Refusals: truncated tour, no strings file, a strings file missing a key, a broken strings file.
  const std::string truncated = whole.substr(0, tourText.size() / 2);
  EXPECT_EQ(fuzzentry::tour(data(truncated), truncated.size()), "");
  EXPECT_EQ(fuzzentry::tour(data(tourText), tourText.size()), "");
  const std::string missingKey = tourText + sep + "{\"tour.title\": \"T\"}";
  EXPECT_EQ(fuzzentry::tour(data(missingKey), missingKey.size()), "");
  const std::string badStrings = tourText + sep + en + sep + "{\"tour.title\": 3}";
  EXPECT_EQ(fuzzentry::tour(data(badStrings), badStrings.size()), "");
  const std::string seed =
      textOf(testpaths::sourceDir() / "fuzz" / "seeds" / "tour" / "orbit_faults_finale.txt");
  ASSERT_FALSE(seed.empty());
  EXPECT_EQ(fuzzentry::tour(data(seed), seed.size()), "");

  // The accepted-tour checks catch what the loader must never let through.
  world::Tour broken = *parsed;
  broken.chapters[0].steps[0].station = "nowhere";
  EXPECT_NE(fuzzentry::checkAcceptedTour(broken, languages), "");
  broken = *parsed;
  broken.chapters[0].steps[0].hold_s = std::numeric_limits<double>::infinity();
  EXPECT_NE(fuzzentry::checkAcceptedTour(broken, languages), "");
  broken = *parsed;
  broken.chapters[0].steps[0].station.reset();
  broken.chapters[0].steps[0].orbit = world::OrbitPose{glm::dvec3(0.0), 0.0, 0.0, 0.0};
  EXPECT_NE(fuzzentry::checkAcceptedTour(broken, languages), "");
  broken = *parsed;
  broken.chapters[0].steps[0].narration.push_back("no.such.key");
  EXPECT_NE(fuzzentry::checkAcceptedTour(broken, languages), "");
  broken = *parsed;
  broken.chapters[0].panel = "no_panel";
  EXPECT_NE(fuzzentry::checkAcceptedTour(broken, languages), "");
  // Issue 40: a chapter id is a file name; one that leaves --out, hides or runs long is caught.
  for (const std::string& id : {std::string("../../x"), std::string(".profile"), std::string(""),
                                std::string(49, 'a'), std::string("A")}) {
    broken = *parsed;
    broken.chapters[0].id = id;
    EXPECT_NE(fuzzentry::checkAcceptedTour(broken, languages), "") << id;
  }
}

// The asset override target: its seeds and any fixed findings hold the contract; the seeds reach
// an accepted file (a model shared by two components, mirrored and double-sided instances) and a
// refusal of every path that leaves the folder, so "" means the checks ran.
TEST(FuzzRegressions, ReplayAssetsSeedsAndRegressions) {
  const fs::path work = workDir();
  int files = 0;
  for (const char* folder : {"seeds/assets", "regressions/assets"}) {
    const fs::path dir = testpaths::sourceDir() / "fuzz" / folder;
    EXPECT_TRUE(fs::is_directory(dir)) << dir << " is missing";
    if (!fs::is_directory(dir)) continue;
    for (const auto& file : fs::directory_iterator(dir)) {
      if (!file.is_regular_file()) continue;
      std::vector<uint8_t> bytes = bytesOf(file.path());
      EXPECT_EQ(fuzzentry::assets(bytes.data(), bytes.size(), work), "") << file.path();
      ++files;
    }
  }
  EXPECT_GE(files, 4);
  const std::string shared =
      textOf(testpaths::sourceDir() / "fuzz/seeds/assets/" / "one-model-two-components.txt");
  fuzzentry::assets(data(shared), shared.size(), work);
  auto loaded = world::loadAssetOverrides(work / fuzzentry::OVERRIDES_FILE);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded->models.size(), 2u);
  const std::string escapes =
      textOf(testpaths::sourceDir() / "fuzz/seeds/assets/" / "paths-that-leave-the-folder.txt");
  fuzzentry::assets(data(escapes), escapes.size(), work);
  auto refused = world::loadAssetOverrides(work / fuzzentry::OVERRIDES_FILE);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("climbs out"), std::string::npos) << refused.error();
  fs::remove_all(work);
}
