#include "sim/engine/series.h"

#include <cmath>
#include <iomanip>

#include "sim/domain.h"

namespace sim::engine {
namespace {

struct Column {
  std::string_view name;
  double Aggregates::*field;
  std::string_view unit;  // the output domain it lies in (sim/domain.h)
};

constexpr Column COLUMNS[] = {
    {"time_s", &Aggregates::time_s, "s"},
    {"campus_it_W", &Aggregates::campusIt_W, "W"},
    {"fabric_it_W", &Aggregates::fabricIt_W, "W"},
    {"facility_W", &Aggregates::facility_W, "W"},
    {"pue", &Aggregates::pue, "ratio"},
    {"mean_gpu_power_W", &Aggregates::meanGpuPower_W, "W"},
    {"max_junction_C", &Aggregates::maxJunction_C, "C"},
    {"max_loop_C", &Aggregates::maxLoop_C, "C"},
    {"min_clock_fraction", &Aggregates::minClock, "share"},
    {"goodput_fraction", &Aggregates::goodput, "share"},
    {"goodput_cumulative_fraction", &Aggregates::goodputCumulative, "share"},
    {"tokens_per_s", &Aggregates::tokensPerSecond, "tokens/s"},
    {"training_steps", &Aggregates::trainingSteps, "count"},
    {"last_step_time_s", &Aggregates::lastStepTime_s, "s"},
    {"phase", &Aggregates::phase, "count"},
    {"max_link_utilisation", &Aggregates::maxLinkUtilisation, "share"},
    {"paused_switches", &Aggregates::pausedSwitches, "count"},
    {"queued_requests", &Aggregates::queued, "count"},
    {"active_sequences", &Aggregates::active, "count"},
    {"mean_ttft_s", &Aggregates::meanTtft_s, "s"},
    {"tpot_s", &Aggregates::tpot_s, "s"},
    {"mean_kv_occupancy_fraction", &Aggregates::meanKvOccupancy, "share"},
};

void number(std::ostream& out, double v) {
  if (std::isfinite(v))
    out << v;
  else
    out << (std::string_view("null"));
}

}  // namespace

std::optional<SeriesFormat> parseSeriesFormat(std::string_view name) {
  if (name == "csv") return SeriesFormat::Csv;
  if (name == "json") return SeriesFormat::Json;
  return std::nullopt;
}

std::string checkAggregates(const Aggregates& row) {
  for (const Column& c : COLUMNS) {
    if (std::string why = outputError(c.unit, row.*c.field); !why.empty()) {
      return std::string(c.name) + " " + why;
    }
  }
  return "";
}

std::vector<std::string_view> seriesColumns() {
  std::vector<std::string_view> names;
  for (const Column& c : COLUMNS) names.push_back(c.name);
  return names;
}

void writeSeries(std::ostream& out, const Engine& engine, SeriesFormat format) {
  const auto flags = out.flags();
  const auto precision = out.precision();
  out << std::setprecision(10);
  const size_t rows = engine.seriesRows();
  if (format == SeriesFormat::Csv) {
    for (size_t c = 0; c < std::size(COLUMNS); ++c) out << (c ? "," : "") << COLUMNS[c].name;
    out << '\n';
    for (size_t r = 0; r < rows; ++r) {
      const Aggregates& a = engine.seriesRow(r);
      for (size_t c = 0; c < std::size(COLUMNS); ++c) {
        if (c) out << ',';
        const double v = a.*COLUMNS[c].field;
        if (std::isfinite(v)) out << v;  // an empty CSV cell for inf/nan
      }
      out << '\n';
    }
  } else {
    out << "{";
    for (size_t c = 0; c < std::size(COLUMNS); ++c) {
      out << (c ? ",\n " : "\n ") << '"' << COLUMNS[c].name << "\": [";
      for (size_t r = 0; r < rows; ++r) {
        if (r) out << ',';
        number(out, engine.seriesRow(r).*COLUMNS[c].field);
      }
      out << ']';
    }
    out << "\n}\n";
  }
  out.flags(flags);
  out.precision(precision);
}

}  // namespace sim::engine
