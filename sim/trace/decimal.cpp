#include "sim/trace/decimal.h"

#include <string>

namespace sim::trace {
namespace {

struct Parsed {
  std::optional<int64_t> value;
  bool exact = true;  // no non-zero digit was dropped by the rounding
};

// value = digits x 10^exponent, digits without leading zeros; then rounded to an integer.
Parsed parse(std::string_view text, int scale, int64_t limit) {
  Parsed result;
  size_t i = 0;
  const bool negative = i < text.size() && text[i] == '-';
  if (negative) ++i;
  std::string digits;
  int64_t exponent = scale;
  bool sawDigit = false;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    sawDigit = true;
    if (!digits.empty() || text[i] != '0') digits.push_back(text[i]);
  }
  if (i < text.size() && text[i] == '.') {
    for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      sawDigit = true;
      if (!digits.empty() || text[i] != '0') digits.push_back(text[i]);
      --exponent;
    }
  }
  if (!sawDigit) return result;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool minus = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) minus = text[i++] == '-';
    int64_t e = 0;
    bool any = false;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      any = true;
      if (e < 1'000'000) e = e * 10 + (text[i] - '0');  // beyond that it over/underflows anyway
    }
    if (!any) return result;
    exponent += minus ? -e : e;
  }
  if (i != text.size()) return result;

  // Keep the digits that make the integer part; the first dropped one decides the rounding.
  const int64_t integerDigits = static_cast<int64_t>(digits.size()) + exponent;
  if (integerDigits > 19) {
    if (digits.empty()) result.value = 0;
    return result;  // at least 10^19 > int64: too large (or zero)
  }
  unsigned __int128 magnitude = 0;
  for (int64_t d = 0; d < integerDigits; ++d) {
    const char c = d < static_cast<int64_t>(digits.size()) ? digits[static_cast<size_t>(d)] : '0';
    magnitude = magnitude * 10 + static_cast<unsigned>(c - '0');
  }
  const int64_t kept = std::max<int64_t>(integerDigits, 0);
  if (kept < static_cast<int64_t>(digits.size())) {
    const size_t first = static_cast<size_t>(kept);
    if (integerDigits >= 0 && digits[first] >= '5') ++magnitude;
    result.exact = digits.find_first_not_of('0', first) == std::string::npos;
  }
  if (magnitude > static_cast<unsigned __int128>(limit)) return result;
  const int64_t m = static_cast<int64_t>(magnitude);
  result.value = negative ? -m : m;
  return result;
}

}  // namespace

std::optional<int64_t> scaledInteger(std::string_view text, int scale, int64_t limit) {
  return parse(text, scale, limit).value;
}

std::optional<int64_t> exactInteger(std::string_view text, int64_t limit) {
  Parsed p = parse(text, 0, limit);
  if (!p.exact) return std::nullopt;
  return p.value;
}

}  // namespace sim::trace
