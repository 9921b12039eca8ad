#include "world/tour/tour.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <set>

#include "sim/catalog.h"
#include "sim/engine/fault_spec.h"
#include "sim/format.h"
#include "sim/json_checker.h"

namespace world {
namespace {

using Json = nlohmann::json;
using Pointer = Json::json_pointer;
using sim::contains;
using sim::joined;

constexpr size_t MAX_CHAPTERS = 32;
constexpr size_t MAX_STEPS_PER_CHAPTER = 64;
constexpr size_t MAX_CHUNKS_PER_STEP = 8;
constexpr size_t MAX_FAULTS_PER_STEP = 16;
constexpr size_t NUMBER_KEYS = 10;  // chapters 1-9 and 0 (= 10) have a key; the finale does not
constexpr double MAX_HOLD_S = 600.0;

// Reads one document; the first error wins and names file:line (pointer).
class TourParser : sim::JsonChecker {
 public:
  TourParser(const sim::JsonFile& file, const TourReferences& refs)
      : JsonChecker(file), m_refs(refs) {}

  sim::Result<Tour> run() {
    Tour tour;
    tour.file = m_file.path;
    const Pointer root;
    if (!m_file.root.is_object()) return fail(root, "a tour is a JSON object");
    if (!onlyFields(root, {"title", "engine_scenario", "chapters"})) return error();
    if (!key(root / "title", tour.title)) return error();
    // With it, a step always runs a designed simulation: which one never depends on where the
    // visitor came from.
    if (find(root / "engine_scenario") && !named(root / "engine_scenario", m_refs.engineScenarios,
                                                 "engine scenario", tour.engineScenario))
      return error();
    m_engineScenario = tour.engineScenario;
    const Json* chapters = field(root / "chapters", Json::value_t::array, "an array");
    if (!chapters) return error();
    if (chapters->empty()) return fail(root / "chapters", "a tour needs at least one chapter");
    if (chapters->size() > MAX_CHAPTERS)
      return fail(root / "chapters", "more than " + std::to_string(MAX_CHAPTERS) + " chapters");
    size_t numbered = 0;
    std::set<std::string> ids;
    for (size_t i = 0; i < chapters->size(); ++i) {
      const Pointer at = root / "chapters" / i;
      TourChapter chapter;
      if (!readChapter(at, chapter)) return error();
      if (!ids.insert(chapter.id).second)
        return fail(at / "id", "chapter id \"" + chapter.id + "\" is used twice");
      if (chapter.finale) {
        if (i + 1 != chapters->size()) return fail(at / "finale", "the finale must come last");
      } else if (++numbered > NUMBER_KEYS) {
        return fail(at, "at most " + std::to_string(NUMBER_KEYS) +
                            " numbered chapters (keys 1-9 and 0) before the finale");
      }
      tour.chapters.push_back(std::move(chapter));
    }
    tour.stringUses = std::move(m_uses);
    return tour;
  }

 private:
  sim::Result<Tour> fail(const Pointer& at, const std::string& message) {
    flag(at, message);
    return error();
  }
  sim::Result<Tour> error() const { return sim::Result<Tour>::failure(m_error); }

  // Every string of a tour is an id, a key or a name: short (hides JsonChecker::text).
  bool text(const Pointer& at, std::string& out) {
    if (!JsonChecker::text(at, out)) return false;
    if (out.size() > MAX_NAME_BYTES)
      return flag(at, "is " + std::to_string(out.size()) + " bytes long, more than the " +
                          std::to_string(MAX_NAME_BYTES) + " a name may have");
    return true;
  }

  // A strings-file key: recorded with its place so a missing translation names it.
  bool key(const Pointer& at, std::string& out) {
    if (!text(at, out)) return false;
    m_uses.push_back({out, m_file.where(at)});
    return true;
  }

  bool number(const Pointer& at, double lo, double hi, double& out) {
    const Json* value = field(at, Json::value_t::number_float, "a number");
    if (!value) return false;
    out = value->get<double>();
    if (!std::isfinite(out) || out < lo || out > hi)
      return flag(
          at, "must be within [" + sim::significant(lo, 6) + ", " + sim::significant(hi, 6) + "]");
    return true;
  }

