// Evaluates a scenario against the catalog with the analytic calculators: every quantity that
// applies, keyed "section.key" with its unit in the key name. A library function the CLI
// (`dcwalk sim`) and the UI call alike; docs/sim.md documents every key.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/catalog.h"
#include "sim/result.h"
#include "sim/scenario.h"

namespace sim {

struct Output {
  std::string section;  // "hardware", "memory", "compute", "collective", ...
  std::string key;      // unit-suffixed name, e.g. "weights_bytes"
  std::variant<double, bool, std::string> value;
  std::string unit;  // human unit for the table ("B", "s", "W", "usd", "" ...)
};

struct Evaluation {
  std::vector<Output> outputs;

  /// The output "section.key", or nullptr.
  const Output* find(const std::string& dottedKey) const;
  /// The number at "section.key"; NaN when absent or not a number.
  double number(const std::string& dottedKey) const;
  /// {"section": {"key": value, ...}, ...} in evaluation order.
  nlohmann::ordered_json toJson() const;
  /// A readable table, one line per output.
  std::string toTable() const;
};

/// Evaluates `scenario`; fails (naming the scenario field) when it refers to unknown catalog
/// entries or holds values out of range.
Result<Evaluation> evaluateScenario(const ScenarioDesc& scenario, const Catalog& catalog);

}  // namespace sim
