#include "sim/calc/memory.h"

#include <array>
#include <cmath>
#include <utility>

namespace sim::calc {
namespace {

constexpr std::array<std::pair<ActivationStrategy, std::string_view>, 5> STRATEGY_NAMES = {{
    {ActivationStrategy::None, "none"},
    {ActivationStrategy::TensorParallel, "tp"},
    {ActivationStrategy::TensorSequence, "tp_sp"},
    {ActivationStrategy::Selective, "selective"},
    {ActivationStrategy::Full, "full"},
}};

}  // namespace

double weightBytes(double params, Precision precision) {
  return params * bytesPerElement(precision);
}

double kvCacheBytesPerToken(int layers, int kvHeads, int headDim, double bytesPerElement) {
  return 2.0 * layers * kvHeads * headDim * bytesPerElement;
}

double kvCacheBytesPerToken(const ModelSpec& model, Precision precision) {
  return kvCacheBytesPerToken(model.layers, model.kvHeads, model.headDim,
                              bytesPerElement(precision));
}

double kvCacheBytes(double bytesPerToken, double tokens, double batch) {
  return bytesPerToken * tokens * batch;
}

std::string_view activationStrategyName(ActivationStrategy strategy) {
  for (const auto& [s, name] : STRATEGY_NAMES) {
    if (s == strategy) return name;
  }
  return "";
}

std::optional<ActivationStrategy> parseActivationStrategy(std::string_view name) {
  for (const auto& [s, n] : STRATEGY_NAMES) {
    if (n == name) return s;
  }
  return std::nullopt;
}

double activationBytesPerLayer(ActivationStrategy strategy, double s, double b, double h, double a,
                               double t) {
  const double sbh = s * b * h;
  switch (strategy) {
    case ActivationStrategy::None:
      return sbh * (34.0 + 5.0 * a * s / h);
    case ActivationStrategy::TensorParallel:
      return sbh * (10.0 + 24.0 / t + 5.0 * a * s / (h * t));
    case ActivationStrategy::TensorSequence:
      return sbh / t * (34.0 + 5.0 * a * s / h);
    case ActivationStrategy::Selective:
      return 34.0 * sbh / t;
    case ActivationStrategy::Full:
      return 2.0 * sbh;
  }
  return 0.0;
}

double trainingStateBytes(double params, double bytesPerParam) {
  return params * bytesPerParam;
}

double zeroModelStateBytesPerGpu(double params, int stage, double dp, double k) {
  const double p = params;
  switch (stage) {
    case 1:
      return 4.0 * p + k * p / dp;
    case 2:
      return 2.0 * p + (2.0 + k) * p / dp;
    case 3:
      return (4.0 + k) * p / dp;
    default:
      return (4.0 + k) * p;
  }
}

double inferenceMemoryBytes(double weights_bytes, double kvCache_bytes, double overheadFraction) {
  return weights_bytes * (1.0 + overheadFraction) + kvCache_bytes;
}

double accelerateAdamBytes(double weights_bytes) {
  return 4.0 * weights_bytes;
}

MemoryFit checkFit(double required_bytes, double capacity_bytes) {
  return MemoryFit{.required_bytes = required_bytes,
                   .capacity_bytes = capacity_bytes,
                   .headroom_bytes = capacity_bytes - required_bytes,
                   .fits = required_bytes <= capacity_bytes};
}

double maxBatchForKv(double capacity_bytes, double fixed_bytes, double kvBytesPerToken,
                     double tokensPerSequence) {
  const double perSequence = kvBytesPerToken * tokensPerSequence;
  if (perSequence <= 0 || capacity_bytes <= fixed_bytes) return 0.0;
  return std::floor((capacity_bytes - fixed_bytes) / perSequence);
}

}  // namespace sim::calc
