// libFuzzer target: fuzzentry::assets (see assets_entry_point.h), in a private temporary folder
// that holds the override file and the models it may name, nothing else.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz/assets_entry_point.h"
#include "fuzz/work_dir.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto& dir = fuzzentry::privateWorkDir("dcwalk fuzz assets: mkdtemp");
  if (std::string problem = fuzzentry::assets(data, size, dir); !problem.empty()) {
    std::fprintf(stderr, "dcwalk fuzz assets: %s\n", problem.c_str());
    std::abort();
  }
  return 0;
}
