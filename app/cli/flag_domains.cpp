#include "app/cli/flag_domains.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "app/platform/settings.h"
#include "app/session/sim_budget.h"
#include "renderer/renderer.h"
#include "sim/format.h"

namespace app {
namespace {

std::string withUnit(double value, const NumberDomain& domain) {
  return sim::significant(value, 6) + (*domain.unit ? std::string(" ") + domain.unit : "");
}

std::string expected(const NumberDomain& domain) {
  return std::string(domain.integer ? "a whole number" : "a number") + " from " +
         sim::significant(domain.min, 6) + " to " + withUnit(domain.max, domain);
}

// The whole of `text` as a number: plain digits exactly as an integer, anything else through
// strtod (which also reads "nan", "inf" and hex); false when something is left over.
bool readNumber(const std::string& text, bool integer, double& value, long long& whole,
                bool& exact) {
  exact = false;
  if (text.empty() || std::isspace(static_cast<unsigned char>(text.front()))) return false;
  if (integer) {
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, whole);
    if (ec == std::errc() && ptr == end) {
      exact = true;
      value = double(whole);
      return true;
    }
  }
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

}  // namespace

const std::vector<FlagDomain>& flagDomains() {
  static const std::vector<FlagDomain> table = {
      {"tour", "--chapter", {1, 11, true, ""}},  // 11: the finale
      {"tour", "--ui-scale", {MIN_UI_SCALE, MAX_UI_SCALE, false, "x"}},
      {"tour", "--soak", {0.01, 10080, false, "minutes"}},  // up to a week
      {"tour", "--fps", {1, 240, false, "frames/s"}},
      {"tour", "--soak-report-every", {1, 3600, false, "s"}},
      {"tour", "--kiosk-idle", {1, 86400, false, "s"}},
      {"tour", "--kiosk-warning", {1, 3600, false, "s"}},
      {"tour", "--monitor", {0, 16, true, ""}},
      {"tour", "--frames", {0, 1e9, true, "frames"}},  // 0: until closed; 1e9 is 6 months at 60
      {"shot", "--time", {0, MAX_COMMAND_SIM_S, false, "s"}},
      {"shot", "--supersample", {1, renderer::MAX_SUPERSAMPLE, true, "x"}},
      {"sim", "--until", {0, MAX_COMMAND_SIM_S, false, "s"}},
      {"sim", "--trace-from", {0, MAX_COMMAND_SIM_S, false, "s"}},
      {"trace", "--step", {0, 4611686018427387904.0, true, ""}},  // 2^62
      {"shot", "--step", {0, 4611686018427387904.0, true, ""}},   // ProfilerStep#N of --trace
      {"tour", "--step", {0, 4611686018427387904.0, true, ""}},
      {"tour", "--time", {0, 4e9, false, "s"}},  // --trace: |ts| <= 4e15 us (sim/trace/limits.h)
      {"bench", "--frames", {2, 100000, true, "frames"}},
      {"bench", "--warmup", {0, 10000, true, "frames"}},
      {"bench", "--campus-scale", {1, 64, true, "x"}},
  };
  return table;
}

const NumberDomain* findFlagDomain(std::string_view command, std::string_view flag) {
  for (const FlagDomain& entry : flagDomains())
    if (command == entry.command && flag == entry.flag) return &entry.domain;
  return nullptr;
}

std::string checkNumber(std::string& text, const NumberDomain& domain) {
  double value = 0;
  long long whole = 0;
  bool exact = false;
  if (!readNumber(text, domain.integer, value, whole, exact))
    return "'" + text + "' is not a number; expected " + expected(domain);
  if (!std::isfinite(value))
    return "'" + text + "' is not a finite number; expected " + expected(domain);
  if (domain.integer && value != std::floor(value))
    return "'" + text + "' is not a whole number; expected " + expected(domain);
  // An exact integer is compared exactly (long double holds every 64-bit integer; a double
  // rounds above 2^53).
  const bool below = exact ? (long double)whole < domain.min : value < domain.min;
  const bool above = exact ? (long double)whole > domain.max : value > domain.max;
  if (below) return text + " is below the minimum " + withUnit(domain.min, domain);
  if (above) return text + " is above the maximum " + withUnit(domain.max, domain);
  // Written back as CLI11 converts it exactly: decimal digits for whole numbers (CLI11 reads a
  // leading 0 as octal), round-trip digits otherwise.
  char digits[40];
  if (exact)
    std::snprintf(digits, sizeof digits, "%lld", whole);
  else
    std::snprintf(digits, sizeof digits, domain.integer ? "%.0f" : "%.17g", value);
  text = digits;
  return "";
}

CLI::Validator domainValidator(const NumberDomain& domain) {
  const std::string name = std::string(domain.integer ? "INT" : "FLOAT") + " in [" +
                           sim::significant(domain.min, 6) + " - " +
                           sim::significant(domain.max, 6) + "]";
  return CLI::Validator([domain](std::string& text) { return checkNumber(text, domain); }, name);
}

}  // namespace app
