// The systolic wave of chapter 5: in each MXU of the gallery TPU, operands enter at two edges and
// move one processing element per clock, so the cells that work at the same moment form an
// anti-diagonal front sweeping the array ("the bucket brigade"). Drawn as a glowing bar at that
// front, slowed down to a few seconds per pass (a real pass of 2 x 128 cycles takes ~170 ns).
#pragma once

#include <string>
#include <vector>

#include "world/live/layer.h"
#include "world/scene/render_list.h"
#include "world/scene/scene.h"

namespace world {

class SystolicWave {
 public:
  /// Seconds one front takes to cross the array on screen.
  static constexpr double PASS_S = 4.0;

  /// Finds the MXUs of the TPU die at `diePath` (children "mxu0", "mxu1" ...).
  static SystolicWave build(const Scene& scene, const std::string& diePath);

  size_t arrays() const { return m_mxus.size(); }
  /// Where the front is at `time_s`, as u + v in 0..2 over the array's unit square.
  static double front(double time_s);
  /// Length of the front inside a unit square at `front` (0 at the corners, sqrt 2 across).
  static double frontLength(double front);
  /// One glowing bar per MXU at the front for `time_s`, relative to `eye`.
  void emit(double time_s, const glm::dvec3& eye, std::vector<gpu::Instance>& out) const;

 private:
  struct Mxu {
    glm::dmat4 transform;
    Aabb bounds;  // prototype frame
  };
  std::vector<Mxu> m_mxus;
};

/// The wave as a layer, always on: the tpu station's MXUs on the animations' clock.
class SystolicLayer : public LiveLayer {
 public:
  static std::unique_ptr<LiveLayer> make(const LayerSources& sources);
  void emit(const LayerFrame& frame, std::vector<gpu::Instance>& out) override {
    m_wave.emit(frame.inputs.animationTime_s, frame.view.eye, out);
  }

 private:
  SystolicWave m_wave;
};

}  // namespace world
