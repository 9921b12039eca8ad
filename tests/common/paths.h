// Where tests find things: the project's own tree, and ../shared (test data nobody here wrote).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

namespace testpaths {

/// The project root (compile-time).
inline std::filesystem::path sourceDir() {
  return DCWALK_SOURCE_DIR;
}

/// ../shared, or $DCWALK_SHARED when set. Tests that need it fail (not skip) with a clear
/// message when it is absent: CI always has it.
inline std::filesystem::path sharedDir() {
  if (const char* env = std::getenv("DCWALK_SHARED"); env && *env) return env;
  return sourceDir().parent_path() / "shared";
}

}  // namespace testpaths
