// libFuzzer target: fuzzentry::output (see output_entry_point.h). Any contract break aborts the
// run.
#include <cstdio>
#include <cstdlib>

#include "fuzz/output_entry_point.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (std::string problem = fuzzentry::output(data, size); !problem.empty()) {
    std::fprintf(stderr, "dcwalk fuzz output: %s\n", problem.c_str());
    std::abort();
  }
  return 0;
}
