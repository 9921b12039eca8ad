#include "sim/calc/compute.h"

#include <algorithm>
#include <limits>

namespace sim::calc {

double inferenceFlopsPerToken(double params) {
  return 2.0 * params;
}

double trainingFlops(double params, double tokens, bool fullRecompute) {
  return (fullRecompute ? 8.0 : 6.0) * params * tokens;
}

double peakFromMicroarchitecture(double units, double flopsPerCyclePerUnit, double clock_Hz) {
  return units * flopsPerCyclePerUnit * clock_Hz;
}

double ridgePoint(double peak_flops, double bandwidth_Bps) {
  return peak_flops / bandwidth_Bps;
}

double attainableFlops(double ai, double peak_flops, double bandwidth_Bps) {
  return std::min(peak_flops, ai * bandwidth_Bps);
}

double rooflineTime_s(double flops, double bytes, double peak_flops, double bandwidth_Bps) {
  return std::max(flops / peak_flops, bytes / bandwidth_Bps);
}

double gemmIntensity(double tokens, double d, double f, double bytesPerElement) {
  return 2.0 * tokens * d * f / (bytesPerElement * (d * f + tokens * d + tokens * f));
}

double criticalTokens(double d, double f, double bytesPerElement, double ridge) {
  const double denominator = 2.0 * d * f - ridge * bytesPerElement * (d + f);
  if (denominator <= 0) return std::numeric_limits<double>::infinity();
  return ridge * bytesPerElement * d * f / denominator;
}

}  // namespace sim::calc
