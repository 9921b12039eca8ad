#include "sim/hf_config.h"

#include <array>
#include <cmath>

#include "sim/calc/memory.h"
#include "sim/domain.h"
#include "sim/model_params.h"

namespace sim {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 3> DECODER_TYPES = {"llama", "mistral", "mixtral"};

json::json_pointer pointerTo(const char* key) {
  std::string pointer = "/";
  pointer += key;
  return json::json_pointer(pointer);
}

// Reads integer fields of a config.json, remembering the first error with its file:line.
class ConfigReader {
 public:
  explicit ConfigReader(const JsonFile& file) : m_file(file) {}

  bool has(const char* key) const {
    return m_file.root.contains(key) && !m_file.root[key].is_null();
  }

  // An integer field in `domain` (sim/domain.h, shared with the scenario's model.* fields);
  // `fallback` (when >= 0) is used when the field is absent or null.
  int integer(const char* key, const Domain& domain, int fallback = -1) {
    if (!has(key)) {
      if (fallback >= 0) return fallback;
      fail(m_file.path.string() + ": config.json lacks \"" + key + "\"");
      return 0;
    }
    const json& v = m_file.root[key];
    if (!v.is_number_integer()) {
      fail(m_file.where(pointerTo(key)) + ": \"" + key + "\" must be an integer");
      return 0;
    }
    const double value = v.is_number_unsigned() ? static_cast<double>(v.get<uint64_t>())
                                                : static_cast<double>(v.get<int64_t>());
    if (std::string why = domainError(domain, value); !why.empty()) {
      fail(m_file.where(pointerTo(key)) + ": \"" + key + "\" " + why + " (" +
           describeDomain(domain) + ")");
      return 0;
    }
    return static_cast<int>(value);
  }

  // The one value that the keys present among `keys` agree on (HF configs name the expert count
  // differently by family); a config that gives two different counts is refused, not read by
  // whichever key comes last (num_experts: 0 beside num_local_experts: 8 is not a dense model).
  int agreed(std::initializer_list<const char*> keys, const Domain& domain) {
    int value = 0;
    const char* first = nullptr;
    for (const char* key : keys) {
      if (!has(key)) continue;
      const int v = integer(key, domain);
      if (first && v != value) {
        fail(m_file.where(pointerTo(key)) + ": \"" + key + "\" = " + std::to_string(v) +
             " contradicts \"" + first + "\" = " + std::to_string(value) +
             " (the config names its experts twice)");
        return 0;
      }
      first = key;
      value = v;
    }
    return value;
  }

  // The heads split the hidden size evenly unless head_dim says otherwise (hidden / heads would
  // be floored: a model of other shapes than the checkpoint's).
  void headsDivide(int hidden, int heads) {
    if (heads > 0 && hidden >= heads && hidden % heads != 0) {
      fail(m_file.where(pointerTo("hidden_size")) + ": hidden_size " + std::to_string(hidden) +
           " is not a multiple of num_attention_heads " + std::to_string(heads) +
           " and the config gives no head_dim");
    }
  }

  // Fields that make some layers differ from the others (DeepSeek's first dense layers, Qwen
  // MoE's sparse step): the model prices every layer alike, so such a config is refused.
  void everyLayerAlike() {
    struct Uniform {
      const char* key;
      int value;  // the value under which every layer is alike
    };
    for (const Uniform u : {Uniform{"first_k_dense_replace", 0}, Uniform{"moe_layer_freq", 1},
                            Uniform{"decoder_sparse_step", 1}}) {
      if (!has(u.key)) continue;
      const json& v = m_file.root[u.key];
      if (v.is_number_integer() && v.get<int64_t>() == u.value) continue;
      fail(m_file.where(pointerTo(u.key)) + ": \"" + u.key +
           "\" makes some layers differ from the others (dense or sparse), which the model "
           "does not price: every layer is modelled alike (" +
           u.key + " " + std::to_string(u.value) + ")");
      return;
    }
    if (has("mlp_only_layers") &&
        !(m_file.root["mlp_only_layers"].is_array() && m_file.root["mlp_only_layers"].empty())) {
      fail(m_file.where(pointerTo("mlp_only_layers")) +
           ": \"mlp_only_layers\" makes some layers dense, which the model does not price: "
           "every layer is modelled alike");
    }
  }

  bool boolean(const char* key, bool fallback) {
    if (!has(key)) return fallback;
    const json& v = m_file.root[key];
    if (!v.is_boolean()) {
      fail(m_file.where(pointerTo(key)) + ": \"" + key + "\" must be true or false");
      return fallback;
    }
    return v.get<bool>();
  }

  void fail(std::string message) {
    if (m_error.empty()) m_error = std::move(message);
  }
  const std::string& error() const { return m_error; }

