// The finale's tour event: where the step's time goes, beside the same step at peak FLOPs.
// Pure geometry over the scene and its live layer (world/live/layer.h); time is the frame's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/engine/snapshot.h"
#include "world/live/events/event_geometry.h"
#include "world/live/layer.h"

namespace world {

/// The finale: two columns beside the hero rack. The real step, split bottom up into compute
/// (green), communication (cyan), bubble (amber), optimizer (grey) and time lost to faults
/// (red), each as tall as its share; beside it the ghost: the same step at peak FLOPs.
class GoodputColumns {
 public:
  /// Stands the columns on the floor beside the rack at `rackPath`.
  static GoodputColumns build(const Scene& scene, const std::string& rackPath);

  struct Segment {
    Aabb box;  // world
    Look look;
    double seconds = 0;
  };
  /// The ghost first, then the real step's segments bottom up (those of zero time left out), on
  /// the side of the rack that `right` (the view's right, world) points to.
  std::vector<Segment> layout(const sim::engine::StepSplit& split, const glm::dvec3& right) const;
  void emit(const sim::engine::StepSplit& split, const glm::dvec3& right, const glm::dvec3& eye,
            std::vector<gpu::Instance>& out) const;

 private:
  Aabb m_rack;  // world
};

/// The goodput columns as a layer: the step split of each sync, beside the rack on the view's
/// right.
class GoodputLayer : public LiveLayer {
 public:
  static std::unique_ptr<LiveLayer> make(const LayerSources& sources);
  void sync(const LayerSync& sync) override { m_split = sim::engine::stepSplit(sync.snapshot); }
  void emit(const LayerFrame& frame, std::vector<gpu::Instance>& out) override {
    m_columns.emit(m_split, frame.view.right, frame.view.eye, out);
  }
  const GoodputColumns& columns() const { return m_columns; }
  const sim::engine::StepSplit& stepSplit() const { return m_split; }

 private:
  GoodputColumns m_columns;
  sim::engine::StepSplit m_split;  // of the last sync
};

}  // namespace world
