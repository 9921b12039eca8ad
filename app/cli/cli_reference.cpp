#include "app/cli/cli_reference.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "app/cli/commands.h"
#include "sim/engine/scenarios.h"
#include "sim/scenario.h"
#include "world/builders/dimensions.h"
#include "world/live/overlays.h"
#include "world/tour/tour.h"
#include "world/world.h"

namespace app {
namespace {

using Json = nlohmann::ordered_json;
using Names = std::vector<std::string>;

Names stationNames() {
  Names names;
  auto dims = world::Dimensions::loadDefault();
  if (!dims) return names;
  auto built = world::World::create(*dims);
  if (!built) return names;
  for (const world::Station& s : (*built)->stations()) names.push_back(s.name);
  return names;
}

Names overlayNames() {
  Names names;
  for (int i = 0; i < world::OVERLAY_METRIC_COUNT; ++i)
    names.emplace_back(world::overlayMetricName(world::OverlayMetric(i)));
  return names;
}

Names tourNames() {
  return world::tourNames();
}

// What a shot's scenario may name besides a file: an engine built-in or an analytic scenario.
Names shotScenarioNames() {
  Names names = sim::engine::builtinScenarioNames();
  for (const std::string& name : sim::builtinScenarioNames()) names.push_back(name);
  return names;
}

// The values the program knows for an option whose type cannot say them (CLI11 only sees TEXT).
struct KnownValues {
  const char* command;  // the subcommand's path, "asset check"
  const char* option;   // its long name
  Names (*values)();
  bool orFile;  // a file path is accepted too
};

const KnownValues KNOWN_VALUES[] = {
    {"tour", "--tour", tourNames, true},
    {"shot", "--station", stationNames, false},
    {"shot", "--overlay", overlayNames, false},
    {"shot", "--scenario", sim::engine::builtinScenarioNames, false},
    {"shot", "--compare", shotScenarioNames, true},
    {"bench", "--scenario", sim::engine::builtinScenarioNames, false},
    {"sim", "--scenario", sim::builtinScenarioNames, true},
    {"sim", "--engine", sim::engine::builtinScenarioNames, false},
};

// CLI11's full type name, "BASE[:VALIDATOR]...": a flag has none; "TEXT:WxH", "INT:INT in [1 -
// 10]", "TEXT:{stations,campus,overlays}", "ENUM:value in {auto->0,high->2,low->1} OR {0,2,1}".
struct ValueType {
  std::string shown;  // the value as the man page shows it: a|b|c, the validators, or the base
  Names choices;      // the first {a,b,...} set, transforms' targets dropped
};

ValueType valueType(const CLI::Option& option) {
  ValueType type;
  const std::string full = option.get_type_name();
  const size_t colon = full.find(':');
  type.shown = colon == std::string::npos ? full : full.substr(colon + 1);
  const size_t open = full.find('{');
  const size_t close = full.find('}', open);
  if (open != std::string::npos && close != std::string::npos) {
    const std::string items = full.substr(open + 1, close - open - 1);
    size_t start = 0;
    while (start <= items.size()) {
      const size_t comma = std::min(items.find(',', start), items.size());
      const std::string item = items.substr(start, comma - start);
      type.choices.push_back(item.substr(0, item.find("->")));
      start = comma + 1;
    }
    type.shown.clear();
    for (const std::string& c : type.choices) type.shown += (type.shown.empty() ? "" : "|") + c;
  }
  return type;
}

// True when `word` stands alone in `text` (no letter right before or after it).
bool hasWord(const std::string& text, const std::string& word) {
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const size_t end = at + word.size();
    if ((at == 0 || !std::isalpha(static_cast<unsigned char>(text[at - 1]))) &&
        (end == text.size() || !std::isalpha(static_cast<unsigned char>(text[end]))))
      return true;
  }
  return false;
}

// True when a plain TEXT value is a path: the help texts call those a file or a folder
// ("PNG file to write", "folder for headless frames", "config.json", the positional FILE).
bool namesAPath(const CLI::Option& option) {
  const std::string& text = option.get_description();
  return hasWord(text, "file") || hasWord(text, "folder") ||
         text.find(".json") != std::string::npos || option.get_name(true) == "FILE";
}

// How a shell completes the value: from `values`, and file names where it names a path.
Json valueJson(const CLI::Option& option, const ValueType& type, const Names& values,
               const KnownValues* known) {
  Json value;
  value["shown"] = type.shown;
  const bool files =
      known ? known->orFile : values.empty() && type.shown == "TEXT" && namesAPath(option);
  value["values"] = values;
  value["files"] = files;
  return value;
}

// Walks the CLI11 tree, handing each known value list to the option it names.
class Walker {
 public:
  explicit Walker(std::vector<const KnownValues*> known) : m_unused(std::move(known)) {}
  const std::vector<const KnownValues*>& unused() const { return m_unused; }
  const std::string& error() const { return m_error; }

