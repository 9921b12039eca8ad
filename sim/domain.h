// Declared domains of the simulation's numbers, in one place: what every input may be (scenario
// fields, catalog figures by unit, Hugging Face fields, engine fields) and what every output must
// be (by its unit). An input outside its domain is refused naming its file or flag and its field
// (exit status 2); an output outside its domain is a defect of the model, never printed.
// docs/reliability.md ("The simulation's inputs and outputs") lists the ranges and why.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/format.h"  // numberText, as messages show a number

namespace sim {

/// The values one number may take: finite, in [min, max], integral when `integer`; 0 is accepted
/// besides when `zeroIsDefault` ("take it from the catalog / rules"). Units as in field names.
struct Domain {
  double min = 0;
  double max = 0;
  bool integer = false;
  bool zeroIsDefault = false;
  const char* unit = "";
};

/// A domain of whole numbers.
constexpr Domain wholeNumbers(double min, double max, const char* unit = "count") {
  return {min, max, true, false, unit};
}
/// A domain of real numbers.
constexpr Domain realNumbers(double min, double max, const char* unit) {
  return {min, max, false, false, unit};
}
/// `d`, with 0 also accepted as "the default".
constexpr Domain orZero(Domain d) {
  d.zeroIsDefault = true;
  return d;
}

/// "" when `value` lies in `d`; else what it must be ("must be >= 1", "must be a finite number").
std::string domainError(const Domain& d, double value);
/// The domain in words: "integer 1..1024", "number 1e+09..1e+19 FLOP/s, or 0 (default)".
std::string describeDomain(const Domain& d);

/// The model and layout dimensions, shared by the scenario fields, the catalog's models, the
/// Hugging Face import and the engine's fields (so a model or layout one accepts, all accept).
namespace domains {
inline constexpr Domain LAYERS = wholeNumbers(1, 10000);
inline constexpr Domain HIDDEN = wholeNumbers(1, 1 << 20);
inline constexpr Domain HEADS = wholeNumbers(1, 1 << 16);
inline constexpr Domain HEAD_DIM = wholeNumbers(1, 1 << 16);
inline constexpr Domain INTERMEDIATE = wholeNumbers(1, 1 << 22);
inline constexpr Domain VOCAB = wholeNumbers(1, 1 << 24);
inline constexpr Domain EXPERTS = wholeNumbers(0, 1 << 16);  // 0 = a dense model
inline constexpr Domain CONTEXT_TOKENS = wholeNumbers(1, 1 << 24, "tokens");
inline constexpr Domain POSITIONS = wholeNumbers(0, 1 << 24);   // learned position rows
inline constexpr Domain TYPE_VOCAB = wholeNumbers(0, 1 << 16);  // BERT segment embeddings
inline constexpr Domain GPUS = wholeNumbers(1, 1 << 20);
inline constexpr Domain TP = wholeNumbers(1, 1024);
inline constexpr Domain CP = wholeNumbers(1, 4096);
inline constexpr Domain PP = wholeNumbers(1, 1024);
inline constexpr Domain DP = wholeNumbers(1, 1 << 20);
inline constexpr Domain EP = wholeNumbers(1, 1 << 16);
inline constexpr Domain ZERO_STAGE = wholeNumbers(0, 3);
inline constexpr Domain MICRO_BATCH = wholeNumbers(1, 1 << 16);
inline constexpr Domain MICRO_BATCHES = wholeNumbers(1, 1 << 20);
inline constexpr Domain VIRTUAL_STAGES = wholeNumbers(1, 1024);
inline constexpr Domain SEQ_LEN = wholeNumbers(1, 1 << 24, "tokens");
inline constexpr Domain REQUEST_TOKENS = realNumbers(1, 1e8, "tokens");  // ISL, OSL (means)
inline constexpr Domain BATCH = wholeNumbers(1, 1 << 20);
/// What the training model is declared to price: a step of at most a day (Llama 3 405B's is ~5 s
/// on 16k H100s; a step of a day is no run anyone makes) and a run of at most 1000 years (GPT-3
/// on one V100, the classic worst case, is ~355). A scenario past either is refused naming the
/// fields that set it, rather than printed as a figure nobody could mean.
inline constexpr Domain TRAINING_STEP = realNumbers(0, 86400, "s");
inline constexpr Domain TRAINING_TIME = realNumbers(0, 1000 * 365.25 * 86400, "s");
}  // namespace domains

/// The range of a catalog figure's non-zero value in `unit` (0 is left to the loader that reads
/// the figure: "absent" for optional figures, refused for required ones); nullptr for a unit the
/// catalog does not know.
const Domain* catalogUnitDomain(std::string_view unit);
/// Every unit a catalog figure may carry.
std::vector<std::string> catalogUnits();

/// The domain every output carrying `unit` lies in (times, bytes, energies, bandwidths >= 0;
/// shares in [0, 1]; Celsius above absolute zero); nullptr for a unit no output may carry.
const Domain* outputUnitDomain(std::string_view unit);
/// Every unit an output may carry.
std::vector<std::string> outputUnits();
/// "" when `value` is a possible output in `unit`; else what is wrong with it.
std::string outputError(std::string_view unit, double value);

}  // namespace sim
