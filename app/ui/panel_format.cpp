// Display text for evaluated quantities: the unit follows the key's suffix (docs/sim.md), scaled
// to a readable prefix with three significant digits.
#include "app/ui/panels.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

namespace app {
namespace {

bool endsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// Three significant digits without exponent, trailing zeros dropped: 80 -> "80", 3.35, 0.0123.
std::string digits(double value) {
  const double magnitude = std::fabs(value);
  int decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2;
  if (magnitude > 0 && magnitude < 1) decimals = 2 - int(std::floor(std::log10(magnitude)));
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  std::string out = text;
  if (out.find('.') != std::string::npos) {
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') out.pop_back();
  }
  return out;
}

// 16384 -> "16,384".
std::string grouped(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.0f", std::fabs(value));
  std::string body = text, out;
  for (size_t i = 0; i < body.size(); ++i) {
    if (i > 0 && (body.size() - i) % 3 == 0) out += ',';
    out += body[i];
  }
  return (value < 0 ? "-" : "") + out;
}

struct Scale {
  double factor;
  const char* unit;
};

// The first scale (largest first) that `value` reaches; the last one otherwise.
std::string scaled(double value, std::initializer_list<Scale> scales) {
  const Scale* chosen = nullptr;
  for (const Scale& s : scales) {
    chosen = &s;
    if (std::fabs(value) >= s.factor) break;
  }
  return digits(value / chosen->factor) + " " + chosen->unit;
}

std::string count(double value) {
  if (std::fabs(value) < 1e6)
    return value == std::floor(value) || std::fabs(value) >= 1000 ? grouped(std::round(value))
                                                                  : digits(value);
  return scaled(value, {{1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}});
}

std::string duration(double seconds) {
  const double s = std::fabs(seconds);
  if (s >= 2 * 86400.0) return digits(seconds / 86400.0) + " days";
  if (s >= 3600.0) return digits(seconds / 3600.0) + " h";
  if (s >= 1.0 || s == 0.0) return digits(seconds) + " s";
  if (s >= 1e-3) return digits(seconds * 1e3) + " ms";
  if (s >= 1e-6) return digits(seconds * 1e6) + " µs";
  return digits(seconds * 1e9) + " ns";
}

std::string dollars(double usd) {
  const double a = std::fabs(usd);
  // std::string("$") + …, not "$" + …: GCC 12 warns falsely (-Wrestrict) on the inserting form.
  const std::string dollar = "$";
  if (a >= 1e9) return dollar + digits(usd / 1e9) + " B";
  if (a >= 1e6) return dollar + digits(usd / 1e6) + " M";
  if (a >= 1000) return dollar + grouped(usd);
  if (a < 1) return dollar + digits(usd);  // cents matter per million tokens: $0.0423
  char text[32];
  std::snprintf(text, sizeof text, "$%.2f", usd);
  return text;
}

std::string bytes(double value, std::string_view per) {
  std::string suffix;
  if (!per.empty()) suffix.append("/").append(per);
  std::string out = scaled(value, {{1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "kB"}, {1, "B"}});
  return out + suffix;
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
  if (endsWith(name, "_flops_per_byte")) return digits(value) + " FLOP/B";
  if (name == "flops_per_token")
    return scaled(value, {{1e12, "TFLOP"}, {1e9, "GFLOP"}, {1, "FLOP"}}) + "/token";
  if (name == "training_flops") {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g FLOP", value);
    return text;
  }
  if (endsWith(name, "_flops"))
    return scaled(value, {{1e15, "PFLOP/s"}, {1e12, "TFLOP/s"}, {1e9, "GFLOP/s"}, {1, "FLOP/s"}});
  if (endsWith(name, "pixels_per_s"))
    return scaled(value, {{1e12, "Tpixel/s"}, {1e9, "Gpixel/s"}, {1, "pixel/s"}});
  if (name.find("tokens_per_s") != std::string_view::npos) return count(value) + " tokens/s";
  if (endsWith(name, "_kg_per_s")) return digits(value) + " kg/s";
  if (endsWith(name, "_L_per_min")) return count(value) + " L/min";
  if (endsWith(name, "_per_J")) return digits(value) + " tokens/J";
  if (endsWith(name, "_s")) return duration(value);
  if (endsWith(name, "_kWh")) return scaled(value, {{1e6, "GWh"}, {1e3, "MWh"}, {1, "kWh"}});
  if (endsWith(name, "_W")) return scaled(value, {{1e6, "MW"}, {1e3, "kW"}, {1, "W"}});
  if (endsWith(name, "_Hz")) return scaled(value, {{1e9, "GHz"}, {1e6, "MHz"}, {1, "Hz"}});
  if (endsWith(name, "_usd")) return dollars(value);
  if (endsWith(name, "_C")) return digits(value) + " °C";
  if (endsWith(name, "_K")) return digits(value) + " K";
  if (endsWith(name, "_fraction") || endsWith(name, "_share_of_iteration") || name == "mfu")
    return digits(value * 100.0) + " %";
  if (endsWith(name, "_hours")) return count(value) + " h";
  if (endsWith(name, "speedup")) return digits(value) + "×";
  if (endsWith(name, "_tokens") || endsWith(name, "tokens_per_gpu"))
    return count(value) + " tokens";
  return count(value);
}

}  // namespace app
