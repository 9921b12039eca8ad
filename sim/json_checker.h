// Checks on a parsed JSON file shared by the loaders of tours and panels (world/): typed field
// access, unknown-field refusal and non-empty strings, where the first problem found is kept as
// "file:line (pointer): message". A loader derives from it and adds its own rules.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/json_file.h"

namespace sim {

/// True when `name` is one of `names`.
bool contains(const std::vector<std::string>& names, const std::string& name);
/// "a, b, c": names listed for an error message.
std::string joined(const std::vector<std::string>& names);

class JsonChecker {
 public:
  using Json = nlohmann::json;
  using Pointer = Json::json_pointer;

  explicit JsonChecker(const JsonFile& file) : m_file(file) {}

  /// Records `message` at `at` (file:line (pointer)) and returns false.
  bool flag(const Pointer& at, const std::string& message);
  /// The value at `at`, or nullptr.
  const Json* find(const Pointer& at) const;
  /// The value at `at`, which must exist and be of `type` (`what` names it in the error).
  const Json* field(const Pointer& at, Json::value_t type, const char* what);
  /// False (flagged) when the object at `at` has a member not in `allowed`.
  bool onlyFields(const Pointer& at, std::initializer_list<const char*> allowed);
  /// A non-empty string at `at`.
  bool text(const Pointer& at, std::string& out);

 protected:
  const JsonFile& m_file;
  std::string m_error;  // the first problem found ("" when none)
};

}  // namespace sim