  bool named(const Pointer& at, const std::vector<std::string>& known, const char* what,
             std::string& out) {
    if (!text(at, out)) return false;
    if (!contains(known, out))
      return flag(
          at, std::string("unknown ") + what + " \"" + out + "\" (known: " + joined(known) + ")");
    return true;
  }

  bool readChapter(const Pointer& at, TourChapter& chapter) {
    if (!field(at, Json::value_t::object, "an object")) return false;
    if (!onlyFields(at, {"id", "title", "panel", "finale", "highlight", "scenario",
                         "engine_scenario", "steps", "trace_steps"}))
      return false;
    if (!text(at / "id", chapter.id) || !key(at / "title", chapter.title)) return false;
    if (std::string problem = checkFileNameId(chapter.id); !problem.empty())
      return flag(at / "id", problem);
    if (!named(at / "panel", knownPanels(), "panel", chapter.panel)) return false;
    for (auto [name, target] :
         {std::pair{"finale", &chapter.finale}, std::pair{"highlight", &chapter.highlight}}) {
      if (!find(at / name)) continue;
      const Json* value = field(at / name, Json::value_t::boolean, "true or false");
      if (!value) return false;
      *target = value->get<bool>();
    }
    TourStep defaults;
    defaults.engineScenario = m_engineScenario;
    if (find(at / "scenario") &&
        !named(at / "scenario", m_refs.scenarios, "scenario", defaults.scenario))
      return false;
    if (find(at / "engine_scenario") && !named(at / "engine_scenario", m_refs.engineScenarios,
                                               "engine scenario", defaults.engineScenario))
      return false;
    if (!readSteps(at / "steps", defaults, chapter.steps)) return false;
    return !find(at / "trace_steps") || readSteps(at / "trace_steps", defaults, chapter.traceSteps);
  }

  bool readSteps(const Pointer& at, const TourStep& defaults, std::vector<TourStep>& out) {
    const Json* steps = field(at, Json::value_t::array, "an array");
    if (!steps) return false;
    if (steps->empty()) return flag(at, "a chapter needs at least one step");
    if (steps->size() > MAX_STEPS_PER_CHAPTER)
      return flag(at, "more than " + std::to_string(MAX_STEPS_PER_CHAPTER) + " steps");
    for (size_t i = 0; i < steps->size(); ++i) {
      TourStep step = defaults;
      if (!readStep(at / i, step)) return false;
      out.push_back(std::move(step));
    }
    return true;
  }

  bool readStep(const Pointer& at, TourStep& step) {
    step.where = m_file.where(at);
    if (!field(at, Json::value_t::object, "an object")) return false;
    if (!onlyFields(at, {"station", "orbit", "narration", "action", "controls", "booth", "headline",
                         "scenario", "engine_scenario", "faults", "overlays", "hold_s"}))
      return false;
    const bool hasStation = find(at / "station") != nullptr;
    const bool hasOrbit = find(at / "orbit") != nullptr;
    if (hasStation == hasOrbit)
      return flag(at, "a step needs exactly one of \"station\" and \"orbit\"");
    if (hasStation) {
      std::string name;
      if (!named(at / "station", m_refs.stations, "station", name)) return false;
      step.station = name;
    } else {
      OrbitPose pose;
      if (!readOrbit(at / "orbit", pose)) return false;
      step.orbit = pose;
    }
    const Json* narration = field(at / "narration", Json::value_t::array, "an array of keys");
    if (!narration) return false;
    if (narration->empty() || narration->size() > MAX_CHUNKS_PER_STEP)
      return flag(at / "narration",
                  "needs 1 to " + std::to_string(MAX_CHUNKS_PER_STEP) + " narration keys");
    for (size_t i = 0; i < narration->size(); ++i) {
      std::string k;
      if (!key(at / "narration" / i, k)) return false;
      step.narration.push_back(k);
    }
    if (find(at / "action") && !key(at / "action", step.action)) return false;
    if (find(at / "booth") && !key(at / "booth", step.booth)) return false;
    if (find(at / "headline") && !key(at / "headline", step.headline)) return false;
    if (find(at / "controls")) {
      if (step.action.empty()) return flag(at / "controls", "controls belong to an \"action\"");
      const Json* controls = field(at / "controls", Json::value_t::array, "an array");
      if (!controls) return false;
      for (size_t i = 0; i < controls->size(); ++i) {
        std::string control;
        if (!text(at / "controls" / i, control)) return false;
        if (control.rfind("knob:", 0) != 0 && control.rfind("button:", 0) != 0 &&
            control.rfind("picture:", 0) != 0)
          return flag(at / "controls" / i,
                      "a control is \"knob:<path>\", \"button:<id>\" or \"picture:<race, "
                      "roofline or bar>\"");
        step.controls.push_back(std::move(control));
      }
    }
    if (find(at / "scenario") &&
        !named(at / "scenario", m_refs.scenarios, "scenario", step.scenario))
      return false;
    if (find(at / "engine_scenario") && !named(at / "engine_scenario", m_refs.engineScenarios,
                                               "engine scenario", step.engineScenario))
      return false;
    if (find(at / "overlays")) {
      const Json* overlays = field(at / "overlays", Json::value_t::array, "an array of names");
      if (!overlays) return false;
      std::vector<std::string> seen;
      for (size_t i = 0; i < overlays->size(); ++i) {
        std::string name;
        if (!named(at / "overlays" / i, knownOverlays(), "overlay", name)) return false;
        if (contains(seen, name))
          return flag(at / "overlays" / i, "overlay \"" + name + "\" is listed twice");
        seen.push_back(name);
        addOverlay(name, step.overlays);
      }
    }
    if (find(at / "faults") && !readFaults(at / "faults", step)) return false;
    if (find(at / "hold_s") && !number(at / "hold_s", 0.5, MAX_HOLD_S, step.hold_s)) return false;
    return true;
  }

