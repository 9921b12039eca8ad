// The engine's aggregate time series as CSV (a header row, then one row per recorded step) or
// JSON (an object of columns: {"time_s": [...], ...}), for `dcwalk sim --until T --series ...`.
// Column names carry their units.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "sim/engine/engine.h"

namespace sim::engine {

enum class SeriesFormat { Csv, Json };

/// Parses "csv" or "json"; nullopt otherwise.
std::optional<SeriesFormat> parseSeriesFormat(std::string_view name);
/// Names of the series columns, in output order.
std::vector<std::string_view> seriesColumns();
/// "" when every column of `row` lies in its unit's output domain (sim/domain.h: times, powers
/// and counts >= 0, shares in [0, 1], Celsius above absolute zero), else the first column's name
/// and what is wrong with it.
std::string checkAggregates(const Aggregates& row);
/// Writes every recorded row of `engine`'s series to `out`.
void writeSeries(std::ostream& out, const Engine& engine, SeriesFormat format);

}  // namespace sim::engine
