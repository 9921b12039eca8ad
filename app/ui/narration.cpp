#include "app/ui/narration.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <string_view>

namespace app {
namespace {

constexpr const char* CATALOG = "catalog:";
constexpr const char* TRACE = "trace.";
constexpr const char* ENGINE = "engine.";
// What a "trace.<source>.<share>" and an "engine.<figure>" placeholder may name.
constexpr std::array<std::string_view, 2> TRACE_SOURCES = {"measured", "modelled"};
constexpr std::array<std::string_view, 3> TRACE_SHARES = {"compute", "exposed_communication",
                                                          "idle"};
constexpr std::array<std::string_view, 5> ENGINE_FIGURES = {
    "campus_facility_W", "campus_it_W", "campus_racks", "goodput_fraction", "step_time_s"};

template <size_t N>
bool oneOf(const std::array<std::string_view, N>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// "trace.measured.compute": that share of `sources` as a percentage, or "".
std::string traceShare(const std::string& placeholder, const NarrationSources& sources) {
  const std::string rest = placeholder.substr(std::string(TRACE).size());
  const size_t dot = rest.find('.');
  if (dot == std::string::npos) return {};
  const std::string which = rest.substr(0, dot), quantity = rest.substr(dot + 1);
  const sim::trace::StepShares* shares = which == "measured"   ? sources.measured
                                         : which == "modelled" ? sources.modelled
                                                               : nullptr;
  if (!shares) return {};
  double share = 0;
  if (quantity == "compute") {
    share = shares->compute;
  } else if (quantity == "exposed_communication") {
    share = shares->exposedCommunication;
  } else if (quantity == "idle") {
    share = shares->idle;
  } else {
    return {};
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f\u00a0%%", 100 * share);
  return text;
}

// "engine.campus_facility_W": that figure of the running engine's campus, or "".
std::string engineValue(const std::string& placeholder, const sim::engine::Snapshot* snapshot) {
  if (!snapshot || !snapshot->cluster || !snapshot->figures) return {};
  const std::string key = placeholder.substr(std::string(ENGINE).size());
  const sim::engine::CampusPower campus =
      sim::engine::campusPower(*snapshot, sim::engine::PowerWindow::StepMean);
  if (key == "campus_facility_W") return sim::formatQuantity(campus.facility_W, key);
  if (key == "campus_it_W") return sim::formatQuantity(campus.it_W, key);
  if (key == "campus_racks") return sim::formatQuantity(snapshot->cluster->campusRacks, key);
  // Training: the share of the fault-free work done so far, and the last step's time (the
  // fault-free one before the first step ends).
  if (!snapshot->training) return {};
  const sim::engine::Aggregates& a = snapshot->aggregates;
  if (key == "goodput_fraction") return sim::formatQuantity(a.goodputCumulative, key);
  if (key == "step_time_s")
    return sim::formatQuantity(
        a.lastStepTime_s > 0 ? a.lastStepTime_s : snapshot->faultFreeStepTime_s, key);
  return {};
}

// "24.5 GB" -> "24.5\u00a0GB": a number never parts from its unit.
std::string joinedUnit(std::string text) {
  for (size_t at = text.find(' '); at != std::string::npos; at = text.find(' ', at)) {
    text.replace(at, 1, "\u00a0");
  }
  return text;
}

}  // namespace

std::vector<std::string> placeholders(const std::string& text) {
  std::vector<std::string> out;
  for (size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open + 1)) {
    const size_t close = text.find('}', open);
    if (close == std::string::npos) break;
    out.push_back(text.substr(open + 1, close - open - 1));
  }
  return out;
}

bool knownPlaceholder(const std::string& placeholder, const sim::Catalog& catalog) {
  const std::string_view p = placeholder;
  if (p.rfind(CATALOG, 0) == 0) {
    return catalog.find(std::string(p.substr(std::string_view(CATALOG).size()))) != nullptr;
  }
  if (p.rfind(TRACE, 0) == 0) {
    const std::string_view rest = p.substr(std::string_view(TRACE).size());
    const size_t dot = rest.find('.');
    return dot != std::string_view::npos && oneOf(TRACE_SOURCES, rest.substr(0, dot)) &&
           oneOf(TRACE_SHARES, rest.substr(dot + 1));
  }
  if (p.rfind(ENGINE, 0) == 0) {
    return oneOf(ENGINE_FIGURES, p.substr(std::string_view(ENGINE).size()));
  }
  return false;
}

std::string placeholderValue(const std::string& placeholder, const NarrationSources& sources) {
  if (placeholder.rfind(CATALOG, 0) == 0) {
    const std::string path = placeholder.substr(std::string(CATALOG).size());
    const sim::Quantity* q = sources.catalog ? sources.catalog->find(path) : nullptr;
    return q ? joinedUnit(sim::formatQuantity(q->value, path)) : std::string();
  }
  if (placeholder.rfind(TRACE, 0) == 0) return traceShare(placeholder, sources);
  if (placeholder.rfind(ENGINE, 0) == 0)
    return joinedUnit(engineValue(placeholder, sources.engine));
  const PanelRowView* row = sources.panel ? sources.panel->value(placeholder) : nullptr;
  return row ? joinedUnit(row->text) : std::string();
}

std::string fillNarration(const std::string& text, const NarrationSources& sources,
                          std::vector<std::string>* unresolved) {
  std::string out;
  size_t at = 0;
  while (at < text.size()) {
    const size_t open = text.find('{', at);
    const size_t close = open == std::string::npos ? open : text.find('}', open);
    if (close == std::string::npos) {
      out += text.substr(at);
      break;
    }
    out += text.substr(at, open - at);
    const std::string name = text.substr(open + 1, close - open - 1);
    const std::string value = placeholderValue(name, sources);
    if (value.empty()) {
      out += text.substr(open, close - open + 1);
      if (unresolved) unresolved->push_back(name);
    } else {
      out += value;
    }
    at = close + 1;
  }
  return out;
}

}  // namespace app
