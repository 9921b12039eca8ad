// Memory calculators: weights, KV cache, mixed-precision Adam training state and ZeRO shares
// (Rajbhandari et al.). Activations per layer are sim/calc/transformer.h, per pipeline stage
// sim/calc/training.h; the serving budget sim/calc/serving.h.
// All sizes are bytes (decimal GB = 1e9 when printed); pure functions, no catalog access.
#pragma once

#include <optional>
#include <string_view>

#include "sim/precision.h"
#include "sim/specs.h"

namespace sim::calc {

/// Weights: params x bytes per element (Transformer Math 101).
double weightBytes(double params, Precision precision);

/// KV cache per token: 2 (K and V) x layers x kvHeads x headDim x bytesPerElement.
double kvCacheBytesPerToken(int layers, int kvHeads, int headDim, double bytesPerElement);
/// KV cache per token of `model` stored in `precision`.
double kvCacheBytesPerToken(const ModelSpec& model, Precision precision);
/// KV cache for `tokens` of context per sequence and `batch` sequences: perToken x tokens x batch.
double kvCacheBytes(double bytesPerToken, double tokens, double batch);

/// Activation-memory strategies of Korthikanti et al. (arXiv:2205.05198, Table 2); the bytes
/// per layer are calc::layerActivationBytes (sim/calc/transformer.h).
enum class ActivationStrategy {
  None,            // no parallelism: sbh(34 + 5as/h) for GPT shapes
  TensorParallel,  // sbh(10 + 24/t + 5as/(ht))
  TensorSequence,  // TP + sequence parallel: (sbh/t)(34 + 5as/h)
  Selective,       // TP + SP + selective recompute: 34 sbh / t (attention core recomputed)
  Full,            // full recompute: 2 sbh (the layer input only)
};
/// Name used in scenarios ("none", "tp", "tp_sp", "selective", "full").
std::string_view activationStrategyName(ActivationStrategy strategy);
/// Parses a strategy name; nullopt when unknown.
std::optional<ActivationStrategy> parseActivationStrategy(std::string_view name);

/// Mixed-precision Adam model state: params x bytesPerParam (16 = 2 + 2 + K, K = 12; ZeRO paper).
double trainingStateBytes(double params, double bytesPerParam);

/// ZeRO stages (Rajbhandari et al. arXiv:1910.02054, Fig. 1): 0 = plain data parallel,
/// 1 = optimizer states, 2 = + gradients, 3 = + parameters.
/// Per-GPU model-state bytes for stage `stage` with `dp` data-parallel ranks and optimizer
/// bytes per param K: stage 0 (4 + K)P; 1: 4P + KP/dp; 2: 2P + (2 + K)P/dp; 3: (4 + K)P/dp.
double zeroModelStateBytesPerGpu(double params, int stage, double dp,
                                 double optimizerBytesPerParam);

/// HF accelerate's "training with Adam" rule: 4 x the model size in the load dtype.
double accelerateAdamBytes(double weights_bytes);

}  // namespace sim::calc
