// Only regular files are read: a FIFO (which would block the open forever), a device and a
// directory are refused by every reader with words that say which it is, naming the file.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "sim/input_file.h"
#include "sim/json_file.h"
#include "sim/scenario.h"
#include "sim/trace/kineto.h"
#include "sim/trace/rank_layout.h"

#include "tests/common/paths.h"

namespace {

struct Folder {
  std::filesystem::path dir = testpaths::freshDir("input-file-test");
  std::filesystem::path fifo = dir / "pipe";
  std::filesystem::path file = dir / "plain.json";
  Folder() {
    std::ofstream(file) << "{}";
    EXPECT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  }
  ~Folder() { std::filesystem::remove_all(dir); }
};

bool says(const std::string& error, const std::string& words) {
  return error.find(words) != std::string::npos;
}

}  // namespace

TEST(InputFile, SaysWhatAPathIsWhenItIsNotARegularFile) {
  Folder f;
  EXPECT_EQ(sim::regularFileError(f.file), "");
  EXPECT_EQ(sim::regularFileError(f.dir), "is a directory");
  EXPECT_EQ(sim::regularFileError(f.fifo), "is not a regular file (a FIFO)");
  EXPECT_EQ(sim::regularFileError("/dev/null"), "is not a regular file (a device)");
  EXPECT_EQ(sim::regularFileError(f.dir / "absent"), "no such file");
}

TEST(InputFile, EveryReaderRefusesAFifoWithoutOpeningIt) {
  Folder f;
  const std::string fifo = f.fifo.string() + ": is not a regular file (a FIFO)";
  auto json = sim::readJsonFile(f.fifo);
  ASSERT_FALSE(json.ok());
  EXPECT_TRUE(says(json.error(), fifo)) << json.error();
  auto trace = sim::trace::readKinetoFile(f.fifo);
  ASSERT_FALSE(trace.ok());
  EXPECT_TRUE(says(trace.error(), fifo)) << trace.error();
  auto map = sim::trace::readRankMapFile(f.fifo, 2, 8);
  ASSERT_FALSE(map.ok());
  EXPECT_TRUE(says(map.error(), fifo)) << map.error();
  auto dir = sim::trace::readKinetoFile(f.dir);
  ASSERT_FALSE(dir.ok());
  EXPECT_TRUE(says(dir.error(), f.dir.string() + ": is a directory")) << dir.error();
}

TEST(InputFile, AScenarioThatIsAFolderOrAFifoIsNotCalledMissing) {
  Folder f;
  for (const auto& path : {f.dir, f.fifo}) {
    auto scenario = sim::loadScenario(path.string());
    ASSERT_FALSE(scenario.ok());
    EXPECT_FALSE(says(scenario.error(), "no such scenario file")) << scenario.error();
    EXPECT_TRUE(says(scenario.error(), path.string() + ": is ")) << scenario.error();
  }
}

// Issue 40: `model.hf_config` in a scenario opened any file of the machine ("../../etc/passwd")
// and echoed its first byte in the parse error. It is confined to the scenario's folder.
TEST(InputFile, AScenariosConfigJsonStaysInTheScenariosFolder) {
  Folder f;
  std::filesystem::create_symlink("/etc/passwd", f.dir / "link.json");
  const std::pair<std::string, std::string> cases[] = {
      {"../../etc/passwd", "climbs out of"},
      {"/etc/passwd", "is an absolute path"},
      {"link.json", "resolves outside"},
  };
  for (const auto& [config, words] : cases) {
    const auto scenarioPath = f.dir / "scenario.json";
    std::ofstream(scenarioPath) << "{\"name\": \"s\",\n \"model\": {\"hf_config\": \"" << config
                                << "\"}}";
    auto scenario = sim::loadScenarioFile(scenarioPath);
    ASSERT_FALSE(scenario.ok()) << config;
    EXPECT_TRUE(says(scenario.error(),
                     scenarioPath.string() + ":2 (/model/hf_config): \"" + config + "\" " + words))
        << scenario.error();
  }
  // A config.json beside the scenario is read from there.
  std::ofstream(f.dir / "scenario.json")
      << R"({"name": "s", "model": {"hf_config": "plain.json"}})";
  auto beside = sim::loadScenarioFile(f.dir / "scenario.json");
  ASSERT_TRUE(beside.ok()) << beside.error();
  EXPECT_EQ(std::filesystem::path(beside->model.hfConfig).filename(), "plain.json");
}
