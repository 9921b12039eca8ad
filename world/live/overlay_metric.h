// The heat overlays by name: what a rack, tray or GPU can be coloured by. A header of its own so
// that the tour loader types its steps' overlays without the overlay code.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace world {

enum class OverlayMetric : uint8_t { None, Power, Temperature, Utilisation, LinkLoad, Stage };
/// How many metrics there are (None included), for cycling through them.
inline constexpr int OVERLAY_METRIC_COUNT = int(OverlayMetric::Stage) + 1;

/// "none", "power", "temperature", "utilisation", "link_load", "pipeline_stage" (the training
/// job's placement: the hero rack's GPUs by pipeline stage, racks by their GPUs' mean stage).
constexpr std::string_view overlayMetricName(OverlayMetric metric) {
  switch (metric) {
    case OverlayMetric::None:
      return "none";
    case OverlayMetric::Power:
      return "power";
    case OverlayMetric::Temperature:
      return "temperature";
    case OverlayMetric::Utilisation:
      return "utilisation";
    case OverlayMetric::LinkLoad:
      return "link_load";
    case OverlayMetric::Stage:
      return "pipeline_stage";
  }
  return "none";
}

/// Parses a metric name (also "utilization"); nullopt when unknown.
constexpr std::optional<OverlayMetric> parseOverlayMetric(std::string_view name) {
  for (int i = 0; i < OVERLAY_METRIC_COUNT; ++i) {
    if (name == overlayMetricName(OverlayMetric(i))) return OverlayMetric(i);
  }
  if (name == "utilization") return OverlayMetric::Utilisation;
  return std::nullopt;
}

}  // namespace world
