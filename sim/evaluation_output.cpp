// Rendering an Evaluation: nested JSON for scripts, an aligned table for people.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "sim/evaluate.h"

namespace sim {
namespace {

std::string formatNumber(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

std::string formatValue(const Output& o) {
  if (const double* d = std::get_if<double>(&o.value)) return formatNumber(*d);
  if (const bool* b = std::get_if<bool>(&o.value)) return *b ? "yes" : "no";
  return std::get<std::string>(o.value);
}

}  // namespace

nlohmann::ordered_json Evaluation::toJson() const {
  nlohmann::ordered_json ordered = nlohmann::ordered_json::object();
  for (const Output& o : outputs) {
    nlohmann::ordered_json& section = ordered[o.section];
    std::visit([&](const auto& v) { section[o.key] = v; }, o.value);
  }
  return ordered;
}

std::string Evaluation::toTable() const {
  size_t width = 0;
  for (const Output& o : outputs) width = std::max(width, o.key.size());
  std::ostringstream out;
  std::string section;
  for (const Output& o : outputs) {
    if (o.section != section) {
      section = o.section;
      out << "\n[" << section << "]\n";
    }
    out << "  " << o.key << std::string(width - o.key.size() + 2, ' ') << formatValue(o);
    if (!o.unit.empty()) out << " " << o.unit;
    out << "\n";
  }
  return out.str();
}

}  // namespace sim
