// `dcwalk shot --compare A B`: the same station for two scenarios side by side in one PNG, for
// slides. Each scenario gets a world of its own, built in turn (one session at a time, so the
// memory is one world's), rendered at half the width; each half's HUD names its scenario and
// carries its key numbers, and the halves are composited with a dark seam between them.
#pragma once

#include <optional>
#include <string>

#include "app/modes/shot.h"
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

/// One line of them: "step 5.34 s · 192 tok/s/GPU · 25.1 MW (16,384 GPUs) · $2.51/Mtok"; a
/// missing number is left out.
std::string keyNumbersLine(const KeyNumbers& numbers);

/// Renders options.compare[0] and [1] at options.station into options.out (options.render's
/// size in all); prints each half's scenario and numbers. Returns the exit status: 2 naming a
/// scenario that is neither a built-in nor a readable analytic scenario, before any world is
/// built.
int runCompareShot(const ShotOptions& options);

}  // namespace app
