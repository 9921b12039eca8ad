// The numbers a what-if is judged by, for slides and panels alike: step time (training), tokens
// per second, facility power and $ per million tokens, of an analytic scenario's evaluation or
// of an engine built-in's snapshot. `shot --compare` prints and draws them for two scenarios; the
// what-if panel sets the previous run's beside the current one's.
#pragma once

#include <optional>
#include <string>

#include "sim/catalog.h"
#include "sim/engine/snapshot.h"

namespace app {

/// The numbers a slide compares, each empty where the scenario has none (an inference service
/// has no step time; a scenario without prices, no $/Mtok).
struct KeyNumbers {
  std::string source;                          // "evaluation" (analytic) or "engine" (built-in)
  std::optional<double> stepTime_s;            // training step
  std::optional<double> tokensPerSecond;       // evaluation: per GPU; engine: the whole campus
  bool tokensPerGpu = false;                   // tokensPerSecond is per GPU
  std::optional<double> facility_W;            // facility power: IT times PUE ...
  int facilityGpus = 0;                        // ... of this many GPUs (0: the whole campus)
  std::optional<double> perMillionTokens_usd;  // a million tokens (trained or output)
};

/// An analytic scenario's (assets/scenarios or a file) numbers from its evaluation; an engine
/// built-in's from the engine's snapshot. The $/Mtok of training is the evaluation's GPU-hour
/// cost over its tokens per GPU-second (sim::calc::costPerMillionTokens_usd).
KeyNumbers keyNumbersFor(const std::string& scenario, const sim::Catalog& catalog,
                         const sim::engine::Snapshot& snapshot);

/// The key numbers, in the order a line or a table shows them.
enum class KeyNumber { StepTime, TokensPerSecond, FacilityPower, CostPerMillionTokens };
inline constexpr KeyNumber KEY_NUMBERS[] = {KeyNumber::StepTime, KeyNumber::TokensPerSecond,
                                            KeyNumber::FacilityPower,
                                            KeyNumber::CostPerMillionTokens};

/// One number with its unit and whose it is: "5.34 s", "192 tok/s/GPU", "1.23 M tokens/s",
/// "25.1 MW (16,384 GPUs)", "420.0 kW campus", "$2.51/Mtok"; "" when the scenario has none.
std::string keyNumberText(const KeyNumbers& numbers, KeyNumber which);

/// One line of them: "step 5.34 s · 192 tok/s/GPU · 25.1 MW (16,384 GPUs) · $2.51/Mtok"; a
/// missing number is left out.
std::string keyNumbersLine(const KeyNumbers& numbers);

}  // namespace app
