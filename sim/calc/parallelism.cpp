#include "sim/calc/parallelism.h"

#include <algorithm>

#include "sim/calc/compute.h"

namespace sim::calc {

std::optional<int64_t> layoutGpus(const ParallelLayout& layout) {
  int64_t gpus = 1;
  for (int degree : {layout.tp, layout.cp, layout.pp, layout.dp}) {
    if (degree < 1 || __builtin_mul_overflow(gpus, int64_t(degree), &gpus)) return std::nullopt;
  }
  return gpus;
}

std::string checkLayout(const ParallelLayout& layout, int heads, int layers, int experts) {
  if (layout.tp < 1) return "tp: must be >= 1";
  if (layout.pp < 1) return "pp: must be >= 1";
  if (layout.dp < 1) return "dp: must be >= 1";
  if (layout.ep < 1) return "ep: must be >= 1";
  if (layout.cp < 1) return "cp: must be >= 1";
  if (heads % layout.tp != 0) {
    return "tp: " + std::to_string(layout.tp) + " does not divide the " + std::to_string(heads) +
           " attention heads";
  }
  if (layout.pp > layers) {
    return "pp: " + std::to_string(layout.pp) + " exceeds the " + std::to_string(layers) +
           " layers";
  }
  if (layout.dp % layout.ep != 0) {
    return "ep: " + std::to_string(layout.ep) + " does not divide dp " + std::to_string(layout.dp);
  }
  if (layout.ep > 1 && (experts == 0 || experts % layout.ep != 0)) {
    return "ep: " + std::to_string(layout.ep) + " does not divide the " + std::to_string(experts) +
           " experts";
  }
  return "";
}

double bubbleFraction1F1B(int stages, int microBatches) {
  return (stages - 1.0) / microBatches;
}

double bubbleShareOfIteration(int stages, int microBatches) {
  // In doubles throughout: m + p in int overflows for m near 2^31.
  return (stages - 1.0) / (double(microBatches) + double(stages) - 1.0);
}

double bubbleFractionInterleaved(int stages, int microBatches, int virtualStages) {
  return (stages - 1.0) / (static_cast<double>(virtualStages) * microBatches);
}

int stageLayers(int layers, int stages, int stage) {
  const int base = layers / stages;
  int extra = layers - base * stages;
  // Spare layers fill the middle stages, then the first, then the last.
  const int middle = std::max(stages - 2, 0);
  if (stage > 0 && stage < stages - 1) return base + (stage <= extra ? 1 : 0);
  extra -= std::min(extra, middle);
  if (stage == 0) return base + (extra > 0 ? 1 : 0);
  return base + (extra > 1 || (stages == 1 && extra > 0) ? 1 : 0);
}

double inFlightMicroBatches(int stage, int stages, int microBatches, int virtualStages) {
  const double m = microBatches, v = virtualStages, p = stages, s = stage;
  if (virtualStages <= 1) return std::min(m, p - s);
  const double chunks = std::min(m * v, 2.0 * (p - s - 1.0) + (v - 1.0) * p + 1.0);
  return chunks / v;
}

int tpAllReducesPerLayer() {
  return 4;
}

double tpAllReduceBytes(double microBatch, double seqLen, double hidden, double bytesPerElement) {
  return microBatch * seqLen * hidden * bytesPerElement;
}

double ppActivationBytes(double microBatch, double seqLen, double hidden, double bytesPerElement) {
  return microBatch * seqLen * hidden * bytesPerElement;
}

double moeAllToAllBytes(double tokens, double expertsPerToken, double hidden,
                        double bytesPerElement) {
  return 2.0 * tokens * expertsPerToken * hidden * bytesPerElement;
}

double dpComputeBoundTokensPerGpu(double peak_flops, double bandwidth_Bps) {
  return peak_flops / bandwidth_Bps;
}

double tpComputeBoundMaxDegree(double ffn, double peak_flops, double bandwidth_Bps) {
  return ffn * bandwidth_Bps / peak_flops;
}

double megatronTrainingTime_s(double tokens, double params, double gpus, double flopsPerGpu) {
  return 8.0 * tokens * params / (gpus * flopsPerGpu);
}

}  // namespace sim::calc
