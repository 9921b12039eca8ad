#include "sim/domain.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <utility>

namespace sim {
namespace {

constexpr double LARGEST = std::numeric_limits<double>::max();

// Catalog figures: the smallest and largest non-zero value a unit may carry. The ranges hold
// every real device, link, facility and price with orders of magnitude to spare, and keep the
// calculators finite: nothing divides by a figure below its minimum or multiplies past 1e300.
constexpr std::array<std::pair<std::string_view, Domain>, 30> CATALOG_UNITS = {{
    {"B", realNumbers(1, 1e16, "B")},            // bytes per parameter .. a pod's HBM
    {"bytes", realNumbers(1, 1e16, "bytes")},    // dimensions.json register files
    {"B/s", realNumbers(1e3, 1e16, "B/s")},      // a slow NIC .. a pod's HBM
    {"bit/s", realNumbers(1e3, 1e16, "bit/s")},  // link rates
    {"C", realNumbers(-50, 200, "C")},           // coolant, junction limits
    {"FLOP/cycle", realNumbers(1, 1e7, "FLOP/cycle")},
    {"OP/cycle", realNumbers(1, 1e7, "OP/cycle")},
    {"FLOP/s", realNumbers(1e6, 1e20, "FLOP/s")},  // a CPU core .. a rack-scale system
    {"OP/s", realNumbers(1e6, 1e20, "OP/s")},
    {"Hz", realNumbers(1e3, 1e11, "Hz")},
    {"J/(kg K)", realNumbers(100, 1e5, "J/(kg K)")},  // specific heats (water 4186)
    {"K", realNumbers(0.01, 1000, "K")},              // temperature differences
    {"K/W", realNumbers(1e-6, 100, "K/W")},           // thermal resistances
    {"U", realNumbers(0.5, 100, "U")},                // rack units
    {"W", realNumbers(1e-3, 1e11, "W")},              // a sensor .. a 100 GW campus
    {"count", realNumbers(1e-3, 1e15, "count")},      // counts and per-unit counts
    {"h", realNumbers(1e-6, 1e12, "h")},              // GPU-hours
    {"kg", realNumbers(1e-6, 1e7, "kg")},
    {"kg/m^3", realNumbers(1, 25000, "kg/m^3")},
    {"m", realNumbers(1e-6, 1e5, "m")},
    {"mm", realNumbers(1e-6, 1e8, "mm")},
    {"mm2", realNumbers(1e-6, 1e8, "mm2")},
    {"ratio", realNumbers(1e-4, 100, "ratio")},  // shares, efficiencies, PUE, multipliers
    {"s", realNumbers(1e-12, 1e9, "s")},         // latencies .. amortisation in seconds
    {"tokens", realNumbers(1, 1e17, "tokens")},
    {"usd", realNumbers(1e-6, 1e12, "usd")},
    {"usd/W", realNumbers(1e-6, 1e6, "usd/W")},
    {"usd/h", realNumbers(1e-6, 1e6, "usd/h")},
    {"usd/kWh", realNumbers(1e-6, 100, "usd/kWh")},
    {"years", realNumbers(0.01, 1000, "years")},
}};

// Outputs: physical quantities are finite and non-negative; shares lie in [0, 1]; temperatures
// in Celsius lie above absolute zero.
constexpr Domain NON_NEGATIVE = realNumbers(0, LARGEST, "");
constexpr std::array<std::pair<std::string_view, Domain>, 26> OUTPUT_UNITS = {{
    {"s", NON_NEGATIVE},
    {"count", NON_NEGATIVE},
    {"B", NON_NEGATIVE},
    {"GiB", NON_NEGATIVE},
    {"W", NON_NEGATIVE},
    {"B/s", NON_NEGATIVE},
    {"bit/s", NON_NEGATIVE},
    {"FLOP/s", NON_NEGATIVE},
    {"FLOP", NON_NEGATIVE},
    {"FLOP/B", NON_NEGATIVE},
    {"tokens", NON_NEGATIVE},
    {"tokens/s", NON_NEGATIVE},
    {"tokens/J", NON_NEGATIVE},
    {"requests/s", NON_NEGATIVE},
    {"usd", NON_NEGATIVE},
    {"usd/h", NON_NEGATIVE},
    {"usd/yr", NON_NEGATIVE},
    {"kWh", NON_NEGATIVE},
    {"kWh/yr", NON_NEGATIVE},
    {"J", NON_NEGATIVE},
    {"h", NON_NEGATIVE},
    {"L/min", NON_NEGATIVE},
    {"kg/s", NON_NEGATIVE},
    {"ratio", NON_NEGATIVE},
    {"share", realNumbers(0, 1, "share")},
    {"C", realNumbers(-273.15, LARGEST, "C")},
}};

template <size_t N>
const Domain* lookup(const std::array<std::pair<std::string_view, Domain>, N>& table,
                     std::string_view unit) {
  for (const auto& [name, domain] : table)
    if (name == unit) return &domain;
  return nullptr;
}

template <size_t N>
std::vector<std::string> names(const std::array<std::pair<std::string_view, Domain>, N>& table) {
  std::vector<std::string> out;
  for (const auto& [name, domain] : table) out.emplace_back(name);
  return out;
}

}  // namespace

std::string domainError(const Domain& d, double value) {
  if (!std::isfinite(value)) return "must be a finite number";
  if (d.zeroIsDefault && value == 0) return "";
  if (d.integer && value != std::floor(value)) return "must be an integer";
  if (value >= d.min && value <= d.max) return "";
  if (d.zeroIsDefault && value > 0 && value < d.min) {
    return "must be 0 (the default) or >= " + numberText(d.min);
  }
  if (value < d.min) return "must be >= " + numberText(d.min);
  return "must be <= " + numberText(d.max);
}

std::string describeDomain(const Domain& d) {
  std::string out = d.integer ? "integer " : "number ";
  out += numberText(d.min) + ".." + numberText(d.max);
  if (*d.unit) out += std::string(" ") + d.unit;
  if (d.zeroIsDefault) out += ", or 0 (default)";
  return out;
}

const Domain* catalogUnitDomain(std::string_view unit) {
  return lookup(CATALOG_UNITS, unit);
}

std::vector<std::string> catalogUnits() {
  return names(CATALOG_UNITS);
}

const Domain* outputUnitDomain(std::string_view unit) {
  return lookup(OUTPUT_UNITS, unit);
}

std::vector<std::string> outputUnits() {
  return names(OUTPUT_UNITS);
}

std::string outputError(std::string_view unit, double value) {
  const Domain* d = outputUnitDomain(unit);
  if (!d) return "carries the unit \"" + std::string(unit) + "\", which no output may carry";
  if (!std::isfinite(value)) return "is " + numberText(value) + ", not a finite number";
  if (value < d->min || value > d->max) {
    return "is " + numberText(value) + ", outside " + numberText(d->min) + ".." +
           (d->max == LARGEST ? std::string("any finite value") : numberText(d->max)) + " (" +
           std::string(unit) + ")";
  }
  return "";
}

}  // namespace sim
