#include "sim/trace/model_trace.h"

#include <algorithm>
#include <cmath>

namespace sim::trace {

int64_t streamId(ModelStream s) {
  // The compute stream is CUDA's stream 7 as in Kineto's traces; NCCL's communicators each
  // launch on a stream of their own.
  constexpr int64_t IDS[MODEL_STREAM_COUNT] = {7, 20, 24, 28, 32};
  return IDS[static_cast<int>(s)];
}

const char* streamLabel(ModelStream s) {
  constexpr const char* LABELS[MODEL_STREAM_COUNT] = {"compute", "tp nccl", "pp nccl", "dp nccl",
                                                      "ep nccl"};
  return LABELS[static_cast<int>(s)];
}

ModelCollective modelCollective(std::string kind, double inBytes, double outBytes,
                                Precision precision, std::vector<int64_t> groupRanks,
                                std::string groupName) {
  // c10::ScalarType's names, as Kineto writes them in "dtype".
  const char* dtype = "Byte";
  double elementBytes = 1;
  switch (precision) {
    case Precision::FP32:
      dtype = "Float", elementBytes = 4;
      break;
    case Precision::BF16:
      dtype = "BFloat16", elementBytes = 2;
      break;
    case Precision::FP16:
      dtype = "Half", elementBytes = 2;
      break;
    case Precision::FP8:
      dtype = "Float8_e4m3fn", elementBytes = 1;
      break;
    case Precision::INT8:
      dtype = "Char", elementBytes = 1;
      break;
    case Precision::FP4:
    case Precision::INT4:
      break;  // packed two to a byte: counted as bytes
  }
  ModelCollective c;
  c.kind = std::move(kind);
  c.inElements = static_cast<int64_t>(std::llround(inBytes / elementBytes));
  c.outElements = static_cast<int64_t>(std::llround(outBytes / elementBytes));
  c.dtype = dtype;
  c.groupRanks = std::move(groupRanks);
  c.groupName = std::move(groupName);
  return c;
}

int64_t toNs(double seconds) {
  return static_cast<int64_t>(std::llround(seconds * 1e9));
}

uint32_t ModelRank::nameId(const std::string& name) {
  auto it = std::find(names.begin(), names.end(), name);
  if (it != names.end()) return static_cast<uint32_t>(it - names.begin());
  names.push_back(name);
  return static_cast<uint32_t>(names.size() - 1);
}

int64_t ModelRank::addKernel(double start_s, double dur_s, ModelStream stream, GpuClass cls,
                             const std::string& name, int32_t collective) {
  const int64_t start = toNs(start_s);
  const int64_t end = toNs(start_s + dur_s);
  if (end <= start) return start;
  kernels.push_back({start, end - start, stream, cls, nameId(name), collective});
  return end;
}

void sortKernels(ModelRank& rank) {
  std::stable_sort(
      rank.kernels.begin(), rank.kernels.end(),
      [](const ModelKernel& a, const ModelKernel& b) { return a.start_ns < b.start_ns; });
}

}  // namespace sim::trace
