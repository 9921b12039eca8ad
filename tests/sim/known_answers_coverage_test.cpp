// Every non-topology row of ../shared/reference/known_answers.csv has a test named KA<id>_... in
// tests/sim (the topology rows are the engine work's, in topology_test.cpp).
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "tests/common/paths.h"

TEST(KnownAnswers, EveryRowHasATest) {
  const auto csv = testpaths::sharedDir() / "reference" / "known_answers.csv";
  std::ifstream in(csv);
  ASSERT_TRUE(in) << "cannot read " << csv << " (set DCWALK_SHARED)";
  std::set<int> ids;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    if (!line.empty() && std::isdigit(static_cast<unsigned char>(line[0]))) {
      ids.insert(std::stoi(line.substr(0, line.find(','))));
    }
  }
  ASSERT_GE(ids.size(), 30u);
  const std::set<int> topologyRows = {11, 13, 15, 16, 17, 18, 20};

  std::string sources;
  for (const auto& entry :
       std::filesystem::directory_iterator(testpaths::sourceDir() / "tests" / "sim")) {
    if (entry.path().extension() != ".cpp") continue;
    std::ifstream file(entry.path());
    std::stringstream text;
    text << file.rdbuf();
    sources += text.str();
  }
  for (int id : ids) {
    if (topologyRows.count(id)) continue;
    const std::regex name("TEST\\(\\w+, KA" + std::to_string(id) + "_");
    EXPECT_TRUE(std::regex_search(sources, name)) << "known answer " << id << " has no test";
  }
}
