// Replays the cli fuzz target's seeds and any fixed findings (fuzz/seeds/cli, fuzz/regressions/cli)
// through its own entry point (fuzz/cli_entry_point.h): the real command tree, parsed and never
// run, must refuse or accept values inside their declared domains.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fuzz/cli_entry_point.h"
#include "fuzz/output_entry_point.h"
#include "tests/common/paths.h"

namespace fs = std::filesystem;

namespace {

std::string textOf(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string run(const std::string& text) {
  return fuzzentry::cli(reinterpret_cast<const uint8_t*>(text.data()), text.size());
}

}  // namespace

TEST(FuzzRegressions, ReplayCliSeedsAndRegressions) {
  int files = 0;
  for (const char* folder : {"seeds/cli", "regressions/cli"}) {
    const fs::path dir = testpaths::sourceDir() / "fuzz" / folder;
    EXPECT_TRUE(fs::is_directory(dir)) << dir << " is missing";
    if (!fs::is_directory(dir)) continue;
    for (const auto& file : fs::directory_iterator(dir)) {
      if (!file.is_regular_file()) continue;
      EXPECT_EQ(run(textOf(file.path())), "") << file.path();
      ++files;
    }
  }
  EXPECT_GE(files, 13);
}

// The contract check itself finds a value outside its domain: an accepted command line is held
// to the table, so a replay that passes means the values were inside it.
TEST(FuzzRegressions, CliEntryPointChecksAcceptedValuesAgainstTheirDomains) {
  CLI::App tree{"dcwalk"};
  const std::vector<app::Command> commands = app::addCommands(tree);
  tree.parse(app::parseOrder({"shot", "--time", "12.5"}));
  const app::Command* shot = nullptr;
  for (const app::Command& c : commands)
    if (c.sub->get_name() == "shot") shot = &c;
  ASSERT_NE(shot, nullptr);
  EXPECT_EQ(fuzzentry::checkAcceptedCommand(*shot), "");
  EXPECT_EQ(run("shot\n--time\n12.5"), "");
  EXPECT_EQ(run("shot\n--time\nnan"), "");  // refused: fine
  EXPECT_EQ(fuzzentry::cliArguments(reinterpret_cast<const uint8_t*>("a\n\nb"), 4),
            (std::vector<std::string>{"a", "", "b"}));
}

// Issue 40: the output target's regressions (fuzz/regressions/output: a save failing at each of
// its calls, over an old file and a new one, of one to three 1 MiB writes) hold its contract.
TEST(FuzzRegressions, ReplayOutputRegressions) {
  const fs::path dir = testpaths::sourceDir() / "fuzz" / "regressions" / "output";
  ASSERT_TRUE(fs::is_directory(dir)) << dir << " is missing: the replay would pass on nothing";
  int files = 0;
  for (const auto& file : fs::directory_iterator(dir)) {
    if (!file.is_regular_file()) continue;
    const std::string bytes = textOf(file.path());
    EXPECT_EQ(fuzzentry::output(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), "")
        << file.path();
    ++files;
  }
  EXPECT_GE(files, 7);
}
