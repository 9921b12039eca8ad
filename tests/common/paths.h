// Where tests find things: the project's own tree, and ../shared (test data nobody here wrote).
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
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

/// A fresh, empty folder for one test: dcwalk-TAG-<pid> in the temporary folder.
inline std::filesystem::path freshDir(const std::string& tag) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("dcwalk-" + tag + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

/// A fresh, empty folder removed when it goes out of scope: dcwalk-TAG-<pid>-<n>. Named by the
/// process, so tests that ctest runs side by side never share (or delete) each other's files.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& tag) {
    static int counter = 0;
    path = freshDir(tag + "-" + std::to_string(counter++));
  }
  ~TempDir() {
    std::error_code ignored;  // a test that failed half-way may have left it in any state
    std::filesystem::remove_all(path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

/// A file's bytes ("" when it cannot be read).
inline std::string readAll(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace testpaths
