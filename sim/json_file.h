// A JSON file read for validation: keeps the text so that any JSON pointer in it can be turned
// into "file:line" for error messages (nlohmann::json does not track positions).
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/result.h"

namespace sim {

/// Files larger than this are refused before they are read (untrusted input is bounded).
inline constexpr size_t MAX_JSON_FILE_BYTES = 16u << 20;
/// Nesting deeper than this is refused (no unbounded recursion on hostile files).
inline constexpr int MAX_JSON_DEPTH = 64;

struct JsonFile {
  std::filesystem::path path;
  std::string text;
  nlohmann::json root;

  /// "path:line (pointer)" for the value at `pointer`: the line of its key (or array element),
  /// found by walking the pointer through the text; the deepest part found when not all is.
  std::string where(const nlohmann::json::json_pointer& pointer) const;
};

/// Reads and parses a JSON file. Errors name the file and line:column. An object that names a
/// member twice is refused ("file:line:column (pointer): duplicate key"): nlohmann would keep the
/// last silently, and a scenario's second "workload" would replace its first.
Result<JsonFile> readJsonFile(const std::filesystem::path& path);
/// Parses JSON text that came from `displayName` (a file or "--set"); same checks as readJsonFile.
Result<JsonFile> parseJsonText(std::string text, const std::filesystem::path& displayName);

/// 1-based line and column of byte `offset` in `text`.
std::pair<size_t, size_t> lineColumnOf(const std::string& text, size_t offset);

}  // namespace sim
