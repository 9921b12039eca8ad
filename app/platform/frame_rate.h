// The HUD's frames per second: the median over the frames of the last wall-clock second, so one
// slow frame or a burst of fast ones (the first frames after start: "5333 fps") does not make
// the number jump.
#pragma once

#include <deque>

namespace app {

class FrameRate {
 public:
  static constexpr double WINDOW_S = 1.0;
  /// Adds a frame that took `dt_s` wall seconds (ignored unless > 0).
  void add(double dt_s);
  /// The median of 1/dt over the frames of the last WINDOW_S seconds (0 before any).
  double fps() const;

 private:
  std::deque<double> m_dts;  // newest last; their sum stays within WINDOW_S (but one)
  double m_sum_s = 0;
};

}  // namespace app
