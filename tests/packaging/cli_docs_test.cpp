// The man page and the bash and zsh completions that the build generates from
// `dcwalk --cli-reference`, checked against what `--help` prints, what `dcwalk stations` and
// `dcwalk sim --list` list, and the scenario files in assets/: every subcommand, every option,
// every station, scenario and overlay is there, read the way a user meets them (man renders the
// page, bash runs the completion function, zsh completes on a pseudo-terminal).
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "tests/common/paths.h"
#include "tests/packaging/cli_help.h"

using testcli::shell;
using namespace testhelp;

namespace {

std::filesystem::path scratch(const std::string& name) {
  auto dir = std::filesystem::path(DCWALK_BINARY_DIR) / "packaging-test" / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::string quoted(const std::string& text) {
  std::string q = "'";
  for (char c : text) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// The page as `man` renders it, wide enough that no line wraps.
std::string renderedManPage() {
  return shell("LC_ALL=C.UTF-8 MANWIDTH=400 man -l " + quoted(generated("dcwalk.1").string()) +
               " 2>&1")
      .out;
}

// The rendered page's sections per command ("" for the OPTIONS section of dcwalk itself): a
// heading is "   dcwalk asset check FILE", the command path being its lower-case words.
std::map<std::string, std::string> manSections(const std::string& page) {
  std::map<std::string, std::string> sections;
  std::istringstream in(page);
  std::string current = "-";
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("   dcwalk", 0) == 0 && line.size() > 3 && line[3] != ' ') {
      std::istringstream heading(line.substr(3 + 6));
      current.clear();
      for (std::string w; heading >> w &&
                          w.find_first_not_of("abcdefghijklmnopqrstuvwxyz_-") == std::string::npos;)
        current += (current.empty() ? "" : " ") + w;
      sections[current];
      continue;
    }
    if (!line.empty() && line[0] != ' ') current = line == "OPTIONS" ? "" : "-";
    if (current != "-") {
      for (char& c : line) c = c == ',' ? ' ' : c;  // "-h, --help"
      sections[current] += line + "\n";
    }
  }
  return sections;
}

// What bash offers for `line` (ending in a space: completing a new word) in folder `cwd`.
Words bashComplete(const std::string& line, const std::filesystem::path& cwd) {
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string w; in >> w;) words.push_back(w);
  if (line.back() == ' ') words.emplace_back();
  std::string array;
  for (const std::string& w : words) array += " " + quoted(w);
  const auto script = cwd / "complete.sh";
  std::ofstream(script) << "source " << quoted(generated("dcwalk.bash").string()) << "\n"
                        << "COMP_WORDS=(" << array << ")\n"
                        << "COMP_CWORD=" << words.size() - 1 << "\n"
                        << "_dcwalk\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n";
  auto run = shell("cd " + quoted(cwd.string()) + " && bash --norc --noprofile complete.sh 2>&1");
  EXPECT_EQ(run.status, 0) << line << ": " << run.out;
  Words out = firstWords(run.out);
  out.erase("complete.sh");
  return out;
}

// What zsh shows after `line` and a Tab.
Words zshComplete(const std::string& line) {
  const auto driver = testpaths::sourceDir() / "tests" / "packaging" / "zsh_complete.zsh";
  auto run = shell("zsh -f " + quoted(driver.string()) + " " + quoted(generated("").string()) +
                   " " + quoted(line) + " 2>&1");
  EXPECT_EQ(run.status, 0) << line << ": " << run.out;
  EXPECT_EQ(run.out.find("command not found"), std::string::npos) << line << ": " << run.out;
  EXPECT_EQ(run.out.find("_arguments:"), std::string::npos) << line << ": " << run.out;
  return words(run.out);
}

Words without(Words w, const Words& drop) {
  for (const std::string& d : drop) w.erase(d);
  return w;
}

// `dcwalk sim --list`: analytic scenarios alone on a line, engine ones marked.
void simList(Words& analytic, Words& engine) {
  std::istringstream in(testcli::dcwalk("sim --list", false).out);
  for (std::string line; std::getline(in, line);) {
    const size_t mark = line.find(" (time simulation");
    if (mark == std::string::npos) {
      analytic.insert(line);
    } else {
      engine.insert(line.substr(0, mark));
    }
  }
}

// The overlays as `dcwalk shot --help` names them: "heatmap and live labels: power, ..., none".
Words overlaysFromHelp() {
  const std::string help = testcli::dcwalk("shot --help", false).out;
  const size_t at = help.find("heatmap and live labels: ");
  if (at == std::string::npos) return {};
  std::string list = help.substr(at + 25, help.find('\n', at) - at - 25);
  for (char& c : list) c = c == ',' ? ' ' : c;
  return words(list);
}

}  // namespace

TEST(ManPage, RendersWithoutWarnings) {
  ASSERT_TRUE(std::filesystem::exists(generated("dcwalk.1")));
  // What lintian runs (manpage-has-errors-from-man).
  auto run =
      shell("LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z " +
            quoted(generated("dcwalk.1").string()) + " 2>&1 >/dev/null");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.out, "");
}

