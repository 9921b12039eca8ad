// The live layers a frame can switch on, by id, and the names a tour step switches them on by
// (world/live/layer.h). A new visual adds its id and name here and its maker in
// world/live/layers.cpp; nothing else in the world changes.
#pragma once

#include <array>
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace world {

enum class LayerId : uint8_t {
  Traffic,       // the hero rack's NVLink and fabric particles (traffic.h)
  Coolant,       // the hero rack's coolant loop (coolant.h)
  HbmFill,       // the hero HBM stack filled from the panel's memory bar (hbm_fill.h)
  Ring,          // chapter 6: the DP ring AllReduce over the hero row (events/ring.h)
  Firehose,      // chapter 2: HBM streaming into the die (events/firehose.h)
  PowerFlow,     // chapter 10: the campus's power and heat flows (events/power_flow.h)
  NvlinkDomain,  // chapter 8: the hero rack's NVLink domain lit tray by tray (events/nvlink.h)
  Goodput,       // the finale: the step split beside the hero rack (events/goodput.h)
  StageBands,    // chapter 9: the hall's trays in their pipeline stage's colour (events/stages.h)
  ValueBars,     // chapter 5: a panel's answer as bars behind the hero (events/value_bars.h)
  PixelRace,     // chapters 1 and 2: two screens racing behind the hero (events/pixel_race.h)
  Phases,  // chapter 4: prefill and decode side by side on the package's dies (events/phases.h)
  Count
};
inline constexpr size_t LAYER_COUNT = size_t(LayerId::Count);

/// The names a tour file uses, in LayerId order.
inline constexpr std::array<std::string_view, LAYER_COUNT> LAYER_NAMES = {
    "traffic", "coolant", "memory", "ring",    "firehose", "power",
    "nvlink",  "goodput", "stages", "compare", "race",     "phases"};

inline std::optional<LayerId> layerByName(std::string_view name) {
  for (size_t i = 0; i < LAYER_COUNT; ++i) {
    if (LAYER_NAMES[i] == name) return LayerId(i);
  }
  return std::nullopt;
}

/// The layers a frame draws.
class LayerSet {
 public:
  LayerSet() = default;
  LayerSet(std::initializer_list<LayerId> ids) {
    for (LayerId id : ids) set(id);
  }
  LayerSet& set(LayerId id, bool on = true) {
    m_bits.set(size_t(id), on);
    return *this;
  }
  bool has(LayerId id) const { return m_bits.test(size_t(id)); }
  bool empty() const { return m_bits.none(); }
  bool operator==(const LayerSet&) const = default;

 private:
  std::bitset<LAYER_COUNT> m_bits;
};

}  // namespace world
