// The catalog: every hardware, model, facility and cost figure, read from assets/catalog/*.json.
// A figure is a JSON object {"value": number, "unit": "...", "source": "...", "basis": "..."}
// ("note" optional); it is addressed by its dotted path, e.g. "gpus.h100_sxm.hbm_bandwidth_Bps".
// Each file holds one or more top-level sections; a section may live in one file only.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/basis.h"
#include "sim/result.h"

namespace sim {

struct Quantity {
  double value = 0;
  std::string unit;
  std::string source;
  Basis basis = Basis::Estimate;
  std::string note;
  std::string where;  // "file:line (pointer)" where it was defined
};

class Catalog {
 public:
  /// Loads every *.json file in `dir` (sorted by name). Any invalid figure fails the whole load,
  /// with a message naming the file, line and JSON pointer; nothing is half-loaded.
  static Result<Catalog> loadDirectory(const std::filesystem::path& dir);
  /// Loads from in-memory documents (name -> text); used by tests and fuzzers.
  static Result<Catalog> loadTexts(const std::map<std::string, std::string>& namedTexts);

  /// The figure at a dotted path, or nullptr.
  const Quantity* find(const std::string& dottedPath) const;
  /// Names of the children of a dotted path ("gpus" -> {"h100_sxm", ...}), sorted.
  std::vector<std::string> children(const std::string& dottedPath) const;
  /// The raw JSON at a dotted path (for strings and lists), or nullptr.
  const nlohmann::json* json(const std::string& dottedPath) const;
  /// Every figure, by dotted path.
  const std::map<std::string, Quantity>& quantities() const { return m_quantities; }

  /// Assembles a catalog from already-validated parts (used by the loaders).
  static Catalog fromParts(nlohmann::json root, std::map<std::string, Quantity> quantities);

 private:
  nlohmann::json m_root = nlohmann::json::object();
  std::map<std::string, Quantity> m_quantities;
};

/// The folder of shipped data (catalog/, scenarios/, tours/ ...): $DCWALK_ASSETS when set; else,
/// for an installed program, the data installed beside it (/usr/bin/dcwalk reads
/// /usr/share/dcwalk); else the project's assets/ folder (compiled in as
/// DCWALK_DEFAULT_ASSETS_DIR), which is what the build tree and the tests use.
std::filesystem::path assetsDir();

/// True when the running executable is an installed one (its data lies beside it, see
/// assetsDir): it then writes only into the user's XDG folders, never next to itself.
bool runningInstalled();

}  // namespace sim