TEST(ManPage, ListsEveryCommandAndItsOptions) {
  const auto help = allHelp();
  ASSERT_GE(help.size(), 8u);  // dcwalk, its seven commands, asset's and settings' own
  const std::string page = renderedManPage();
  ASSERT_NE(page.find("DCWALK(1)"), std::string::npos) << page;
  const auto sections = manSections(page);
  for (const auto& [path, h] : help) {
    ASSERT_TRUE(sections.count(path)) << "no man page section for 'dcwalk " << path << "'";
    // Each command's -h/--help is said once for all.
    const Words want = path.empty() ? h.options : without(h.options, {"-h", "--help"});
    EXPECT_EQ(missing(want, words(sections.at(path))), Words{}) << "dcwalk " << path;
  }
  // The version in the title is the project's.
  EXPECT_NE(page.find(std::string("dcwalk ") + DCWALK_PROJECT_VERSION), std::string::npos);
}

TEST(BashCompletion, OffersEverySubcommandAndOption) {
  const auto cwd = scratch("bash-words");
  const auto help = allHelp();
  for (const auto& [path, h] : help) {
    const std::string line = "dcwalk " + (path.empty() ? "" : path + " ");
    if (!h.subcommands.empty()) {
      EXPECT_EQ(bashComplete(line, cwd), h.subcommands) << line;
    }
    Words options = h.options;
    if (path.empty()) options.merge(Words(help.at("tour").options));  // tour is the default
    EXPECT_EQ(bashComplete(line + "-", cwd), options) << line;
  }
  EXPECT_EQ(bashComplete("dcwalk shot --sta", cwd), Words{"--station"});
  // `dcwalk --kiosk` is `dcwalk tour --kiosk`: tour's options go on, its numbers take no files.
  EXPECT_EQ(bashComplete("dcwalk --kiosk --qu", cwd), Words{"--quality"});
  EXPECT_EQ(bashComplete("dcwalk --kiosk --monitor ", cwd), Words{});
}

TEST(BashCompletion, OffersStationsScenariosOverlaysAndFiles) {
  const auto cwd = scratch("bash-values");
  std::ofstream(cwd / "my-scenario.json") << "{}";
  const Words stations = firstWords(testcli::dcwalk("stations", false).out);
  ASSERT_GE(stations.size(), 12u);
  EXPECT_EQ(bashComplete("dcwalk shot --station ", cwd), stations);
  EXPECT_EQ(bashComplete("dcwalk shot --station rack", cwd), (Words{"rack", "rack_back"}));

  const Words overlays = overlaysFromHelp();
  ASSERT_GE(overlays.size(), 5u);
  EXPECT_EQ(bashComplete("dcwalk shot --overlay ", cwd), overlays);

  // sim --scenario: the scenario files shipped in assets/scenarios, or a file of one's own.
  Words scenarioFiles{"my-scenario.json"};
  for (const auto& e :
       std::filesystem::directory_iterator(testpaths::sourceDir() / "assets" / "scenarios")) {
    if (e.is_regular_file() && e.path().extension() == ".json")  // not its validation/ folder
      scenarioFiles.insert(e.path().stem().string());
  }
  ASSERT_GE(scenarioFiles.size(), 4u);
  EXPECT_EQ(bashComplete("dcwalk sim --scenario ", cwd), scenarioFiles);

  // shot --scenario and sim --engine: the engine's built-in time simulations.
  Words analytic, engine;
  simList(analytic, engine);
  ASSERT_FALSE(engine.empty());
  EXPECT_EQ(bashComplete("dcwalk shot --scenario ", cwd), engine);
  EXPECT_EQ(bashComplete("dcwalk sim --engine ", cwd), engine);
  EXPECT_EQ(missing(analytic, bashComplete("dcwalk sim --scenario ", cwd)), Words{});

  // Paths: files for --out and asset check, none for a number.
  EXPECT_EQ(bashComplete("dcwalk shot --out my", cwd), Words{"my-scenario.json"});
  EXPECT_EQ(bashComplete("dcwalk asset check ", cwd), Words{"my-scenario.json"});
  EXPECT_EQ(bashComplete("dcwalk shot --time ", cwd), Words{});
}

TEST(ZshCompletion, OffersSubcommandsOptionsAndStations) {
  ASSERT_EQ(shell("command -v zsh").status, 0) << "zsh is missing (scripts/deps installs it)";
  const auto help = allHelp();
  EXPECT_EQ(missing(help.at("").subcommands, zshComplete("dcwalk ")), Words{});
  EXPECT_EQ(missing(help.at("asset").subcommands, zshComplete("dcwalk asset ")), Words{});
  // zsh shows an option that takes a value as --name=.
  Words shotOptions;
  for (const std::string& o : zshComplete("dcwalk shot --"))
    shotOptions.insert(o.substr(0, o.find('=')));
  EXPECT_EQ(missing(without(help.at("shot").options, {"-h"}), shotOptions), Words{});
  const Words stations = firstWords(testcli::dcwalk("stations", false).out);
  EXPECT_EQ(missing(stations, zshComplete("dcwalk shot --station ")), Words{});
  EXPECT_EQ(missing(overlaysFromHelp(), zshComplete("dcwalk shot --overlay ")), Words{});
}