  Json command(const CLI::App& app, const std::string& path) {
    Json out;
    out["name"] = app.get_name();
    out["path"] = path;
    out["description"] = app.get_description();
    out["options"] = Json::array();
    out["positionals"] = Json::array();
    for (const CLI::Option* option : app.get_options()) {
      if (option->get_group().empty()) continue;  // hidden
      Json entry;
      const KnownValues* known = nullptr;
      for (auto it = m_unused.begin(); it != m_unused.end(); ++it) {
        if ((*it)->command == path && option->check_lname(std::string((*it)->option).substr(2))) {
          known = *it;
          m_unused.erase(it);
          break;
        }
      }
      const bool takesValue = option->get_items_expected_max() > 0;  // a flag expects none
      if (option->nonpositional()) {
        Names names;
        for (const std::string& s : option->get_snames()) names.push_back("-" + s);
        for (const std::string& l : option->get_lnames()) names.push_back("--" + l);
        entry["names"] = names;
      } else {
        entry["name"] = option->get_name(true);
      }
      entry["description"] = option->get_description();
      if (takesValue) {
        const ValueType type = valueType(*option);
        const Names values = known ? known->values() : type.choices;
        if (known && values.empty() && m_error.empty())
          m_error = "no values for " + path + " " + known->option + " (could the assets be read?)";
        entry["value"] = valueJson(*option, type, values, known);
        entry["default"] = option->get_default_str();
        entry["repeatable"] = option->get_expected_max() > 1;
        entry["count"] = std::max(option->get_expected_min(), 1);  // KEY VALUE: 2 words
      }
      out[option->nonpositional() ? "options" : "positionals"].push_back(entry);
    }
    out["commands"] = Json::array();
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) {
           return !s->get_group().empty();  // hidden subcommands have no group
         })) {
      out["commands"].push_back(
          command(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name()));
    }
    return out;
  }

 private:
  std::vector<const KnownValues*> m_unused;  // not matched to an option yet
  std::string m_error;                       // the first known value list that came back empty
};

}  // namespace

sim::Result<nlohmann::ordered_json> cliReference(const CLI::App& cli) {
  std::vector<const KnownValues*> known;
  for (const KnownValues& k : KNOWN_VALUES) known.push_back(&k);
  Walker walker(std::move(known));
  Json out = walker.command(cli, "");
  if (!walker.error().empty()) return sim::Result<Json>::failure(walker.error());
  if (!walker.unused().empty()) {
    const KnownValues& lost = *walker.unused()[0];
    return sim::Result<Json>::failure(std::string("no option ") + lost.command + " " + lost.option +
                                      " for its known values (app/cli_reference.cpp)");
  }
  return out;
}

int printCliReference(const CLI::App& cli) {
  auto reference = cliReference(cli);
  if (!reference) {
    std::fprintf(stderr, "dcwalk: --cli-reference: %s\n", reference.error().c_str());
    return EXIT_FAILURE_RUNTIME;
  }
  std::cout << reference->dump(2) << "\n";
  return EXIT_OK;
}

}  // namespace app
