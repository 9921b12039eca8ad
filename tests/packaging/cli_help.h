// What `dcwalk ... --help` says, read back from its text: the independent account the generated
// man page and completions are checked against (they are made from --cli-reference instead).
#pragma once

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/common/cli.h"

namespace testhelp {

using Words = std::set<std::string>;

struct Help {
  Words options;      // every name: -h, --help, --out
  Words subcommands;  // tour, shot, ...
};

/// Parses CLI11's help layout: a section title ("Options:", "Subcommands:") and two-space
/// indented entries; wrapped descriptions are indented further and skipped.
inline Help parseHelp(const std::string& text) {
  Help help;
  std::istringstream in(text);
  std::string section;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == ':' && line[0] != ' ') {
      section = line;
      continue;
    }
    if (line.size() < 3 || line.compare(0, 2, "  ") != 0 || line[2] == ' ') continue;
    const std::string first = line.substr(2, line.find(' ', 2) - 2);
    if (section == "Options:") {
      std::stringstream names(first);
      for (std::string name; std::getline(names, name, ',');) help.options.insert(name);
    } else if (section == "Subcommands:") {
      help.subcommands.insert(first);
    }
  }
  return help;
}

/// Every command path ("" for dcwalk itself, "asset check") with its help, from --help down.
inline std::map<std::string, Help> allHelp() {
  std::map<std::string, Help> all;
  std::vector<std::string> todo{""};
  while (!todo.empty()) {
    const std::string path = todo.back();
    todo.pop_back();
    const Help help = parseHelp(testcli::dcwalk(path + " --help", false).out);
    for (const std::string& sub : help.subcommands)
      todo.push_back(path.empty() ? sub : path + " " + sub);
    all[path] = help;
  }
  return all;
}

/// The words of `text` (split at white space).
inline Words words(const std::string& text) {
  Words out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.insert(w);
  return out;
}

/// The first word of every line of `text` (`dcwalk stations`: the names).
inline Words firstWords(const std::string& text) {
  Words out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::istringstream l(line);
    if (std::string w; l >> w) out.insert(w);
  }
  return out;
}

/// The elements of `want` that `have` lacks.
inline Words missing(const Words& want, const Words& have) {
  Words out;
  std::set_difference(want.begin(), want.end(), have.begin(), have.end(),
                      std::inserter(out, out.end()));
  return out;
}

inline std::string joined(const Words& w) {
  std::string out;
  for (const std::string& s : w) out += (out.empty() ? "" : " ") + s;
  return out;
}

/// Where the build put the generated man page and completions.
inline std::filesystem::path generated(const std::string& name) {
  return std::filesystem::path(DCWALK_BINARY_DIR) / "packaging" / name;
}

}  // namespace testhelp
