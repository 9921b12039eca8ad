// Camera motion over time: fly-to a viewpoint (quick, eased at both ends, distance changed
// geometrically so a jump of six orders of magnitude feels as even as a jump of one), and
// Catmull-Rom splines through key poses for tours.
#pragma once

#include <optional>
#include <vector>

#include "world/scene/camera.h"

namespace world {

/// Smoothstep-style easing on [0,1]: 0 and 1 at the ends, zero slope at both.
double easeInOut(double t);

/// A view as "look at `target` from `distance_m` along yaw/pitch": what fly-to interpolates.
struct OrbitPose {
  glm::dvec3 target{0.0};
  double distance_m = 1.0;
  double yaw_rad = 0.0;
  double pitch_rad = 0.0;
};
/// The camera pose of an orbit pose.
Pose toPose(const OrbitPose& orbit);
/// The same view moved sideways so that its target appears at `ndcX` across the frame (-1 the
/// left edge, 1 the right) instead of the centre, in a frame of `aspect` (width / height) and
/// vertical field of view `verticalFov_rad`: the camera and target slide together along the
/// camera's right, so nothing turns and the distance stays.
OrbitPose shiftedInFrame(const OrbitPose& orbit, double ndcX, double aspect,
                         double verticalFov_rad);
/// An orbit pose equal to `pose`, looking at a point `distance_m` ahead.
OrbitPose toOrbitPose(const Pose& pose, double distance_m);

/// A room a flight keeps to (world metres): the halls, whose walls would fill the screen from
/// outside.
struct FlightRoom {
  glm::dvec3 min{0.0}, max{0.0};
  bool contains(const glm::dvec3& p) const {
    return p.x >= min.x && p.y >= min.y && p.z >= min.z && p.x <= max.x && p.y <= max.y &&
           p.z <= max.z;
  }
};

struct FlyToDesc {
  double maxDuration_s = 1.6;  // well under 2 s, however far
  double minDuration_s = 0.5;
  double secondsPerDecade = 0.2;  // extra time per factor of 10 in distance
  // A flight that starts and ends inside one of these rooms stays inside it: where the orbit
  // would carry the camera through a wall, it comes closer to what it looks at instead.
  std::vector<FlightRoom> rooms;
};

class FlyTo {
 public:
  /// Starts a flight from `from` to `to`; its duration grows with the scale change (or the
  /// travel measured in the larger orbit distance), capped.
  FlyTo(const OrbitPose& from, const OrbitPose& to, FlyToDesc desc = {});
  double duration_s() const { return m_duration_s; }
  /// The pose `elapsed_s` seconds into the flight (clamped to the end), inside the flight's room.
  Pose sample(double elapsed_s) const;
  /// The same as an orbit pose (what a new flight starting mid-way continues from).
  OrbitPose sampleOrbit(double elapsed_s) const;
  bool finished(double elapsed_s) const { return elapsed_s >= m_duration_s; }

 private:
  OrbitPose m_from, m_to;
  double m_duration_s = 1.0;
  std::optional<FlightRoom> m_room;  // the room both ends lie in, if any
};

/// A key of a camera spline: a pose at a time.
struct SplineKey {
  double time_s = 0;
  Pose pose;
};

/// Catmull-Rom through the keys' positions and angles (times strictly increasing); the ends
/// are clamped, so the path passes through every key.
class CameraSpline {
 public:
  /// False (and nothing kept) when there are fewer than 2 keys or times do not increase.
  bool setKeys(std::vector<SplineKey> keys);
  const std::vector<SplineKey>& keys() const { return m_keys; }
  double duration_s() const { return m_keys.empty() ? 0.0 : m_keys.back().time_s; }
  /// The pose at `time_s` (clamped to the keys' range).
  Pose sample(double time_s) const;

 private:
  std::vector<SplineKey> m_keys;
};

}  // namespace world
