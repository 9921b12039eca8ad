// What keeps the picture from flashing (WCAG 2.3.1, issue 22): everything the simulation lights
// (heat-map colours, the compute glow) moves towards its new value at a bounded rate of wall-clock
// time instead of jumping with every phase of a training step. A general flash is a pair of
// opposing changes of at least 0.1 in relative luminance; over the viridis palette the steepest
// luminance slope is about 1.7 per unit of the normalised value (t 0.9 -> 1.0: 0.62 -> 0.79), so
// one such change needs a change of at least 0.06 in the value: at 0.3 per second a change takes
// at least 0.2 s and a flash 0.4 s, at most 2.5 flashes a second (the limit is 3). Reduced motion
// calms it three times more, and slows the traffic particles.
#pragma once

#include <algorithm>

namespace world {

/// How the live world follows the simulation in one frame.
struct Calm {
  double wall_s = 0;           // wall-clock seconds since the last frame (0: jump: a still)
  bool reducedMotion = false;  // the visitor asked for less motion

  static constexpr double RATE_PER_S = 0.3;             // normalised value per wall second
  static constexpr double REDUCED_RATE_PER_S = 0.1;     // under reduced motion
  static constexpr double REDUCED_TRAFFIC_SPEED = 0.3;  // particle speed under reduced motion

  /// The largest change of a normalised value this frame (+inf for a still).
  double maxStep() const {
    return wall_s > 0 ? wall_s * (reducedMotion ? REDUCED_RATE_PER_S : RATE_PER_S) : 1e300;
  }
};

/// `shown` moved towards `target` by at most `maxStep`.
inline double slewTowards(double shown, double target, double maxStep) {
  return shown + std::clamp(target - shown, -maxStep, maxStep);
}

}  // namespace world
