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

double accelerateAdamBytes(double weights_bytes) {
  return 4.0 * weights_bytes;
}

}  // namespace sim::calc
