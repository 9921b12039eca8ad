// The selection panel (window mode): what was clicked — a hero-rack GPU, a rack, or a part — with
// its live numbers from the engine, a plot of the first one's recent history, and its catalog
// figures with basis and source (world::describeSelection). It takes the right column while
// something is selected; Esc or a click on empty space clears it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/ui/ui_layout.h"
#include "sim/catalog.h"
#include "sim/engine/snapshot.h"
#include "world/live/selection.h"
#include "world/world.h"

namespace app {

class SelectionPanel {
 public:
  /// Follows `hit` (nullopt: nothing selected) and samples its first live number.
  void update(const std::optional<world::PickHit>& hit, const world::World& world,
              const sim::engine::Snapshot& snapshot, const sim::Catalog& catalog);
  /// Draws the panel in `region` when something is selected; false when there is nothing.
  bool draw(const ScreenRect& region, const std::string& language) const;
  bool active() const { return !m_info.path.empty(); }
  const world::SelectionInfo& info() const { return m_info; }

  /// Samples kept for the plot (at one per frame, about 10 s at 30 fps).
  static constexpr size_t HISTORY = 300;

 private:
  world::SelectionInfo m_info;
  std::vector<float> m_history;
  double m_lastTime_s = -1;
};

/// A live value with its unit as the panels write numbers ("61.2 kW", "38 %", "412 GB/s").
std::string formatWithUnit(double value, const std::string& unit);

}  // namespace app
