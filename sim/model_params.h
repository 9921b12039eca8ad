// Parameter counts of decoder-only transformers (Llama / Mistral / Mixtral / Qwen layout:
// untied or tied embeddings, GQA attention without biases, gated SwiGLU MLP, RMSNorm; or GPT:
// biases, a plain MLP, LayerNorm and learned positions) and the
// Llama reference FFN-width rule (meta-llama/llama-models sku_list.py / model.py).
#pragma once

#include "sim/specs.h"

namespace sim {

/// Total parameters: embeddings (x2 when untied) + layers x (attention + MLP or experts + router
/// + 2 norms) + final norm. Attention: hidden x heads x headDim x 2 (Q, O) +
/// hidden x kvHeads x headDim x 2 (K, V). Gated MLP: 3 x hidden x intermediate per expert.
double paramCount(const ModelSpec& model);
/// Parameters touched per token: as paramCount but with expertsPerToken + sharedExperts experts.
double activeParamCount(const ModelSpec& model);
/// Weights one token multiplies in one layer (its matmuls: Q, K, V, O and the active experts'
/// MLPs); 2x this is the layer's forward FLOPs per token before attention over the context.
double layerMatmulParams(const ModelSpec& model);
/// Llama FFN width: h = int(2 x 4 dim / 3); h = int(multiplier x h);
/// round h up to a multiple of `multipleOf`.
int llamaFfnHidden(int dim, double multiplier, int multipleOf);

}  // namespace sim
