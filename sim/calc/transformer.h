// The per-token work of a decoder layer that the serving and training models price: matmul
// FLOPs and weight bytes, attention FLOPs over the context (causal), KV bytes, activation bytes
// the non-matmul kernels stream, and the bytes a layer keeps for its backward pass.
// Units: FLOP, bytes, tokens. Sources: Kaplan et al. 2020 (2N per token); Korthikanti et al.
// arXiv:2205.05198 §4 and Table 2 (stored activations); NVIDIA Megatron-Bridge performance
// summary (model FLOPs = 6N + causal attention, reproduced by its tokens/s and TFLOP/s columns).
#pragma once

#include "sim/calc/memory.h"
#include "sim/specs.h"

namespace sim::calc {

/// The dimensions the calculators need, resolved once from a ModelSpec.
struct TransformerShape {
  double layers = 0;
  double hidden = 0;
  double heads = 0;
  double kvHeads = 0;
  double headDim = 0;
  double intermediate = 0;
  double vocab = 0;
  bool gatedMlp = true;
  bool dropout = false;
  double layerMatmulParams = 0;  // weights one token multiplies per layer (active experts)
  double layerParams = 0;        // all weights of one layer (every expert)
  double embeddingParams = 0;    // input table (+ positions)
  double headParams = 0;         // output projection (0 when tied to the input table)
  double params = 0;             // the whole model
};
TransformerShape transformerShape(const ModelSpec& model);

/// Forward matmul FLOPs per token, all layers and the output head: 2 (L layerMatmul + h V).
double forwardMatmulFlopsPerToken(const TransformerShape& m);
/// Forward attention FLOPs of one sequence of `tokens` against itself, causal: QK^T and AV over
/// half the square on average, 2 x 2 x s^2/2 x heads x headDim per layer = 2 s^2 H d L.
double causalAttentionFlops(const TransformerShape& m, double tokens);
/// Forward attention FLOPs of `tokens` new tokens attending to `context` earlier ones plus
/// themselves (causal): 4 H d L tokens (context + tokens / 2).
double attentionFlops(const TransformerShape& m, double tokens, double context);
/// Model FLOPs per trained token (what MFU counts): 3 x forward matmul + 3 x causal attention at
/// sequence length `seqLen` (6N + 6 s H d L, as NVIDIA's Megatron-Bridge tables count them).
double trainingModelFlopsPerToken(const TransformerShape& m, double seqLen);

/// KV cache bytes per token on one of `tp` GPUs: 2 L max(1, kvHeads / tp) d bytes (KV heads are
/// split across TP ranks, replicated once there are more ranks than heads).
double kvBytesPerTokenPerGpu(const TransformerShape& m, int tp, double bytesPerElement);

/// Activation bytes the non-matmul kernels (norms, residual adds, RoPE, the MLP activation) read
/// and write per token and layer in the forward pass on one of `tp` GPUs, 2-byte activations:
/// norms and residuals on h (split by tp under sequence parallelism), RoPE on Q and K, the
/// activation on F / tp: 2 (10 h' + 2 (H d + K d) / tp + 3 F / tp) with h' = h or h / tp.
double elementwiseBytesPerToken(const TransformerShape& m, int tp, bool sequenceParallel);

/// Bytes one layer keeps for its backward pass per micro-batch on one GPU (16-bit activations),
/// counted tensor by tensor for the model's own shapes (Korthikanti et al. §4: norm inputs, the
/// QKV input, Q, K, V with GQA, the attention output, MLP input, gate/up and activation outputs;
/// dropout masks and the s^2 softmax when the strategy keeps them). With GPT-3's shapes this is
/// Korthikanti's Table 2. `tokens` = sequence / cp x micro-batch; `seqLen` the full sequence.
double layerActivationBytes(const TransformerShape& m, ActivationStrategy strategy, double tokens,
                            double seqLen, int tp);

}  // namespace sim::calc
