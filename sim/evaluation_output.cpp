// Rendering an Evaluation: nested JSON for scripts, an aligned table for people.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "sim/evaluate.h"
#include "sim/format.h"

namespace sim {
namespace {

std::string formatValue(const Output& o) {
  if (const double* d = std::get_if<double>(&o.value)) return significant(*d, 6);
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

namespace {

// The collective sweep as nccl-tests prints it: one row per size (its keys are
// "<bytes>B_time_s", "<bytes>B_alg_bandwidth_Bps", "<bytes>B_bus_bandwidth_Bps",
// "<bytes>B_algorithm", in that order).
void sweepRows(std::ostringstream& out, const std::vector<Output>& outputs, size_t& i) {
  char line[160];
  std::snprintf(line, sizeof line, "  %14s %12s %12s %12s  %s\n", "size (B)", "time (us)",
                "algbw (GB/s)", "busbw (GB/s)", "algorithm/protocol");
  out << line;
  while (i + 3 < outputs.size() && outputs[i].section == "collective_sweep") {
    const std::string size = outputs[i].key.substr(0, outputs[i].key.find('B'));
    const auto number = [&](size_t k) { return std::get<double>(outputs[i + k].value); };
    std::snprintf(line, sizeof line, "  %14s %12.2f %12.2f %12.2f  %s\n", size.c_str(),
                  number(0) * 1e6, number(1) / 1e9, number(2) / 1e9,
                  std::get<std::string>(outputs[i + 3].value).c_str());
    out << line;
    i += 4;
  }
}

}  // namespace

std::string Evaluation::toTable() const {
  size_t width = 0;
  for (const Output& o : outputs) width = std::max(width, o.key.size());
  std::ostringstream out;
  std::string section;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Output& o = outputs[i];
    if (o.section != section) {
      section = o.section;
      out << "\n[" << section << "]\n";
      if (section == "collective_sweep") {
        sweepRows(out, outputs, i);
        --i;  // the loop's ++i steps onto the next section
        continue;
      }
    }
    out << "  " << o.key << std::string(width - o.key.size() + 2, ' ') << formatValue(o);
    if (!o.unit.empty()) out << " " << o.unit;
    out << "\n";
  }
  return out.str();
}

}  // namespace sim
