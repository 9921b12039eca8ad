#include "app/ui/key_numbers.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/calc/cost.h"
#include "sim/engine/scenarios.h"
#include "sim/engine/snapshot.h"
#include "sim/evaluate.h"
#include "sim/scenario.h"

namespace app {
namespace {

// A positive finite number, or nothing: what may be drawn (never nan, inf or a negative).
std::optional<double> shown(double value) {
  if (!std::isfinite(value) || value <= 0) return std::nullopt;
  return value;
}

// 16384 -> "16,384": a count as a slide writes it.
std::string thousands(int count) {
  const std::string digits = std::to_string(count);
  std::string text;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) text += ',';
    text += digits[i];
  }
  return text;
}

}  // namespace

KeyNumbers keyNumbersFor(const std::string& scenario, const sim::Catalog& catalog,
                         const sim::engine::Snapshot& snapshot) {
  KeyNumbers numbers;
  const std::vector<std::string> builtins = sim::engine::builtinScenarioNames();
  const bool builtin = std::find(builtins.begin(), builtins.end(), scenario) != builtins.end();
  auto desc = builtin ? sim::Result<sim::ScenarioDesc>::failure("") : sim::loadScenario(scenario);
  auto evaluation = desc ? sim::evaluateScenario(*desc, catalog)
                         : sim::Result<sim::Evaluation>::failure(desc.error());
  if (evaluation) {
    const sim::Evaluation& e = *evaluation;
    numbers.source = "evaluation";
    numbers.facility_W = shown(e.number("power.facility_power_W"));
    numbers.facilityGpus = desc->cluster.gpus;
    const bool training = shown(e.number("compute.step_time_s")).has_value();
    numbers.tokensPerGpu = true;
    if (training) {
      numbers.stepTime_s = shown(e.number("compute.step_time_s"));
      numbers.tokensPerSecond = shown(e.number("compute.tokens_per_s_per_gpu"));
      const auto hourly = shown(e.number("cost.per_gpu_hour_usd"));
      if (hourly && numbers.tokensPerSecond) {
        numbers.perMillionTokens_usd =
            shown(sim::calc::costPerMillionTokens_usd(*hourly, *numbers.tokensPerSecond));
      }
    } else {
      numbers.tokensPerSecond = shown(e.number("compute.output_tokens_per_s_per_gpu"));
      numbers.perMillionTokens_usd = shown(e.number("cost.per_million_tokens_usd"));
    }
    return numbers;
  }
  // An engine built-in: what the engine's snapshot says now.
  const sim::engine::Aggregates& a = snapshot.aggregates;
  numbers.source = "engine";
  // A run's power is its step's mean (it swings between compute and the collective within one).
  numbers.facility_W =
      shown(sim::engine::campusPower(snapshot, sim::engine::PowerWindow::StepMean).facility_W);
  numbers.tokensPerSecond = shown(a.tokensPerSecond);
  if (snapshot.training) {
    numbers.stepTime_s =
        shown(a.lastStepTime_s > 0 ? a.lastStepTime_s : snapshot.faultFreeStepTime_s);
  }
  return numbers;
}

std::string keyNumberText(const KeyNumbers& n, KeyNumber which) {
  char text[96] = "";
  switch (which) {
    case KeyNumber::StepTime:
      if (n.stepTime_s) std::snprintf(text, sizeof(text), "%.2f s", *n.stepTime_s);
      break;
    case KeyNumber::TokensPerSecond:
      if (!n.tokensPerSecond) break;
      if (n.tokensPerGpu) {
        std::snprintf(text, sizeof(text), "%.0f tok/s/GPU", *n.tokensPerSecond);
      } else {
        std::snprintf(text, sizeof(text), "%.3g M tokens/s", *n.tokensPerSecond / 1e6);
      }
      break;
    case KeyNumber::FacilityPower: {
      if (!n.facility_W) break;
      // A small cluster's power in kW: "0.0 MW" would say it draws nothing.
      const bool mega = *n.facility_W >= 1e6;
      const std::string whose =
          n.facilityGpus > 0 ? " (" + thousands(n.facilityGpus) + " GPUs)" : std::string(" campus");
      std::snprintf(text, sizeof(text), mega ? "%.1f MW%s" : "%.1f kW%s",
                    *n.facility_W / (mega ? 1e6 : 1e3), whose.c_str());
      break;
    }
    case KeyNumber::CostPerMillionTokens:
      if (n.perMillionTokens_usd) {
        std::snprintf(text, sizeof(text), "$%.3g/Mtok", *n.perMillionTokens_usd);
      }
      break;
  }
  return text;
}

std::string keyNumbersLine(const KeyNumbers& n) {
  std::string line;
  for (KeyNumber which : KEY_NUMBERS) {
    const std::string text = keyNumberText(n, which);
    if (text.empty()) continue;
    line += (line.empty() ? "" : "  ·  ") + (which == KeyNumber::StepTime ? "step " + text : text);
  }
  return line;
}

}  // namespace app
