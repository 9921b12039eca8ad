// Chapter 8's tour event: the hero rack's NVLink domain lit tray by tray.
// Pure geometry over the scene and its live layer (world/live/layer.h); time is the frame's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "world/live/events/event_geometry.h"
#include "world/live/layer.h"

namespace world {

/// Chapter 8: NVLink lines from each compute tray of the hero rack to its switch trays, on the
/// rack's front. The lit domain grows from one DGX's 8 GPUs to the rack's NVLink domain.
class NvlinkDomain {
 public:
  static constexpr uint32_t START_GPUS = 8;  // a DGX H100's domain
  static constexpr double GROW_S = 6.0;      // seconds from 8 GPUs to the whole domain

  /// Finds the compute trays ("compute_trayN") and switch trays ("switch_trayN") of the rack at
  /// `rackPath`; none (nothing drawn) when the rack has no switch trays (an 8-GPU system).
  static NvlinkDomain build(const Scene& scene, const std::string& rackPath);

  /// GPUs lit `time_s` after the step began: START_GPUS, growing linearly to `domainGpus` over
  /// GROW_S, in whole trays of `gpusPerTray` (at least one tray, at most the domain).
  static uint32_t litGpus(double time_s, uint32_t domainGpus, uint32_t gpusPerTray);

  size_t trays() const { return m_trays.size(); }
  /// A line per lit tray (top down) from the tray to the switch trays, a bar across each lit
  /// tray's front and across the switch trays, relative to `eye`.
  void emit(uint32_t litTrays, const glm::dvec3& eye, std::vector<gpu::Instance>& out) const;

 private:
  std::vector<Aabb> m_trays;  // world, top down
  Aabb m_switches;            // all switch trays together (world)
  glm::dvec3 m_front{0, 0, 1};
  glm::dvec3 m_side{1, 0, 0};
  double m_frontPlane = 0;  // along m_front: the trays' fronts (the hero tray's pulled out)
};

/// The NVLink domain as a layer: its size from each sync's cluster, grown on the events' clock.
class NvlinkLayer : public LiveLayer {
 public:
  static std::unique_ptr<LiveLayer> make(const LayerSources& sources);
  void sync(const LayerSync& sync) override;
  void emit(const LayerFrame& frame, std::vector<gpu::Instance>& out) override;
  const NvlinkDomain& domain() const { return m_domain; }

 private:
  NvlinkDomain m_domain;
  uint32_t m_domainGpus = 0, m_gpusPerTray = 0;  // of the last sync's cluster
};

}  // namespace world
