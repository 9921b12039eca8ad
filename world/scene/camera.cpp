#include "world/scene/camera.h"

#include <algorithm>
#include <cmath>

namespace world {

Pose poseLookingAlong(const glm::dvec3& position, const glm::dvec3& direction) {
  const glm::dvec3 d = glm::normalize(direction);
  Pose pose;
  pose.position = position;
  pose.yaw_rad = std::atan2(-d.x, -d.z);
  pose.pitch_rad = std::asin(std::clamp(d.y, -1.0, 1.0));
  return pose;
}

void Camera::setPose(const Pose& pose) {
  m_pose = pose;
  m_pose.pitch_rad = std::clamp(pose.pitch_rad, -m_desc.maxPitch_rad, m_desc.maxPitch_rad);
}

glm::dvec3 Camera::forward() const {
  const double cp = std::cos(m_pose.pitch_rad);
  return {-std::sin(m_pose.yaw_rad) * cp, std::sin(m_pose.pitch_rad),
          -std::cos(m_pose.yaw_rad) * cp};
}

glm::dvec3 Camera::right() const {
  return {std::cos(m_pose.yaw_rad), 0.0, -std::sin(m_pose.yaw_rad)};
}

glm::dvec3 Camera::up() const {
  return glm::cross(right(), forward());
}

void Camera::lookAt(const glm::dvec3& target) {
  if (glm::length(target - m_pose.position) == 0.0) return;
  setPose(poseLookingAlong(m_pose.position, target - m_pose.position));
}

void Camera::look(double deltaYaw_rad, double deltaPitch_rad) {
  Pose p = m_pose;
  p.yaw_rad += deltaYaw_rad;
  p.pitch_rad += deltaPitch_rad;
  setPose(p);
}

double Camera::flySpeed(double clearance_m, double scale_m) const {
  const double floor = m_desc.minFlySpeedPerScale * std::max(0.0, scale_m);
  return std::max(floor, m_desc.flySpeedPerMeterOfClearance * std::max(0.0, clearance_m));
}

void Camera::moveClear(const glm::dvec3& delta_m, double scale_m, const ClearanceAt& clearanceAt) {
  const glm::dvec3 from = m_pose.position;
  if (!clearanceAt || glm::length(delta_m) == 0.0) {
    m_pose.position = from + delta_m;
    return;
  }
  const double stop = m_desc.stopClearancePerScale * std::max(0.0, scale_m);
  const double now = clearanceAt(from);
  auto allowed = [&](double f) {
    const double c = clearanceAt(from + delta_m * f);
    return c >= stop || c >= now;  // clear of everything, or no nearer than it already is
  };
  if (allowed(1.0)) {
    m_pose.position = from + delta_m;
    return;
  }
  // As far as it can go: the largest share of the move that stays clear (bisection).
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 20; ++i) {
    const double mid = 0.5 * (lo + hi);
    (allowed(mid) ? lo : hi) = mid;
  }
  m_pose.position = from + delta_m * lo;
}

void Camera::fly(const glm::dvec3& axes, double dt_s, double clearance_m, double scale_m,
                 const ClearanceAt& clearanceAt) {
  const double speed = flySpeed(clearance_m, scale_m);
  moveClear((right() * axes.x + glm::dvec3(0, 1, 0) * axes.y + forward() * axes.z) * (speed * dt_s),
            scale_m, clearanceAt);
}

void Camera::dolly(double steps, double clearance_m, double scale_m, const ClearanceAt& clearanceAt,
                   double fraction) {
  // Each notch forward covers `fraction` of the clearance; backward undoes one such notch.
  const double factor = std::pow(1.0 - fraction, -steps);  // clearance multiplier
  double move = clearance_m * (1.0 - 1.0 / factor);
  const double floor = 0.1 * m_desc.minFlySpeedPerScale * std::max(0.0, scale_m) * std::abs(steps);
  if (std::abs(move) < floor) move = steps >= 0 ? floor : -floor;
  moveClear(forward() * move, scale_m, clearanceAt);
}

void Camera::orbit(const glm::dvec3& pivot, double deltaYaw_rad, double deltaPitch_rad) {
  const double distance = glm::length(m_pose.position - pivot);
  Pose p = m_pose;
  p.yaw_rad += deltaYaw_rad;
  p.pitch_rad = std::clamp(p.pitch_rad + deltaPitch_rad, -m_desc.maxPitch_rad, m_desc.maxPitch_rad);
  setPose(p);
  m_pose.position = pivot - forward() * distance;
}

glm::dvec3 Camera::rayThroughPixel(double x_px, double y_px, double width_px,
                                   double height_px) const {
  const double tanHalf = std::tan(0.5 * m_desc.verticalFov_rad);
  const double ndcX = (2.0 * (x_px + 0.5) / width_px - 1.0) * tanHalf * (width_px / height_px);
  const double ndcY = (1.0 - 2.0 * (y_px + 0.5) / height_px) * tanHalf;
  return glm::normalize(forward() + right() * ndcX + up() * ndcY);
}

void Camera::fillView(ViewParams& view) const {
  const glm::dvec3 r = right(), u = up(), f = forward();
  // Rows of the rotation are right, up, -forward (the view looks down -Z); column-major store.
  const glm::dvec3 rows[3] = {r, u, -f};
  for (int col = 0; col < 4; ++col) {
    for (int row = 0; row < 4; ++row) {
      double v = 0.0;
      if (row < 3 && col < 3) v = rows[row][col];
      if (row == 3 && col == 3) v = 1.0;
      view.viewRotation[col * 4 + row] = static_cast<float>(v);
    }
  }
  view.verticalFovRadians = static_cast<float>(m_desc.verticalFov_rad);
}

}  // namespace world
