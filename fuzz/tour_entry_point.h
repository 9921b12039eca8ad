// The fuzzed tour entry point (see entry_points.h), apart because it needs world/ (the sim tests
// include entry_points.h and link only dcwalk_sim).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/entry_points.h"
#include "sim/engine/scenarios.h"
#include "sim/scenario.h"
#include "world/tour/tour.h"

namespace fuzzentry {

/// The file name the tour part is parsed as.
inline constexpr const char* TOUR_FILE = "fuzz-tour.json";

/// The names a fuzzed tour is checked against: every station the world builds (`dcwalk
/// stations`), and the real sim and engine scenario lists.
inline const world::TourReferences& tourReferences() {
  static const world::TourReferences refs = [] {
    world::TourReferences r;
    r.stations = {"campus", "cooling",   "die", "fabric", "gh100", "hall", "hbm",     "package",
                  "rack",   "rack_back", "row", "sm",     "tpu",   "tray", "xeon_amx"};
    r.scenarios = sim::builtinScenarioNames();
    r.engineScenarios = sim::engine::builtinScenarioNames();
    return r;
  }();
  return refs;
}

/// The language code of strings part `index` (0-based): en, de, fr, es, ja, then x4, x5 ...
inline std::string tourLanguage(size_t index) {
  static const char* const codes[] = {"en", "de", "fr", "es", "ja"};
  return index < std::size(codes) ? codes[index] : "x" + std::to_string(index);
}

/// "" when `name` is one of `known`; otherwise what is wrong.
inline std::string checkKnown(const std::string& name, const std::vector<std::string>& known,
                              const char* what) {
  if (std::find(known.begin(), known.end(), name) != known.end()) return "";
  return std::string("accepted an unknown ") + what + " \"" + name + "\"";
}

/// "" when every reference of an accepted tour is valid and every number finite.
inline std::string checkAcceptedTour(const world::Tour& tour,
                                     const std::vector<world::StringTable>& languages) {
  const world::TourReferences& refs = tourReferences();
  if (tour.chapters.empty()) return "accepted a tour without chapters";
  if (languages.empty()) return "accepted a tour without a strings file";
  std::vector<std::string> keys = {tour.title};
  for (const world::TourChapter& chapter : tour.chapters) {
    keys.push_back(chapter.title);
    // Chapter ids go into key frames' file names (03-<id>-2.png): 1 to 48 of a-z, 0-9, '_', '-',
    // starting with a letter or digit, so no id leaves --out, hides a file or cuts a name short.
    const std::string& id = chapter.id;
    const auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    if (id.empty() || id.size() > 48 || !alnum(id[0]) ||
        !std::all_of(id.begin(), id.end(),
                     [&](char c) { return alnum(c) || c == '_' || c == '-'; }))
      return "accepted a chapter id that is no safe file name: \"" + id + "\"";
    if (auto p = checkKnown(chapter.panel, world::knownPanels(), "panel"); !p.empty()) return p;
    if (chapter.steps.empty()) return "accepted a chapter without steps";
    for (const world::TourStep& step : chapter.steps) {
      if (step.station.has_value() == step.orbit.has_value())
        return "accepted a step without exactly one of station and orbit";
      if (step.station) {
        if (auto p = checkKnown(*step.station, refs.stations, "station"); !p.empty()) return p;
      } else {
        const world::OrbitPose& o = *step.orbit;
        for (int i = 0; i < 3; ++i)
          if (!std::isfinite(o.target[i])) return "accepted a non-finite orbit target";
        if (!std::isfinite(o.distance_m) || o.distance_m <= 0)
          return "accepted an orbit distance that is not finite and positive";
        if (!std::isfinite(o.yaw_rad) || !std::isfinite(o.pitch_rad))
          return "accepted a non-finite orbit angle";
      }
      if (!step.scenario.empty())
        if (auto p = checkKnown(step.scenario, refs.scenarios, "scenario"); !p.empty()) return p;
      if (!step.engineScenario.empty())
        if (auto p = checkKnown(step.engineScenario, refs.engineScenarios, "engine scenario");
            !p.empty())
          return p;
      if (!step.faults.empty() && step.engineScenario.empty())
        return "accepted faults without an engine scenario";
      for (const auto& fault : step.faults) {
        if (!std::isfinite(fault.start_s) || fault.start_s < 0 || !(fault.end_s > fault.start_s))
          return "accepted a fault whose start is not finite or whose end is not after it";
        if (!std::isfinite(fault.severity) || fault.severity < 0 || fault.severity > 1)
          return "accepted a fault severity outside [0, 1]";
      }
      if (!std::isfinite(step.hold_s) || step.hold_s <= 0)
        return "accepted a hold time that is not finite and positive";
      if (step.narration.empty()) return "accepted a step without narration";
      keys.insert(keys.end(), step.narration.begin(), step.narration.end());
      if (!step.action.empty()) keys.push_back(step.action);
    }
  }
  for (const world::StringTable& table : languages) {
    for (const auto& [key, text] : table.texts)
      if (text.size() > world::MAX_CAPTION_BYTES || key.size() > world::MAX_NAME_BYTES)
        return "accepted a text or key longer than its limit in " + table.file.string();
    for (const std::string& key : keys) {
      const std::string* found = table.find(key);
      if (!found || found->empty())
        return "accepted key \"" + key + "\" missing or empty in " + table.file.string();
    }
  }
  return "";
}

/// The tour loading path from text: the part before the first separator is the tour document
/// (fuzz-tour.json, world::parseTour against tourReferences()); each later part is one strings
/// file (strings.en.json, strings.de.json ..., world::parseStrings), then world::checkStrings.
/// Refusals must name the file they are about; an accepted tour must pass checkAcceptedTour.
inline std::string tour(const uint8_t* data, size_t size) {
  auto parts = splitParts(std::string_view(reinterpret_cast<const char*>(data), size));
  auto file = sim::parseJsonText(std::move(parts[0]), TOUR_FILE);
  if (!file) return checkNamed(file.error(), TOUR_FILE);
  auto parsed = world::parseTour(*file, tourReferences());
  if (!parsed) return checkNamed(parsed.error(), TOUR_FILE);
  std::vector<world::StringTable> languages;
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string language = tourLanguage(i - 1);
    const std::string name = "strings." + language + ".json";
    auto strings = sim::parseJsonText(std::move(parts[i]), name);
    if (!strings) return checkNamed(strings.error(), name);
    auto table = world::parseStrings(*strings, language);
    if (!table) return checkNamed(table.error(), name);
    languages.push_back(std::move(*table));
  }
  // A missing key names its use in the tour (and the strings file); no strings file names the tour.
  auto checked = world::checkStrings(*parsed, languages);
  if (!checked) return checkNamed(checked.error(), TOUR_FILE);
  return checkAcceptedTour(*parsed, languages);
}

}  // namespace fuzzentry
