// The one-way arrows (app -> renderer -> world -> sim), checked on the source text: every
// #include in a folder is matched against the patterns that folder may not use.
#pragma once

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "tests/common/paths.h"

namespace testlayering {

/// "file:line: #include ..." for each include in `folder` (recursively) that matches `forbidden`.
inline std::vector<std::string> forbiddenIncludes(const std::string& folder,
                                                  const std::regex& forbidden) {
  std::vector<std::string> found;
  const std::regex include(R"(^\s*#\s*include\s*[<"]([^>"]+)[>"])");
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(testpaths::sourceDir() / folder)) {
    const auto ext = entry.path().extension();
    if (ext != ".h" && ext != ".cpp" && ext != ".hpp") continue;
    std::ifstream in(entry.path());
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      std::smatch match;
      if (std::regex_search(line, match, include) && std::regex_search(match[1].str(), forbidden)) {
        found.push_back(entry.path().string() + ":" + std::to_string(number) + ": " + line);
      }
    }
  }
  return found;
}

/// Number of C++ source files in `folder` (so a test can tell it looked at something).
inline int sourceFileCount(const std::string& folder) {
  int count = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(testpaths::sourceDir() / folder)) {
    const auto ext = entry.path().extension();
    if (ext == ".h" || ext == ".cpp") ++count;
  }
  return count;
}

}  // namespace testlayering
