// Tours as data: a tour file (assets/tours/<name>.json) holds chapters of steps; each step names
// where the camera goes (a station or an explicit orbit pose), its narration as keys into a
// strings file per language (assets/tours/strings.<lang>.json), the sim scenario preset, an
// optional engine scenario with injected faults, overlays and how long it holds. Loading checks
// every reference (stations, scenarios, overlays, panels, strings) and names file:line (pointer).
// world/tour.* never builds the world: the names it checks against are passed in.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/engine/engine_desc.h"
#include "sim/json_file.h"
#include "sim/result.h"
#include "world/live/layer_id.h"
#include "world/live/overlay_metric.h"
#include "world/scene/flight.h"

namespace world {

/// Longest narration text a strings file may hold, bytes of UTF-8: ten times the longest shipped
/// (285). ImGui draws a text with 4 vertices a glyph and one draw list holds 65,536, so a
/// 50,000-character caption aborted the frame ("Too many vertices").
inline constexpr size_t MAX_CAPTION_BYTES = 2000;
/// Longest id, strings key or name in a tour or strings file, bytes.
inline constexpr size_t MAX_NAME_BYTES = 128;
/// Longest chapter id, bytes: ids go into file names (`tour --headless` key frames).
inline constexpr size_t MAX_FILE_NAME_ID_BYTES = 48;

/// "" when `id` can go into a file name as it is: 1 to MAX_FILE_NAME_ID_BYTES of a-z, 0-9, '_'
/// and '-', the first a letter or digit (no '/', no "..", nothing hidden, the same on every file
/// system); otherwise what is wrong with it.
std::string checkFileNameId(const std::string& id);

/// Overlay names a step may switch on (the renderer and panels know these).
const std::vector<std::string>& knownOverlays();

/// What a step shows on top of the world, typed when the tour is loaded from the names of
/// knownOverlays().
struct StepOverlays {
  // "heat.power", "heat.temperature", "heat.utilization", or "parallelism" (pipeline stages).
  OverlayMetric heat = OverlayMetric::None;
  bool labels = false;    // "labels"
  bool roofline = false;  // "roofline": the hero GPU glows with the panel's roofline phase
  // The live layers the step switches on, by their names (world/live/layer_id.h: "traffic",
  // "coolant", "memory", "ring", "power", "firehose", "nvlink", "goodput", "stages", "compare",
  // "race"); "tiles" is the race's layer with CUDA cores against tensor cores on its screens.
  LayerSet layers;
  bool tiles = false;

  bool operator==(const StepOverlays&) const = default;
};
/// Switches on the overlay called `name`; false when the name is unknown.
bool addOverlay(std::string_view name, StepOverlays& overlays);
/// Simulator panel ids, one per chapter.
const std::vector<std::string>& knownPanels();

/// A narration key as used in the tour file, with where it is used (for error messages).
struct StringUse {
  std::string key;
  std::string where;  // "file:line (pointer)"
};

struct TourStep {
  std::optional<std::string> station;  // a station name, or
  std::optional<OrbitPose> orbit;      // an explicit camera orbit pose (world metres, radians)
  std::vector<std::string> narration;  // strings keys, shown one chunk at a time
  std::string action;                  // strings key shown after the chunks ("" = none)
  // What the action asks the visitor to use or watch: "knob:<--set path>", "button:<id>" or
  // "picture:<race|roofline|bar>" of the chapter's panel (checked against assets/panels.json by
  // the app's tests).
  std::vector<std::string> controls;
  std::string booth;  // strings key: the booth's one caption line (<= 15 words; "" = none)
  // strings key: the booth's headline, the step's one number in plain words with its placeholder
  // ("GPU: {race.gpu_speedup} faster"); "" = the chapter panel's verdict
  std::string headline;
  std::string scenario;                        // sim scenario preset (assets/scenarios/<name>.json)
  std::string engineScenario;                  // engine scenario (the chapter's, else the tour's)
  std::vector<sim::engine::FaultDesc> faults;  // injected into the engine scenario
  StepOverlays overlays;
  double hold_s = 8.0;  // how long the step stays when the tour plays by itself
  std::string where;    // "file:line (pointer)" of the step
};

struct TourChapter {
  std::string id;          // "serial_vs_parallel"
  std::string title;       // strings key
  std::string panel;       // one of knownPanels()
  bool finale = false;     // the finale follows chapter 10 and has no number key
  bool highlight = false;  // played by the kiosk's attract loop
  std::vector<TourStep> steps;
  // "trace_steps": what the chapter shows instead when the visitor's own job is replayed
  // (--trace), e.g. the finale's measured vs modelled; empty: the same steps either way.
  std::vector<TourStep> traceSteps;
};

struct Tour {
  std::filesystem::path file;
  std::string title;           // strings key
  std::string engineScenario;  // what every step runs unless its chapter or itself says
  std::vector<TourChapter> chapters;
  std::vector<StringUse> stringUses;  // every key the tour uses, in file order
};

/// The names a tour may refer to (from the built world, the scenario folder and the engine).
struct TourReferences {
  std::vector<std::string> stations;
  std::vector<std::string> scenarios;
  std::vector<std::string> engineScenarios;
};

/// One language: key -> text.
struct StringTable {
  std::filesystem::path file;
  std::string language;  // "en", from strings.<language>.json
  std::map<std::string, std::string> texts;

  /// The text of `key`, or nullptr.
  const std::string* find(const std::string& key) const;
};

/// A loaded tour with every language found beside it, all cross-checked.
struct TourBundle {
  Tour tour;
  std::vector<StringTable> languages;  // sorted by language code

  /// The language called `code`, or nullptr.
  const StringTable* language(std::string_view code) const;
};

/// Parses a tour document and checks its references; errors name file:line (pointer).
sim::Result<Tour> parseTour(const sim::JsonFile& file, const TourReferences& refs);
/// Reads and parses a tour file.
sim::Result<Tour> loadTourFile(const std::filesystem::path& path, const TourReferences& refs);
/// Parses a strings document: one object of key -> non-empty text.
sim::Result<StringTable> parseStrings(const sim::JsonFile& file, std::string language);
/// Reads strings.<language>.json.
sim::Result<StringTable> loadStringsFile(const std::filesystem::path& path);
/// Checks that every key the tour uses exists in every language; names the use and the file.
sim::Result<bool> checkStrings(const Tour& tour, const std::vector<StringTable>& languages);

/// assets/tours.
std::filesystem::path toursDir();
/// Tour names in `dir` (every <name>.json but the strings files), sorted.
std::vector<std::string> tourNames(const std::filesystem::path& dir = toursDir());
/// Loads `dir`/<name>.json (or a path ending in .json) with every strings.*.json of its folder.
sim::Result<TourBundle> loadTourBundle(const std::string& nameOrFile, const TourReferences& refs,
                                       const std::filesystem::path& dir = toursDir());

}  // namespace world
