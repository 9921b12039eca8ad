// A double-precision camera and its input-agnostic controls (app/ maps keys and mouse onto
// these): free fly with speed that follows the distance to the nearest surface, orbit, dolly,
// and the ray through a pixel for picking.
#pragma once

#include <glm/glm.hpp>

#include "world/scene/render_list.h"

namespace world {

/// Where the camera is and where it looks: yaw about +Y (0 looks down -Z), pitch up positive.
struct Pose {
  glm::dvec3 position{0.0};
  double yaw_rad = 0.0;
  double pitch_rad = 0.0;
};

/// The vertical field of view of every view: 35 degrees, a product shot's (a wide angle
/// distorts the hero and shows the room; the stations frame their hero for it).
inline constexpr double VIEW_FOV_RAD = 0.6108652381980153;

struct CameraDesc {
  double verticalFov_rad = VIEW_FOV_RAD;
  double flySpeedPerMeterOfClearance =
      1.5;                        // free-fly speed (m/s) per metre to the nearest surface
  double minFlySpeed_mps = 1e-5;  // 10 um/s: never stuck against a surface
  double maxPitch_rad = 1.55;     // just short of straight up/down
};

class Camera {
 public:
  explicit Camera(CameraDesc desc = {}) : m_desc(desc) {}

  const Pose& pose() const { return m_pose; }
  void setPose(const Pose& pose);
  const glm::dvec3& position() const { return m_pose.position; }
  double verticalFov_rad() const { return m_desc.verticalFov_rad; }
  const CameraDesc& desc() const { return m_desc; }

  /// Unit vectors of the view: forward (looking), right, up.
  glm::dvec3 forward() const;
  glm::dvec3 right() const;
  glm::dvec3 up() const;

  /// Turns the camera to look at `target` from where it is.
  void lookAt(const glm::dvec3& target);
  /// Free-fly look: adds to yaw and pitch (radians), pitch clamped.
  void look(double deltaYaw_rad, double deltaPitch_rad);
  /// Free-fly move: `axes` = (right, up, forward) in -1..1 for `dt_s` seconds; the speed scales
  /// with `clearance_m`, the distance to the nearest surface.
  void fly(const glm::dvec3& axes, double dt_s, double clearance_m);
  /// Moves forward by `steps` wheel notches; each notch closes `fraction` of the clearance
  /// (negative steps back away by the inverse factor).
  void dolly(double steps, double clearance_m, double fraction = 0.2);
  /// Orbits around `pivot` by yaw/pitch deltas, keeping the distance and looking at it.
  void orbit(const glm::dvec3& pivot, double deltaYaw_rad, double deltaPitch_rad);
  /// Unit world-space ray direction through pixel (x, y) of a width x height viewport
  /// (origin top-left).
  glm::dvec3 rayThroughPixel(double x_px, double y_px, double width_px, double height_px) const;
  /// The render list's view: rotation-only view matrix (column-major) and the field of view.
  void fillView(ViewParams& view) const;

 private:
  CameraDesc m_desc;
  Pose m_pose;
};

/// Yaw and pitch that look along `direction` (need not be unit length).
Pose poseLookingAlong(const glm::dvec3& position, const glm::dvec3& direction);

}  // namespace world