  bool readOrbit(const Pointer& at, OrbitPose& pose) {
    if (!field(at, Json::value_t::object, "an object")) return false;
    if (!onlyFields(at, {"target_m", "distance_m", "yaw_deg", "pitch_deg"})) return false;
    const Json* target = field(at / "target_m", Json::value_t::array, "an array [x, y, z]");
    if (!target) return false;
    if (target->size() != 3) return flag(at / "target_m", "must be [x, y, z] in metres");
    constexpr double MAX_COORD_M = 1e7;  // 10,000 km: far beyond any campus
    for (int i = 0; i < 3; ++i) {
      if (!number(at / "target_m" / i, -MAX_COORD_M, MAX_COORD_M, pose.target[i])) return false;
    }
    double yaw_deg = 0, pitch_deg = 0;
    if (!number(at / "distance_m", 1e-7, MAX_COORD_M, pose.distance_m)) return false;
    if (find(at / "yaw_deg") && !number(at / "yaw_deg", -360.0, 360.0, yaw_deg)) return false;
    if (find(at / "pitch_deg") && !number(at / "pitch_deg", -89.0, 89.0, pitch_deg)) return false;
    pose.yaw_rad = yaw_deg * std::numbers::pi / 180.0;
    pose.pitch_rad = pitch_deg * std::numbers::pi / 180.0;
    return true;
  }

