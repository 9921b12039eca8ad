// Chapter 9's tour event: the pipeline stages as bands across the hall's racks.
// Pure geometry over the scene and its live layer (world/live/layer.h); time is the frame's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/engine/snapshot.h"
#include "world/live/events/event_geometry.h"
#include "world/live/layer.h"

namespace world {

/// Chapter 9: 3D parallelism on the hall's racks. Every compute tray of a training job's racks
/// wears a light bar on the rack's front in the colour of the pipeline stage its GPUs run (the
/// overlay's palette, stage 0 to the last); trays of one TP group (inside the NVLink domain) join
/// into one bar, so each bar is a TP group and the stages stand as bands across the hall's racks.
class StageBands {
 public:
  /// The compute trays ("compute_trayN", N = 0 at the top) of every rack of hall `hall`; none
  /// when its racks have no compute trays (an 8-GPU system's chassis).
  static StageBands build(const Scene& scene, const RackMap& racks, uint32_t hall = 0);

  struct Bar {
    Aabb box;  // world: on the rack's front
    uint32_t stage = 0;
  };
  /// The bars of `snapshot`'s training job: one per TP group of each rack (its trays top down);
  /// none for a service.
  std::vector<Bar> layout(const sim::engine::Snapshot& snapshot) const;
  /// The model itself as a ribbon along the top of the hall's first row's fronts, cut into its
  /// pipeline stages: one
  /// piece per stage, as long as its share of the layers (sim::calc::stageLayers), in the
  /// stage's colour, a gap at every cut. None for a service.
  std::vector<Bar> ribbon(const sim::engine::Snapshot& snapshot) const;
  /// The bars in their stages' colours out of `stages`.
  static void emit(const std::vector<Bar>& bars, uint32_t stages, const glm::dvec3& eye,
                   std::vector<gpu::Instance>& out);
  size_t racks() const { return m_racks.size(); }
  static constexpr double RIBBON_RISE_M = 0.12;  // above the row's tops, along its front
  static constexpr double RIBBON_HEIGHT_M = 0.2;
  static constexpr double CUT_SHARE = 0.3;  // of a piece's length: the gap at each cut

 private:
  struct Rack {
    uint32_t id = 0;  // RackId index
    event_geometry::RackFace face;
  };
  std::vector<Rack> m_racks;
  Aabb m_firstRow;             // world: the racks of the hall's first row
  bool m_rowReversed = false;  // its first rack at the bounds' high end (the ribbon starts there)
  glm::dvec3 m_rowFront{0, 0, 1};  // the way its trays face
  double m_rowFrontPlane = 0;      // along m_rowFront: its trays' fronts (0: no trays)
};

/// The stage bands as a layer: laid out once per run (a job's placement holds for its whole run).
class StageBandsLayer : public LiveLayer {
 public:
  static std::unique_ptr<LiveLayer> make(const LayerSources& sources);
  void sync(const LayerSync& sync) override;
  void emit(const LayerFrame& frame, std::vector<gpu::Instance>& out) override;
  const std::vector<StageBands::Bar>& bars() const { return m_bars; }
  const std::vector<StageBands::Bar>& ribbon() const { return m_ribbon; }

 private:
  StageBands m_stages;
  std::vector<StageBands::Bar> m_bars, m_ribbon;  // of the last run's job
  uint32_t m_stageCount = 0;                      // its pipeline stages
  uint64_t m_generation = UINT64_MAX;             // the sync generation they were laid out for
};

}  // namespace world
