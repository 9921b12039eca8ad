#include "sim/format.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace sim {

std::string shortestText(double value) {
  char text[32];
  auto [end, ec] = std::to_chars(text, text + sizeof(text), value);
  return ec == std::errc() ? std::string(text, end) : std::string("?");
}

std::string significant(double value, int figures) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*g", figures, value);
  return text;
}

std::string fixedDecimals(double value, int decimals) {
  char text[352];  // DBL_MAX has 309 digits before the point
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string numberText(double value) {
  const std::string text = significant(value, 6);
  const bool whole = std::isfinite(value) && value == std::floor(value) && std::abs(value) < 1e15;
  return whole && std::strtod(text.c_str(), nullptr) != value ? fixedDecimals(value, 0) : text;
}

std::string threeDigits(double value) {
  const double magnitude = std::fabs(value);
  int decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2;
  if (magnitude > 0 && magnitude < 1) decimals = 2 - int(std::floor(std::log10(magnitude)));
  std::string out = fixedDecimals(value, decimals);
  if (out.find('.') != std::string::npos) {
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') out.pop_back();
  }
  return out;
}

std::string grouped(double value) {
  const std::string body = fixedDecimals(std::fabs(value), 0);
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    if (i > 0 && (body.size() - i) % 3 == 0) out += ',';
    out += body[i];
  }
  return (value < 0 ? "-" : "") + out;
}

std::string scaled(double value, std::initializer_list<Scale> scales,
                   std::string (*digits)(double)) {
  const Scale* chosen = nullptr;
  for (const Scale& s : scales) {
    chosen = &s;
    if (std::fabs(value) >= s.factor) break;
  }
  // Below 1 by the reciprocal, which is exact for the decimal prefixes (1 / 1e-3 == 1000).
  const double shown = chosen->factor >= 1 ? value / chosen->factor : value * (1 / chosen->factor);
  return digits(shown) + " " + chosen->unit;
}

namespace {

bool endsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string count(double value) {
  if (std::fabs(value) < 1e6)
    return value == std::floor(value) || std::fabs(value) >= 1000 ? grouped(std::round(value))
                                                                  : threeDigits(value);
  return scaled(value, {{1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}});
}

std::string duration(double seconds) {
  const double s = std::fabs(seconds);
  if (s >= 2 * 86400.0) return threeDigits(seconds / 86400.0) + " days";
  if (s >= 3600.0) return threeDigits(seconds / 3600.0) + " h";
  if (s >= 1.0 || s == 0.0) return threeDigits(seconds) + " s";
  if (s >= 1e-3) return threeDigits(seconds * 1e3) + " ms";
  if (s >= 1e-6) return threeDigits(seconds * 1e6) + " µs";
  return threeDigits(seconds * 1e9) + " ns";
}

std::string dollars(double usd) {
  const double a = std::fabs(usd);
  // std::string("$") + …, not "$" + …: GCC 12 warns falsely (-Wrestrict) on the inserting form.
  const std::string dollar = "$";
  if (a >= 1e9) return dollar + threeDigits(usd / 1e9) + " B";
  if (a >= 1e6) return dollar + threeDigits(usd / 1e6) + " M";
  if (a >= 1000) return dollar + grouped(usd);
  if (a < 1) return dollar + threeDigits(usd);  // cents matter per million tokens: $0.0423
  return dollar + fixedDecimals(usd, 2);
}

std::string bytes(double value, std::string_view per) {
  std::string suffix;
  if (!per.empty()) suffix.append("/").append(per);
  std::string out = scaled(value, {{1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "kB"}, {1, "B"}});
  return out + suffix;
}

std::string threeFigures(double value) {
  return significant(value, 3);
}

}  // namespace

std::string formatQuantity(double value, std::string_view key) {
  if (std::isnan(value)) return "–";
  const size_t dot = key.rfind('.');
  const std::string_view name = dot == std::string_view::npos ? key : key.substr(dot + 1);
  if (name.find("_bytes_per_") != std::string_view::npos)
    return bytes(value, name.substr(name.find("_bytes_per_") + 11));
  if (endsWith(name, "_bytes") || name == "bytes") return bytes(value, "");
  if (endsWith(name, "_Bps"))
    return scaled(value, {{1e12, "TB/s"}, {1e9, "GB/s"}, {1e6, "MB/s"}, {1, "B/s"}});
  if (endsWith(name, "_bps"))
    return scaled(value, {{1e15, "Pb/s"}, {1e12, "Tb/s"}, {1e9, "Gb/s"}, {1, "b/s"}});
  if (endsWith(name, "_flops_per_byte")) return threeDigits(value) + " FLOP/B";
  if (name == "flops_per_token")
    return scaled(value, {{1e12, "TFLOP"}, {1e9, "GFLOP"}, {1, "FLOP"}}) + "/token";
  if (name == "training_flops") return threeFigures(value) + " FLOP";
  if (endsWith(name, "_flops"))
    return scaled(value, {{1e15, "PFLOP/s"}, {1e12, "TFLOP/s"}, {1e9, "GFLOP/s"}, {1, "FLOP/s"}});
  if (endsWith(name, "pixels_per_s"))
    return scaled(value, {{1e12, "Tpixel/s"}, {1e9, "Gpixel/s"}, {1, "pixel/s"}});
  if (name.find("tokens_per_s") != std::string_view::npos) return count(value) + " tokens/s";
  if (endsWith(name, "_kg_per_s")) return threeDigits(value) + " kg/s";
  if (endsWith(name, "_L_per_min")) return count(value) + " L/min";
  if (endsWith(name, "_per_J")) return threeDigits(value) + " tokens/J";
  if (endsWith(name, "_s")) return duration(value);
  if (endsWith(name, "_kWh")) return scaled(value, {{1e6, "GWh"}, {1e3, "MWh"}, {1, "kWh"}});
  if (endsWith(name, "_W")) return scaled(value, {{1e6, "MW"}, {1e3, "kW"}, {1, "W"}});
  if (endsWith(name, "_Hz")) return scaled(value, {{1e9, "GHz"}, {1e6, "MHz"}, {1, "Hz"}});
  if (endsWith(name, "_usd")) return dollars(value);
  if (endsWith(name, "_C")) return threeDigits(value) + " °C";
  if (endsWith(name, "_K")) return threeDigits(value) + " K";
  if (endsWith(name, "_fraction") || endsWith(name, "_share_of_iteration") || name == "mfu")
    return threeDigits(value * 100.0) + " %";
  if (endsWith(name, "_hours")) return count(value) + " h";
  if (endsWith(name, "speedup")) return threeDigits(value) + "×";
  if (endsWith(name, "_tokens") || endsWith(name, "tokens_per_gpu"))
    return count(value) + " tokens";
  return count(value);
}

std::string formatLength(double meters) {
  return scaled(meters, {{1e3, "km"}, {1, "m"}, {1e-3, "mm"}, {1e-6, "µm"}}, threeFigures);
}

}  // namespace sim