  bool readFaults(const Pointer& at, TourStep& step) {
    const Json* faults = field(at, Json::value_t::array, "an array of faults");
    if (!faults) return false;
    if (faults->size() > MAX_FAULTS_PER_STEP)
      return flag(at, "more than " + std::to_string(MAX_FAULTS_PER_STEP) + " faults");
    if (!faults->empty() && step.engineScenario.empty())
      return flag(at, "faults need an \"engine_scenario\" (on the step or its chapter)");
    using sim::engine::FaultKind;
    std::vector<std::string> kinds;
    for (FaultKind k :
         {FaultKind::LinkDown, FaultKind::PfcStorm, FaultKind::PumpTrip, FaultKind::Straggler})
      kinds.push_back(sim::engine::faultKindName(k));
    for (size_t i = 0; i < faults->size(); ++i) {
      const Pointer f = at / i;
      if (!field(f, Json::value_t::object, "an object")) return false;
      if (!onlyFields(f, {"kind", "start_s", "end_s", "target", "severity", "deadlock"}))
        return false;
      sim::engine::FaultDesc fault;
      std::string kind;
      if (!named(f / "kind", kinds, "fault kind", kind)) return false;
      fault.kind =
          static_cast<FaultKind>(std::find(kinds.begin(), kinds.end(), kind) - kinds.begin());
      if (find(f / "start_s") &&
          !number(f / "start_s", 0.0, sim::engine::MAX_FAULT_TIME_S, fault.start_s))
        return false;
      if (find(f / "end_s")) {
        if (!number(f / "end_s", 0.0, sim::engine::MAX_FAULT_TIME_S, fault.end_s)) return false;
        if (fault.end_s <= fault.start_s) return flag(f / "end_s", "must be after start_s");
      }
      double target = 0;
      if (find(f / "target")) {
        if (!number(f / "target", 0.0, 4294967295.0, target)) return false;
        if (target != std::floor(target)) return flag(f / "target", "must be a whole number");
        fault.target = static_cast<uint32_t>(target);
      }
      if (find(f / "severity") && !number(f / "severity", 0.0, 1.0, fault.severity)) return false;
      if (find(f / "deadlock")) {
        const Json* value = field(f / "deadlock", Json::value_t::boolean, "true or false");
        if (!value) return false;
        fault.deadlock = value->get<bool>();
        if (fault.deadlock && fault.kind != FaultKind::PfcStorm)
          return flag(f / "deadlock", "only a pfc_storm can deadlock");
      }
      step.faults.push_back(fault);
    }
    return true;
  }

  const TourReferences& m_refs;
  std::string m_engineScenario;  // the tour's
  std::vector<StringUse> m_uses;
};

}  // namespace

std::string checkFileNameId(const std::string& id) {
  const std::string rule = " (an id goes into file names: 1 to " +
                           std::to_string(MAX_FILE_NAME_ID_BYTES) +
                           " of a-z, 0-9, '_' and '-', starting with a letter or digit)";
  if (id.empty()) return "is empty" + rule;
  if (id.size() > MAX_FILE_NAME_ID_BYTES)
    return "is " + std::to_string(id.size()) + " bytes long" + rule;
  for (size_t i = 0; i < id.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(id[i]);
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (alnum || (i > 0 && (c == '_' || c == '-'))) continue;
    char shown[16];
    std::snprintf(shown, sizeof shown, c >= 0x20 && c < 0x7f ? "'%c'" : "byte 0x%02x", c);
    return "has " + std::string(shown) + " at byte " + std::to_string(i + 1) + rule;
  }
  return "";
}

const std::vector<std::string>& knownOverlays() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out = {
        "labels",   "heat.power", "heat.temperature", "heat.utilization", "parallelism",
        "roofline", "tiles"};
    out.insert(out.end(), LAYER_NAMES.begin(), LAYER_NAMES.end());
    return out;
  }();
  return names;
}

bool addOverlay(std::string_view name, StepOverlays& overlays) {
  if (name == "labels") return overlays.labels = true;
  if (name == "roofline") return overlays.roofline = true;
  if (name == "tiles") {
    overlays.layers.set(LayerId::PixelRace);
    return overlays.tiles = true;
  }
  if (const auto layer = layerByName(name)) {
    overlays.layers.set(*layer);
    return true;
  }
  if (name == "parallelism") {
    overlays.heat = OverlayMetric::Stage;
    return true;
  }
  if (name.substr(0, 5) == "heat.") {
    if (auto metric = parseOverlayMetric(name.substr(5))) {
      overlays.heat = *metric;
      return true;
    }
  }
  return false;
}

const std::vector<std::string>& knownPanels() {
  static const std::vector<std::string> names = {
      "pixel_race", "sm_firehose", "vram_budget", "prefill_decode", "tco",    "allreduce",
      "protocol",   "nvswitch",    "parallelism", "campus",         "goodput"};
  return names;
}

const std::string* StringTable::find(const std::string& key) const {
  auto it = texts.find(key);
  return it == texts.end() ? nullptr : &it->second;
}

const StringTable* TourBundle::language(std::string_view code) const {
  for (const StringTable& t : languages)
    if (t.language == code) return &t;
  return nullptr;
}

sim::Result<Tour> parseTour(const sim::JsonFile& file, const TourReferences& refs) {
  return TourParser(file, refs).run();
}

