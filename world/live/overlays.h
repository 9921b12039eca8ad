// Live overlays: one metric of the simulation engine (power, temperature, utilisation, link
// load) drawn on the world as a heatmap (racks, and the hero rack's trays and GPUs, coloured by
// value on a colour-blind-safe palette) and as a few labels. The world reads an OverlayState
// every frame; the app fills it from the engine's snapshot (updateOverlay).
//
// Rack order (RackId index = sim::engine::RackId index): hall by hall ("hall0", "hall1" ...),
// within a hall row by row ("row0" ...), within a row rack by rack ("rack0" ...), so
// "hall0/row0/rack0" is rack 0 (the hero rack) and the next hall starts after the last rack of
// the one before. The engine's modelled racks come first; racks beyond them mirror the modelled
// fabric's average rack (sim/engine/cluster.h), and so does their overlay value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/basis.h"
#include "world/live/overlay_metric.h"
#include "world/scene/scene.h"

namespace sim::engine {
struct Snapshot;
}

namespace world {

/// A colour with components 0..1.
struct Rgb {
  float r = 0, g = 0, b = 0;
};

/// Viridis at `t` (clamped to 0..1), sRGB as published: piecewise linear through every 17th
/// entry (0, 17 ... 255) of the 256-entry table of mpl-colormaps (van der Walt, Smith, Firing,
/// CC0; matplotlib's `viridis`).
Rgb viridis(double t);
/// sRGB-encoded colour to linear RGB (IEC 61966-2-1), what scene instances take.
Rgb srgbToLinear(Rgb srgb);

/// The values a legend maps onto the palette: min at 0, max at 1, in `unit`.
struct LegendRange {
  double min = 0;
  double max = 1;
  std::string unit;   // "kW", "W", "°C", "%"
  std::string label;  // what is coloured, e.g. "rack power"
  /// Where `value` falls between min (0) and max (1), clamped.
  double normalised(double value) const;
};

/// What the world draws for the chosen metric, by index (no strings per frame).
struct OverlayState {
  OverlayMetric metric = OverlayMetric::None;
  double time_s = 0;                       // simulated time of the values
  sim::Basis basis = sim::Basis::Derived;  // the engine's values are calculations
  std::vector<float> rackValues;           // by RackId (campus order), in rackRange.unit
  std::vector<float> heroGpuValues;        // hero rack's GPUs by local index (tray x gpusPerTray +
                                           // slot), in gpuRange.unit
  uint32_t gpusPerTray = 4;
  LegendRange rackRange;
  LegendRange gpuRange;  // hero rack GPUs; its trays show the mean of their GPUs
  bool active() const { return metric != OverlayMetric::None; }
};

/// Fills `out` with `metric` from the engine's current snapshot (reuses its storage). Rack
/// values: power = rack kW; temperature = hottest GPU junction; utilisation = mean GPU tensor
/// busy share; link load = busiest NIC link of the rack. Ranges come from the cluster's catalog
/// figures (rack max power, GPU TDP, coolant supply to throttle junction, 0-100 %).
void updateOverlay(const sim::engine::Snapshot& snapshot, OverlayMetric metric, OverlayState& out);

/// `shown` moved towards `target`: each value by at most `maxShare` of its range (a new metric,
/// or other racks, is taken at once). What the heat map draws, so it never flashes
/// (world/live/calm.h).
void easeOverlay(OverlayState& shown, const OverlayState& target, double maxShare);

/// The campus's racks in RackId order, found once from the scene's instance names.
class RackMap {
 public:
  /// Reads the halls, rows and racks under the scene's root.
  static RackMap build(const Scene& scene);
  uint32_t rackCount() const { return static_cast<uint32_t>(m_paths.size()); }
  /// RackId index of the rack instance at `path` ("hall1/row3/rack2"), or nullopt.
  std::optional<uint32_t> rackIndexOfPath(std::string_view path) const;
  /// Instance path of rack `index` (must be < rackCount()).
  const std::string& pathOfRack(uint32_t index) const { return m_paths[index]; }
  /// World bounds of rack `index`.
  const Aabb& rackBounds(uint32_t index) const { return m_bounds[index]; }
  /// First RackId index of row `row` of hall `hall`, or nullopt when there is no such row.
  std::optional<uint32_t> firstRackOfRow(uint32_t hall, uint32_t row) const;
  /// Halls by number, each its rows' [first, end) RackId ranges.
  const std::vector<std::vector<uint32_t>>& rowStarts() const { return m_rowFirst; }

 private:
  std::vector<std::vector<uint32_t>> m_rowFirst;  // [hall][row] -> first rack; one extra entry
                                                  // per hall holds its end
  std::vector<std::string> m_paths;
  std::vector<Aabb> m_bounds;
};

/// A GPU package of the hero rack that is an instance of its own.
struct HeroGpu {
  uint32_t tray = 0;  // compute tray number in the rack (0 = top)
  uint32_t slot = 0;  // GPU package in the tray, in the order the tray lists them
  Aabb bounds;        // world
  std::string path;   // instance path ("hall0/row0/rack0/compute_tray9/superchip0_gpu0")
  /// Local index in the rack as the engine counts it (tray x GPUs per tray + slot).
  uint32_t local(uint32_t gpusPerTray) const { return tray * gpusPerTray + slot; }
};
/// The GPU packages inside the hero rack (rack 0 of `racks`).
std::vector<HeroGpu> findHeroGpus(const Scene& scene, const RackMap& racks);

/// The scene tint of the overlay: racks by rack value; inside the hero rack (whose frame, switch
/// trays and power shelves keep their looks), compute trays by the mean of their GPUs and GPU
/// packages by their own value (on the package, not the dies and HBM inside); far away, the proxy
/// box of a row or a hall (and of the hero rack) by the mean of its racks. Built once per scene;
/// prepare() turns an OverlayState into colours (storage reused frame to frame).
class OverlayTint final : public TintRule {
 public:
  /// Tags every child slot of the scene once (hall/row/rack/tray/GPU from its name).
  void bind(const Scene& scene, const RackMap& racks);
  /// Colours for `state`; call before each collect that uses this tint.
  void prepare(const OverlayState& state);

  uint32_t childState(uint32_t parentState, PrototypeId parent, uint32_t child) const override;
  const Look* look(uint32_t state, bool proxy) const override;

  /// The look of a value on the palette (what racks and GPUs get).
  static Look lookOf(double normalised);

 private:
  enum class Tag : uint8_t { Other, Hall, Row, Rack, Tray, Gpu };
  struct ChildTag {
    Tag tag = Tag::Other;
    uint32_t number = 0;  // hall/row/rack/tray number, or the GPU's slot in its tray
  };
  std::vector<std::vector<ChildTag>> m_tags;  // [prototype][child]
  const RackMap* m_racks = nullptr;
  uint32_t m_gpusPerTray = 4;
  std::vector<Look> m_rackLooks, m_trayLooks, m_gpuLooks;
  std::vector<Look> m_rowLooks;   // by the row's first RackId index
  std::vector<Look> m_hallLooks;  // by hall number
};

}  // namespace world
