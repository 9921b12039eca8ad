// libFuzzer target: fuzzentry::gltf (see gltf_entry_point.h), in a private temporary folder so
// that files the input references can only resolve to nothing or to the input itself.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz/gltf_entry_point.h"
#include "fuzz/work_dir.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto& dir = fuzzentry::privateWorkDir("dcwalk fuzz gltf: mkdtemp");
  if (std::string problem = fuzzentry::gltf(data, size, dir); !problem.empty()) {
    std::fprintf(stderr, "dcwalk fuzz gltf: %s\n", problem.c_str());
    std::abort();
  }
  return 0;
}
