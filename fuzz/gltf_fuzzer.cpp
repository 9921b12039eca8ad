// libFuzzer target: fuzzentry::gltf (see gltf_entry_point.h), in a private temporary folder so
// that files the input references can only resolve to nothing or to the input itself.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "fuzz/gltf_entry_point.h"

namespace {

const std::filesystem::path& workDir() {
  static const std::filesystem::path dir = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "dcwalk-fuzz-XXXXXX").string();
    if (!mkdtemp(pattern.data())) {
      std::perror("dcwalk fuzz gltf: mkdtemp");
      std::abort();
    }
    return std::filesystem::path(pattern);
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (std::string problem = fuzzentry::gltf(data, size, workDir()); !problem.empty()) {
    std::fprintf(stderr, "dcwalk fuzz gltf: %s\n", problem.c_str());
    std::abort();
  }
  return 0;
}
