// A double-precision camera and its input-agnostic controls (app/ maps keys and mouse onto
// these): free fly with speed that follows the distance to the nearest surface but never falls
// below a share of the scale the camera is in, collision that stops short of what it flies into
// and never keeps it from moving away, orbit, dolly, and the ray through a pixel for picking.
#pragma once

#include <functional>

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
      1.5;  // free-fly speed (m/s) per metre to the nearest surface
  // The speed floor: this share of the scale the camera is in per second (a rack of 2.2 m:
  // 4.4 cm/s; an SM of 1.5 mm: 3 µm/s), so touching a surface never leaves it stuck.
  double minFlySpeedPerScale = 0.02;
  // Collision: the camera stops this share of the scale short of what it flies into.
  double stopClearancePerScale = 0.002;
  double maxPitch_rad = 1.55;  // just short of straight up/down
};

/// The distance from a point to the nearest surface (world::World::nearestSurface).
using ClearanceAt = std::function<double(const glm::dvec3&)>;

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
  /// Free-fly speed at `clearance_m` from the nearest surface, in a place of size `scale_m`.
  double flySpeed(double clearance_m, double scale_m) const;
  /// Free-fly move: `axes` = (right, up, forward) in -1..1 for `dt_s` seconds at flySpeed; with
  /// `clearanceAt`, it stops short of a surface (moveClear).
  void fly(const glm::dvec3& axes, double dt_s, double clearance_m, double scale_m,
           const ClearanceAt& clearanceAt = {});
  /// Moves forward by `steps` wheel notches; each notch closes `fraction` of the clearance
  /// (negative steps back away by the inverse factor), at least the speed floor's tenth of a
  /// second, so the wheel keeps working at a surface; with `clearanceAt`, it stops short.
  void dolly(double steps, double clearance_m, double scale_m, const ClearanceAt& clearanceAt = {},
             double fraction = 0.2);
  /// Moves by `delta_m`; with `clearanceAt`, a move that would come nearer than the stop
  /// clearance to a surface goes as far as it can (a move that does not come nearer, such as
  /// away from the surface, always goes).
  void moveClear(const glm::dvec3& delta_m, double scale_m, const ClearanceAt& clearanceAt);
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
