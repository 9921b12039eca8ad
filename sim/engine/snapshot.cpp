#include "sim/engine/snapshot.h"

#include <algorithm>

namespace sim::engine {

double rackRangePower_W(const Snapshot& snapshot, uint32_t firstRack, uint32_t endRack) {
  const uint32_t modelled =
      std::min<uint32_t>(snapshot.cluster->racks, uint32_t(snapshot.rackPower_W.size()));
  double modelledSum_W = 0;
  for (uint32_t r = 0; r < modelled; ++r) modelledSum_W += snapshot.rackPower_W[r];
  const double mirrored_W = modelled ? modelledSum_W / modelled : 0.0;
  double sum_W = 0;
  for (uint32_t r = firstRack; r < endRack; ++r) {
    sum_W += r < modelled ? snapshot.rackPower_W[r] : mirrored_W;
  }
  return sum_W;
}

}  // namespace sim::engine