sim::Result<Tour> loadTourFile(const std::filesystem::path& path, const TourReferences& refs) {
  auto file = sim::readJsonFile(path);
  if (!file) return sim::Result<Tour>::failure(file.error());
  return parseTour(*file, refs);
}

sim::Result<StringTable> parseStrings(const sim::JsonFile& file, std::string language) {
  using R = sim::Result<StringTable>;
  const Pointer root;
  if (!file.root.is_object())
    return R::failure(file.where(root) + ": a strings file is one JSON object of key -> text");
  StringTable table{file.path, std::move(language), {}};
  if (table.language.empty())
    return R::failure(file.path.string() + ": the file name must be strings.<language>.json");
  for (const auto& [k, value] : file.root.items()) {
    if (k.size() > MAX_NAME_BYTES)
      return R::failure(file.where(root / k) + ": a key is " + std::to_string(k.size()) +
                        " bytes long, more than the " + std::to_string(MAX_NAME_BYTES) +
                        " allowed");
    if (!value.is_string() || value.get<std::string>().empty())
      return R::failure(file.where(root / k) + ": the text of \"" + k +
                        "\" must be a non-empty string");
    const size_t bytes = value.get_ref<const std::string&>().size();
    if (bytes > MAX_CAPTION_BYTES)
      return R::failure(file.where(root / k) + ": the text of \"" + k + "\" is " +
                        std::to_string(bytes) + " bytes long, more than the " +
                        std::to_string(MAX_CAPTION_BYTES) + " a caption may have");
    table.texts.emplace(k, value.get<std::string>());
  }
  return table;
}

sim::Result<StringTable> loadStringsFile(const std::filesystem::path& path) {
  auto file = sim::readJsonFile(path);
  if (!file) return sim::Result<StringTable>::failure(file.error());
  // strings.<language>.json: the language is the middle part of the name.
  const std::string stem = path.stem().string();
  const std::string prefix = "strings.";
  std::string language = stem.rfind(prefix, 0) == 0 ? stem.substr(prefix.size()) : "";
  return parseStrings(*file, language);
}

sim::Result<bool> checkStrings(const Tour& tour, const std::vector<StringTable>& languages) {
  if (languages.empty())
    return sim::Result<bool>::failure(tour.file.string() +
                                      ": no strings.<language>.json beside the tour");
  for (const StringTable& table : languages) {
    for (const StringUse& use : tour.stringUses) {
      if (!table.find(use.key))
        return sim::Result<bool>::failure(use.where + ": narration key \"" + use.key +
                                          "\" is missing from " + table.file.string());
    }
  }
  return true;
}

std::filesystem::path toursDir() {
  return sim::assetsDir() / "tours";
}

std::vector<std::string> tourNames(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::filesystem::path& p = entry.path();
    if (!entry.is_regular_file() || p.extension() != ".json") continue;
    if (p.stem().string().rfind("strings.", 0) == 0) continue;
    names.push_back(p.stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

sim::Result<TourBundle> loadTourBundle(const std::string& nameOrFile, const TourReferences& refs,
                                       const std::filesystem::path& dir) {
  using R = sim::Result<TourBundle>;
  std::filesystem::path path = nameOrFile;
  if (path.extension() != ".json") {
    if (!contains(tourNames(dir), nameOrFile))
      return R::failure(nameOrFile + ": no such tour in " + dir.string() +
                        " (tours: " + joined(tourNames(dir)) + ")");
    path = dir / (nameOrFile + ".json");
  }
  auto tour = loadTourFile(path, refs);
  if (!tour) return R::failure(tour.error());
  TourBundle bundle{std::move(*tour), {}};
  std::vector<std::filesystem::path> stringFiles;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(path.parent_path(), ec)) {
    const std::filesystem::path& p = entry.path();
    if (entry.is_regular_file() && p.extension() == ".json" &&
        p.stem().string().rfind("strings.", 0) == 0)
      stringFiles.push_back(p);
  }
  std::sort(stringFiles.begin(), stringFiles.end());
  for (const auto& p : stringFiles) {
    auto table = loadStringsFile(p);
    if (!table) return R::failure(table.error());
    bundle.languages.push_back(std::move(*table));
  }
  auto checked = checkStrings(bundle.tour, bundle.languages);
  if (!checked) return R::failure(checked.error());
  return bundle;
}

}  // namespace world
