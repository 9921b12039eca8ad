#include "sim/model_params.h"

#include <cmath>

namespace sim {
namespace {

// Parameters of one layer with `activeExperts` experts (all of them for the total count).
double layerParams(const ModelSpec& m, double activeExperts) {
  const double h = m.hidden;
  double attention = 2.0 * h * m.heads * m.headDim + 2.0 * h * m.kvHeads * m.headDim;
  double mlp = (m.gatedMlp ? 3.0 : 2.0) * h * m.intermediate;
  double norms = 2.0 * h;
  if (m.biases) {  // GPT: Q, K, V and O biases, both MLP biases, LayerNorm shifts
    attention += (m.heads + 2.0 * m.kvHeads) * m.headDim + h;
    mlp += (m.gatedMlp ? 2.0 : 1.0) * m.intermediate + h;
    norms *= 2.0;
  }
  if (!isMoe(m)) return attention + mlp + norms;
  const double router = h * m.experts;
  return attention + (activeExperts + m.sharedExperts) * mlp + router + norms;
}

double embeddingParams(const ModelSpec& m) {
  const double table = static_cast<double>(m.vocab) * m.hidden;
  return (m.tiedEmbeddings ? table : 2.0 * table) + double(m.positionEmbeddings) * m.hidden;
}

double finalNormParams(const ModelSpec& m) {
  return m.biases ? 2.0 * m.hidden : m.hidden;
}

}  // namespace

double paramCount(const ModelSpec& model) {
  return embeddingParams(model) + model.layers * layerParams(model, model.experts) +
         finalNormParams(model);
}

double activeParamCount(const ModelSpec& model) {
  return embeddingParams(model) + model.layers * layerParams(model, model.expertsPerToken) +
         finalNormParams(model);
}

double layerMatmulParams(const ModelSpec& model) {
  const double h = model.hidden;
  const double attention =
      2.0 * h * model.heads * model.headDim + 2.0 * h * model.kvHeads * model.headDim;
  const double experts = isMoe(model) ? model.expertsPerToken + model.sharedExperts : 1.0;
  return attention + experts * (model.gatedMlp ? 3.0 : 2.0) * h * model.intermediate;
}

int llamaFfnHidden(int dim, double multiplier, int multipleOf) {
  int hidden = static_cast<int>(2.0 * (4.0 * dim) / 3.0);
  hidden = static_cast<int>(multiplier * hidden);
  return multipleOf * ((hidden + multipleOf - 1) / multipleOf);
}

}  // namespace sim