 private:
  const JsonFile& m_file;
  std::string m_error;
};

Result<HfModel> importDecoder(const JsonFile& file, const std::string& modelType) {
  ConfigReader r(file);
  HfModel out;
  out.modelType = modelType;
  ModelSpec& m = out.spec;
  m.id = modelType;
  m.name = file.path.string();
  m.layers = r.integer("num_hidden_layers", domains::LAYERS);
  m.hidden = r.integer("hidden_size", domains::HIDDEN);
  m.heads = r.integer("num_attention_heads", domains::HEADS);
  m.kvHeads = r.integer("num_key_value_heads", domains::HEADS, m.heads);
  if (r.error().empty() && !r.has("head_dim")) r.headsDivide(m.hidden, m.heads);
  m.headDim = r.integer("head_dim", domains::HEAD_DIM, m.heads > 0 ? m.hidden / m.heads : 0);
  m.vocab = r.integer("vocab_size", domains::VOCAB);
  m.contextTokens = r.integer("max_position_embeddings", domains::CONTEXT_TOKENS, 0);
  // Llama/Mistral/Mixtral configs default to untied embeddings.
  m.tiedEmbeddings = r.boolean("tie_word_embeddings", false);
  m.experts = r.agreed({"num_local_experts", "n_routed_experts", "num_experts"}, domains::EXPERTS);
  if (m.experts > 0 && modelType != "mixtral") {
    // LlamaForCausalLM and MistralForCausalLM build every layer dense whatever the config says:
    // experts in such a config are a mislabelled MoE, not a model to price either way.
    r.fail(file.where(json::json_pointer("/model_type")) + ": model_type \"" + modelType +
           "\" is a dense model, but the config gives it " + std::to_string(m.experts) +
           " experts (num_local_experts / n_routed_experts / num_experts); a Mixtral-style MoE "
           "is model_type \"mixtral\"");
  }
  r.everyLayerAlike();
  if (m.experts > 0) {
    m.expertsPerToken = r.integer("num_experts_per_tok", domains::EXPERTS);
    m.sharedExperts = r.integer("n_shared_experts", domains::EXPERTS, 0);
    m.intermediate = r.has("moe_intermediate_size")
                         ? r.integer("moe_intermediate_size", domains::INTERMEDIATE)
                         : r.integer("intermediate_size", domains::INTERMEDIATE);
  } else {
    m.intermediate = r.integer("intermediate_size", domains::INTERMEDIATE);
  }
  if (r.error().empty()) {
    if (m.headDim == 0) {
      r.fail(file.where(json::json_pointer("/hidden_size")) +
             ": hidden_size is smaller than num_attention_heads, so head_dim would be 0");
    } else if (m.heads % m.kvHeads != 0) {
      r.fail(file.where(json::json_pointer("/num_key_value_heads")) +
             ": num_attention_heads must be a multiple of num_key_value_heads");
    } else if (m.experts > 0 && (m.expertsPerToken < 1 || m.expertsPerToken > m.experts)) {
      r.fail(file.where(json::json_pointer("/num_experts_per_tok")) +
             ": num_experts_per_tok must be between 1 and the number of experts");
    }
  }
  if (!r.error().empty()) return Result<HfModel>::failure(r.error());
  out.params = paramCount(m);
  out.activeParams = activeParamCount(m);
  out.kvBytesPerTokenBf16 = calc::kvCacheBytesPerToken(m, Precision::BF16);
  return out;
}

Result<HfModel> importBert(const JsonFile& file) {
  ConfigReader r(file);
  HfModel out;
  out.modelType = "bert";
  ModelSpec& m = out.spec;
  m.id = "bert";
  m.name = file.path.string();
  m.layers = r.integer("num_hidden_layers", domains::LAYERS);
  m.hidden = r.integer("hidden_size", domains::HIDDEN);
  m.heads = r.integer("num_attention_heads", domains::HEADS);
  m.kvHeads = m.heads;
  if (r.error().empty()) r.headsDivide(m.hidden, m.heads);
  m.headDim = m.heads > 0 ? m.hidden / m.heads : 0;
  m.intermediate = r.integer("intermediate_size", domains::INTERMEDIATE);
  m.vocab = r.integer("vocab_size", domains::VOCAB);
  m.tiedEmbeddings = true;  // the MLM head reuses the word embeddings
  const int positions = r.integer("max_position_embeddings", domains::CONTEXT_TOKENS);
  const int typeVocab = r.integer("type_vocab_size", domains::TYPE_VOCAB, 2);
  m.contextTokens = positions;
  if (!r.error().empty()) return Result<HfModel>::failure(r.error());
  out.params = bertParamCount(m.layers, m.hidden, m.intermediate, m.vocab, positions, typeVocab);
  out.activeParams = out.params;
  return out;
}

}  // namespace

double bertParamCount(int layers, int hidden, int intermediate, int vocab, int maxPositions,
                      int typeVocab) {
  const double h = hidden, i = intermediate;
  const double embeddings = (static_cast<double>(vocab) + maxPositions + typeVocab) * h + 2.0 * h;
  const double layer = 4.0 * (h * h + h) + 2.0 * h * i + i + h + 4.0 * h;
  const double pooler = h * h + h;
  return embeddings + layers * layer + pooler;
}

Result<HfModel> importHfConfig(const JsonFile& file) {
  if (!file.root.is_object()) {
    return Result<HfModel>::failure(file.path.string() + ":1: config.json must be a JSON object");
  }
  if (!file.root.contains("model_type")) {
    return Result<HfModel>::failure(file.path.string() +
                                    ": config.json lacks \"model_type\" (llama, mistral, "
                                    "mixtral or bert)");
  }
  if (!file.root["model_type"].is_string()) {
    return Result<HfModel>::failure(file.where(json::json_pointer("/model_type")) +
                                    ": \"model_type\" must be a string");
  }
  const std::string modelType = file.root["model_type"].get<std::string>();
  if (modelType == "bert") return importBert(file);
  for (std::string_view type : DECODER_TYPES) {
    if (modelType == type) return importDecoder(file, modelType);
  }
  return Result<HfModel>::failure(file.where(json::json_pointer("/model_type")) +
                                  ": model_type \"" + modelType +
                                  "\" is not supported (llama, mistral, mixtral, bert)");
}

Result<HfModel> importHfConfigFile(const std::filesystem::path& path) {
  auto file = readJsonFile(path);
  if (!file) return Result<HfModel>::failure(file.error());
  return importHfConfig(*file);
}

}  // namespace sim
