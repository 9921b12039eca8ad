// The private temporary folder of a fuzzer that writes its input to files (gltf, assets): made
// once per process, so what the input names can only resolve to what the fuzzer wrote there.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace fuzzentry {

/// The folder, created on first use; the run aborts (`what` names the fuzzer) if it cannot be.
inline const std::filesystem::path& privateWorkDir(const char* what) {
  static const std::filesystem::path dir = [what] {
    std::string pattern = (std::filesystem::temp_directory_path() / "dcwalk-fuzz-XXXXXX").string();
    if (!mkdtemp(pattern.data())) {
      std::perror(what);
      std::abort();
    }
    return std::filesystem::path(pattern);
  }();
  return dir;
}

}  // namespace fuzzentry
