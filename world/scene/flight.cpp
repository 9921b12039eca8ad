#include "world/scene/flight.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/constants.hpp>

namespace world {
namespace {

// The shortest signed angle from a to b.
double angleDelta(double a, double b) {
  double d = std::fmod(b - a, glm::two_pi<double>());
  if (d > glm::pi<double>()) d -= glm::two_pi<double>();
  if (d < -glm::pi<double>()) d += glm::two_pi<double>();
  return d;
}

double catmullRom(double p0, double p1, double p2, double p3, double t) {
  const double t2 = t * t, t3 = t2 * t;
  return 0.5 * ((2 * p1) + (-p0 + p2) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t2 +
                (-p0 + 3 * p1 - 3 * p2 + p3) * t3);
}

}  // namespace

double easeInOut(double t) {
  t = std::clamp(t, 0.0, 1.0);
  return t * t * t * (t * (6 * t - 15) + 10);  // quintic: zero velocity and acceleration at ends
}

Pose toPose(const OrbitPose& orbit) {
  const double cp = std::cos(orbit.pitch_rad);
  const glm::dvec3 forward(-std::sin(orbit.yaw_rad) * cp, std::sin(orbit.pitch_rad),
                           -std::cos(orbit.yaw_rad) * cp);
  Pose pose;
  pose.position = orbit.target - forward * orbit.distance_m;
  pose.yaw_rad = orbit.yaw_rad;
  pose.pitch_rad = orbit.pitch_rad;
  return pose;
}

OrbitPose shiftedInFrame(const OrbitPose& orbit, double ndcX, double aspect,
                         double verticalFov_rad) {
  // A point at the target's depth and ndcX across the frame lies this far to the camera's right.
  const double halfWidth_m = orbit.distance_m * std::tan(0.5 * verticalFov_rad) * aspect;
  const glm::dvec3 right(std::cos(orbit.yaw_rad), 0.0, -std::sin(orbit.yaw_rad));
  OrbitPose shifted = orbit;
  shifted.target = orbit.target - right * (ndcX * halfWidth_m);
  return shifted;
}

OrbitPose toOrbitPose(const Pose& pose, double distance_m) {
  const double cp = std::cos(pose.pitch_rad);
  const glm::dvec3 forward(-std::sin(pose.yaw_rad) * cp, std::sin(pose.pitch_rad),
                           -std::cos(pose.yaw_rad) * cp);
  return OrbitPose{pose.position + forward * distance_m, distance_m, pose.yaw_rad, pose.pitch_rad};
}

FlyTo::FlyTo(const OrbitPose& from, const OrbitPose& to, FlyToDesc desc) : m_from(from), m_to(to) {
  const double d0 = std::max(from.distance_m, 1e-9), d1 = std::max(to.distance_m, 1e-9);
  // Decades of scale change, or of travel measured in the larger distance (sliding 15 m at 5 cm
  // from things is as far, in what the eye sees, as zooming out by 300x).
  const double travel_m = glm::length(to.target - from.target);
  const double decades =
      std::max(std::abs(std::log10(d1 / d0)), std::log10(1.0 + travel_m / std::max(d0, d1)));
  m_duration_s = std::clamp(desc.minDuration_s + desc.secondsPerDecade * decades,
                            desc.minDuration_s, desc.maxDuration_s);
  m_from.distance_m = d0;
  m_to.distance_m = d1;
  const glm::dvec3 a = toPose(m_from).position, b = toPose(m_to).position;
  for (const FlightRoom& room : desc.rooms) {
    if (room.contains(a) && room.contains(b) && room.contains(from.target) &&
        room.contains(to.target)) {
      m_room = room;
      break;
    }
  }
}

OrbitPose FlyTo::sampleOrbit(double elapsed_s) const {
  const double e = easeInOut(elapsed_s / m_duration_s);
  OrbitPose o;
  o.target = m_from.target + (m_to.target - m_from.target) * e;
  o.distance_m = std::exp(std::log(m_from.distance_m) * (1 - e) + std::log(m_to.distance_m) * e);
  o.yaw_rad = m_from.yaw_rad + angleDelta(m_from.yaw_rad, m_to.yaw_rad) * e;
  o.pitch_rad = m_from.pitch_rad + (m_to.pitch_rad - m_from.pitch_rad) * e;
  if (m_room) {
    // The target lies inside the room (between two targets inside it, the room being a box):
    // the camera comes no farther out along its view than where that ray leaves the room.
    const glm::dvec3 out = toPose(o).position - o.target;
    const double length = glm::length(out);
    if (length > 0) {
      const glm::dvec3 d = out / length;
      double exit = o.distance_m;
      for (int k = 0; k < 3; ++k) {
        if (d[k] > 0) exit = std::min(exit, (m_room->max[k] - o.target[k]) / d[k]);
        if (d[k] < 0) exit = std::min(exit, (m_room->min[k] - o.target[k]) / d[k]);
      }
      o.distance_m = std::max(1e-9, exit);
    }
  }
  return o;
}

Pose FlyTo::sample(double elapsed_s) const {
  return toPose(sampleOrbit(elapsed_s));
}

bool CameraSpline::setKeys(std::vector<SplineKey> keys) {
  if (keys.size() < 2) return false;
  for (size_t i = 1; i < keys.size(); ++i) {
    if (!(keys[i].time_s > keys[i - 1].time_s)) return false;
  }
  // Unwrap yaw so consecutive keys turn the short way.
  for (size_t i = 1; i < keys.size(); ++i) {
    keys[i].pose.yaw_rad =
        keys[i - 1].pose.yaw_rad + angleDelta(keys[i - 1].pose.yaw_rad, keys[i].pose.yaw_rad);
  }
  m_keys = std::move(keys);
  return true;
}

Pose CameraSpline::sample(double time_s) const {
  if (m_keys.empty()) return {};
  if (time_s <= m_keys.front().time_s) return m_keys.front().pose;
  if (time_s >= m_keys.back().time_s) return m_keys.back().pose;
  size_t i = 0;
  while (i + 1 < m_keys.size() && m_keys[i + 1].time_s <= time_s) ++i;
  const Pose& p1 = m_keys[i].pose;
  const Pose& p2 = m_keys[i + 1].pose;
  const Pose& p0 = i > 0 ? m_keys[i - 1].pose : p1;
  const Pose& p3 = i + 2 < m_keys.size() ? m_keys[i + 2].pose : p2;
  const double t = (time_s - m_keys[i].time_s) / (m_keys[i + 1].time_s - m_keys[i].time_s);
  Pose out;
  for (int k = 0; k < 3; ++k) {
    out.position[k] = catmullRom(p0.position[k], p1.position[k], p2.position[k], p3.position[k], t);
  }
  out.yaw_rad = catmullRom(p0.yaw_rad, p1.yaw_rad, p2.yaw_rad, p3.yaw_rad, t);
  out.pitch_rad = catmullRom(p0.pitch_rad, p1.pitch_rad, p2.pitch_rad, p3.pitch_rad, t);
  return out;
}

}  // namespace world
