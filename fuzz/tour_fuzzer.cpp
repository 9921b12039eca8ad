// libFuzzer target: fuzzentry::tour (see tour_entry_point.h). Any contract break aborts the run.
#include <cstdio>
#include <cstdlib>

#include "fuzz/tour_entry_point.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (std::string problem = fuzzentry::tour(data, size); !problem.empty()) {
    std::fprintf(stderr, "dcwalk fuzz tour: %s\n", problem.c_str());
    std::abort();
  }
  return 0;
}
