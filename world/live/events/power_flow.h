// Chapter 10's tour event: the campus's power in from the substation and its heat out.
// Pure geometry over the scene and its live layer (world/live/layer.h); time is the frame's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/engine/snapshot.h"
#include "world/live/events/event_geometry.h"
#include "world/live/layer.h"

namespace world {

/// Chapter 10: power flowing from the substation along a trunk on the halls' substation side (the
/// feeders' route, never through the generator yards behind them), into each
/// hall as wide as its IT power, and the same heat leaving each hall for its cooling yard. The
/// trunk narrows as each hall takes its share; pulses run along every flow.
class PowerFlow {
 public:
  static constexpr double WIDTH_M_PER_MW = 1.0;  // a 6 MW hall's feed 6 m wide
  static constexpr double MIN_WIDTH_M = 1.0, MAX_WIDTH_M = 40.0;
  static constexpr double PULSE_SPEED_MPS = 40.0;
  static constexpr double PULSE_SPACING_M = 30.0;
  static constexpr double HEAT_LIFT_M = 0.1;  // heat bands above power bands where they cross

  /// The flows of the campus in `scene`: its "substation", "hallN" and "coolingN" (nothing when
  /// the campus has no substation or no hall); `racks` gives each hall's racks.
  static PowerFlow build(const Scene& scene, const RackMap& racks);

  struct Flow {
    Aabb box;            // world: the lit band on the ground
    double power_W = 0;  // what it carries
    bool heat = false;   // heat leaving for the coolers (else power arriving)
    int32_t hall = -1;   // the hall it feeds or cools; -1: a trunk segment
  };
  /// The flows for the halls' IT power `hallPower_W` (by hall), trunk segments first.
  std::vector<Flow> layout(const std::vector<double>& hallPower_W) const;
  /// The bands and their pulses at `time_s`, relative to `eye`.
  void emit(const std::vector<double>& hallPower_W, double time_s, const glm::dvec3& eye,
            std::vector<gpu::Instance>& out) const;
  /// Each hall's IT power over the last step (sim::engine::rackRangePower_W over its racks, the
  /// step mean: what a meter on the feed reads, not the swing between compute and collective).
  std::vector<double> hallPower_W(const sim::engine::Snapshot& snapshot) const;
  /// The band width for `power_W`.
  static double width_m(double power_W);

 private:
  Aabb m_substation;
  std::vector<Aabb> m_halls, m_coolers;                // world, by hall (coolers may be empty)
  std::vector<std::pair<uint32_t, uint32_t>> m_racks;  // each hall's [first, end) RackId
};

/// "substation  30.0 MW IT, step mean", "hall 2  6.1 MW": the label of a power flow.
std::string powerFlowLabel(const PowerFlow::Flow& flow);

/// The power flows as a layer: each hall's power from each sync, the substation's and each hall's
/// MW over their flows.
class PowerFlowLayer : public LiveLayer {
 public:
  static std::unique_ptr<LiveLayer> make(const LayerSources& sources);
  void sync(const LayerSync& sync) override { m_hallPower_W = m_flow.hallPower_W(sync.snapshot); }
  void emit(const LayerFrame& frame, std::vector<gpu::Instance>& out) override {
    m_flow.emit(m_hallPower_W, frame.inputs.eventTime_s, frame.view.eye, out);
  }
  void labels(const LayerFrame& frame, std::vector<Label>& out) const override;
  const PowerFlow& flow() const { return m_flow; }
  const std::vector<double>& hallPower_W() const { return m_hallPower_W; }

 private:
  PowerFlow m_flow;
  std::vector<double> m_hallPower_W;  // of the last sync
};

}  // namespace world
