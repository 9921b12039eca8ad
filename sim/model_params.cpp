#include "sim/model_params.h"

#include <cmath>

namespace sim {
namespace {

// Parameters of one layer with `activeExperts` experts (all of them for the total count).
double layerParams(const ModelSpec& m, double activeExperts) {
  const double h = m.hidden;
  const double attention = 2.0 * h * m.heads * m.headDim + 2.0 * h * m.kvHeads * m.headDim;
  const double gatedMlp = 3.0 * h * m.intermediate;
  const double norms = 2.0 * h;
  if (!isMoe(m)) return attention + gatedMlp + norms;
  const double router = h * m.experts;
  return attention + (activeExperts + m.sharedExperts) * gatedMlp + router + norms;
}

double embeddingParams(const ModelSpec& m) {
  const double table = static_cast<double>(m.vocab) * m.hidden;
  return m.tiedEmbeddings ? table : 2.0 * table;
}

}  // namespace

double paramCount(const ModelSpec& model) {
  return embeddingParams(model) + model.layers * layerParams(model, model.experts) + model.hidden;
}

double activeParamCount(const ModelSpec& model) {
  return embeddingParams(model) + model.layers * layerParams(model, model.expertsPerToken) +
         model.hidden;
}

int llamaFfnHidden(int dim, double multiplier, int multipleOf) {
  int hidden = static_cast<int>(2.0 * (4.0 * dim) / 3.0);
  hidden = static_cast<int>(multiplier * hidden);
  return multipleOf * ((hidden + multipleOf - 1) / multipleOf);
}

}  // namespace sim
