// Import a model from a Hugging Face config.json (the ecosystem's own description of an
// architecture). Supported: decoder-only Llama-style models (model_type llama, mistral, mixtral:
// no attention biases, gated MLP, RMSNorm) and BERT encoders (model_type "bert"). Other types are
// refused with a message rather than counted wrongly (DeepSeek's MLA, Qwen's QKV biases ...).
// Recognised fields: num_hidden_layers, hidden_size, num_attention_heads, num_key_value_heads,
// head_dim, intermediate_size, moe_intermediate_size, vocab_size, tie_word_embeddings,
// num_local_experts / n_routed_experts / num_experts, num_experts_per_tok, n_shared_experts,
// and for BERT max_position_embeddings and type_vocab_size.
#pragma once

#include <filesystem>
#include <string>

#include "sim/json_file.h"
#include "sim/result.h"
#include "sim/specs.h"

namespace sim {

/// A model read from config.json with the quantities that follow from it.
struct HfModel {
  ModelSpec spec;
  std::string modelType;           // config "model_type"
  double params = 0;               // total parameters
  double activeParams = 0;         // parameters per token (MoE); = params for dense models
  double kvBytesPerTokenBf16 = 0;  // 0 for encoders (no KV cache)
};

/// Parses an already-read config.json; errors name the file:line and JSON pointer.
Result<HfModel> importHfConfig(const JsonFile& file);
/// Reads and parses a config.json file.
Result<HfModel> importHfConfigFile(const std::filesystem::path& path);

/// BERT encoder parameters (with pooler): embeddings (V + P + T) h + 2h;
/// per layer 4(h^2 + h) + 2 h i + i + h + 4h; pooler h^2 + h.
double bertParamCount(int layers, int hidden, int intermediate, int vocab, int maxPositions,
                      int typeVocab);

}  // namespace sim
