// What the selection panel shows for a picked thing: its live numbers from the engine (a GPU of
// the hero rack, or any rack of the campus) and its catalog figures with their sources and basis
// (the GPU model, the rack system). Pure logic over the world, the engine and the catalog.
#pragma once

#include <string>
#include <vector>

#include "sim/basis.h"
#include "sim/catalog.h"
#include "sim/engine/snapshot.h"
#include "world/world.h"

namespace world {

enum class SelectionKind : uint8_t { Part, Rack, Gpu };

struct SelectionMetric {
  std::string label;  // "power"
  double value = 0;
  std::string unit;  // "kW"
};

struct SelectionFigure {
  std::string key;  // catalog path, "gpus.gb200.hbm_bandwidth_Bps"
  double value = 0;
  std::string unit;
  std::string source;
  sim::Basis basis = sim::Basis::Estimate;
};

struct SelectionInfo {
  SelectionKind kind = SelectionKind::Part;
  std::string title;  // the part's name, then what it belongs to
  std::string path;
  uint32_t index = 0;                  // RackId or GpuId index (Rack, Gpu)
  bool mirrored = false;               // a rack beyond the modelled fabric: its average rack
  std::vector<SelectionMetric> live;   // engine values now; live[0] is the one worth plotting
  std::vector<SelectionFigure> specs;  // catalog figures of what it is
};

/// Describes `hit`: a hero-rack GPU (its package or anything inside it), a rack (anything inside
/// one), or just a part.
SelectionInfo describeSelection(const PickHit& hit, const World& world,
                                const sim::engine::Snapshot& snapshot, const sim::Catalog& catalog);

}  // namespace world
