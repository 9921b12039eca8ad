// libFuzzer target: fuzzentry::json (see entry_points.h). Any contract break aborts the run.
#include <cstdio>
#include <cstdlib>

#include "fuzz/entry_points.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (std::string problem = fuzzentry::json(data, size); !problem.empty()) {
    std::fprintf(stderr, "dcwalk fuzz json: %s\n", problem.c_str());
    std::abort();
  }
  return 0;
}
