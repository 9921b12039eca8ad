#include "sim/calc/transformer.h"

#include <algorithm>

#include "sim/model_params.h"

namespace sim::calc {

TransformerShape transformerShape(const ModelSpec& model) {
  TransformerShape m;
  m.layers = model.layers;
  m.hidden = model.hidden;
  m.heads = model.heads;
  m.kvHeads = model.kvHeads;
  m.headDim = model.headDim;
  m.intermediate = model.intermediate;
  m.vocab = model.vocab;
  m.gatedMlp = model.gatedMlp;
  m.dropout = model.dropout;
  m.layerMatmulParams = layerMatmulParams(model);
  m.params = paramCount(model);
  const double table = m.vocab * m.hidden;
  m.embeddingParams = table + double(model.positionEmbeddings) * m.hidden;
  m.headParams = model.tiedEmbeddings ? 0.0 : table;
  m.layerParams = (m.params - m.embeddingParams - m.headParams) / std::max(m.layers, 1.0);
  return m;
}

double forwardMatmulFlopsPerToken(const TransformerShape& m) {
  return 2.0 * (m.layers * m.layerMatmulParams + m.hidden * m.vocab);
}

double causalAttentionFlops(const TransformerShape& m, double tokens) {
  return 2.0 * tokens * tokens * m.heads * m.headDim * m.layers;
}

double attentionFlops(const TransformerShape& m, double tokens, double context) {
  return 4.0 * m.heads * m.headDim * m.layers * tokens * (context + tokens / 2.0);
}

double trainingModelFlopsPerToken(const TransformerShape& m, double seqLen) {
  return 3.0 * forwardMatmulFlopsPerToken(m) + 3.0 * causalAttentionFlops(m, seqLen) / seqLen;
}

double kvBytesPerTokenPerGpu(const TransformerShape& m, int tp, double bytesPerElement) {
  const double headsPerGpu = std::max(1.0, m.kvHeads / std::max(tp, 1));
  return 2.0 * m.layers * headsPerGpu * m.headDim * bytesPerElement;
}

double elementwiseBytesPerToken(const TransformerShape& m, int tp, bool sequenceParallel) {
  const double t = std::max(tp, 1);
  const double normWidth = sequenceParallel ? m.hidden / t : m.hidden;
  const double activation = (m.gatedMlp ? 3.0 : 2.0) * m.intermediate / t;
  const double rope = 2.0 * (m.heads + m.kvHeads) * m.headDim / t;
  return 2.0 * (10.0 * normWidth + rope + activation);
}

double layerActivationBytes(const TransformerShape& m, ActivationStrategy strategy, double tokens,
                            double seqLen, int tp) {
  const double t = strategy == ActivationStrategy::None ? 1.0 : std::max(tp, 1);
  const double h = m.hidden, hd = m.heads * m.headDim, kvd = m.kvHeads * m.headDim;
  const double masks = m.dropout ? 2.0 * h : 0.0;  // 1-byte masks after attention and MLP
  // Kept whole on every TP rank (without sequence parallelism): both norm inputs, the QKV and
  // MLP inputs (the all-gathered copies), the dropout masks after the row-parallel matmuls.
  const double replicated = 2.0 * h + 2.0 * h + 2.0 * h + 2.0 * h + masks;
  // Split across TP ranks: Q, K, V, the attention output, the MLP's wide outputs.
  const double mlp = (m.gatedMlp ? 6.0 : 4.0) * m.intermediate;
  const double split = 2.0 * hd + 4.0 * kvd + 2.0 * hd + mlp;
  // The attention matrix per token (softmax output, dropout mask and output) when it is kept.
  const double scores = (m.dropout ? 5.0 : 2.0) * m.heads * seqLen;
  switch (strategy) {
    case ActivationStrategy::None:
    case ActivationStrategy::TensorParallel:
      return tokens * (replicated + (split + scores) / t);
    case ActivationStrategy::TensorSequence:
      return tokens * (replicated + split + scores) / t;
    case ActivationStrategy::Selective:
      return tokens * (replicated + split) / t;
    case ActivationStrategy::Full:
      return tokens * 2.0 * h;  // the layer input only (Korthikanti: 2 sbh)
  }
  return 0.0;
}

}  // namespace sim::calc
