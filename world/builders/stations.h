// Named stations: places in the one world worth flying to, each with a description, its scale
// and a viewpoint. The scale ladder (sm, die, hbm ... campus) is the architecture's order, used
// by zoom in/out one scale.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "world/builders/system_layout.h"
#include "world/scene/flight.h"
#include "world/scene/scene.h"

namespace world {

/// A word on a part of a station's hero, in the picture (engineer labels): "base die".
struct Callout {
  std::string text;
  glm::dvec3 anchor{0.0};  // where its leader points, world metres
};

struct Station {
  std::string name;         // "sm", "die", ... (CLI and tours use it)
  std::string title;        // shown as the label
  std::string description;  // one line
  std::string path;         // instance path in the scene ("" = campus root)
  bool onLadder = true;     // part of the zoom in/out ladder (the gallery is not)
  Aabb bounds;              // world bounds of the instance
  double scale_m = 0;       // largest extent of the bounds
  OrbitPose viewpoint;      // where the camera goes
  // What the viewpoint frames: the bounds, with the twin it is seen with and the stand-in
  // drawings its studio shows on it (the package's lifted cold plate).
  Aabb framedBounds;
  double framing = 1;  // the spec's distance multiplier on the fitted distance
  // The studio round the station's hero: the instance drawn in full (the rest of the way down
  // to it draws none of its own parts), its world bounds (the studio floor lies under them) and
  // which of the hero's neighbours stay: its siblings this names (StudioFilter::neighbours:
  // "row*" the hall's other rows, "rack0 rack1" a cabinet's systems, "" none: a chip off its
  // board).
  std::string studioPath;
  Aabb studioBounds;
  std::string neighbours;
  std::string standIns;  // the stand-in drawings its studio shows (StudioFilter::standIns)
  std::vector<Callout> callouts;
  // The studio hero's mean albedo (linear luminance, its parts' surface areas as weights,
  // emitters left out; heroAlbedo()): what the one exposure rule lights to a mid-tone.
  float heroAlbedo = 0.0f;
};

/// Prototype `id`'s mean albedo: the linear luminance of its parts' and its descendants' base
/// colours, weighted by their boxes' surface areas; emissive parts (light, not a finish) and
/// stand-in drawings are left out. 0 for a prototype with nothing lit.
float heroAlbedo(const Scene& scene, PrototypeId id);

/// A callout on the hero's parts whose names start with `parts` (its children's parts too):
/// the leader points at `at` (0..1 along the hero's own x, y, z) of their box; `counted`: the
/// text follows the number of distinct names among them ("8 × DRAM").
struct CalloutSpec {
  const char* text;
  const char* parts;
  glm::dvec3 at;
  bool counted = false;
};

/// What a station is called and how it is framed.
struct StationSpec {
  const char* name;
  const char* title;
  const char* description;
  const char* path;
  bool onLadder;
  glm::dvec3 viewFrom;  // direction from the target towards the camera, in the instance's frame
  double framing;       // distance multiplier on the fitted distance
  const char* studio = nullptr;     // the studio's hero (nullptr: `path`)
  const char* neighbours = "";      // the hero's siblings that stay in the studio (names, "x*")
  const char* alsoFrame = nullptr;  // another instance the view frames with it (its twin)
  const char* standIns = "";        // the stand-in drawings its studio shows ("cutaway_hbm0")
  std::vector<CalloutSpec> callouts = {};
  // Of the campus root's children (`path` ""), those the view frames (names, "x*"): one hall and
  // what stands round it; nullptr: all. Its scale is still the whole campus's.
  const char* frames = nullptr;
  // What the view frames beside the hero as its context without being part of it (the GPU die
  // the hbm stack feeds): an instance path, and how far past the hero's bounds into it the frame
  // reaches along each axis, in the hero's own extents along that axis.
  const char* context = nullptr;
  double contextReach = 0;
};

/// The station `spec` for an instance with world `bounds` and world `transform`: the camera
/// fits the bounds' sphere into the vertical field of view (times spec.framing).
/// The station's view with its framed bounds refit into a part of the 16:9 frame: `widthShare`
/// of its width (0..1], centred at `centreNdcX` (the tour's picture beside its panel: the left
/// 60 %), from the same direction, at the spec's framing.
OrbitPose viewpointInPart(const Station& station, double widthShare, double centreNdcX,
                          double verticalFov_rad);

Station makeStation(const StationSpec& spec, const Aabb& bounds, const glm::dmat4& transform,
                    double verticalFov_rad);

/// Builds the stations of a built scene (campus root with the standard child names); stations
/// whose path does not resolve are left out.
/// `system` says where its hero rack, tray and GPU are (an NVL72 rack, or an HGX chassis).
std::vector<Station> makeStations(const Scene& scene, double verticalFov_rad,
                                  const SystemLayout& system = {});

/// The station whose studio the camera at `eye` is in, looking at `focus` (the point its view
/// ray meets): of the stations whose studio holds the focus and that are no more than
/// MAX_STUDIO_SCALE_PER_FOCUS times the distance to it in size, the one whose framing distance
/// is nearest (in ratio, within STUDIO_DISTANCE_RATIO) to the eye's distance from it; nullptr
/// when none is.
const Station* studioStation(const std::vector<Station>& stations, const glm::dvec3& eye,
                             const glm::dvec3& focus);
/// An eye this many times farther from a station's subject than its framing distance (or this
/// many times nearer) no longer views that station.
inline constexpr double STUDIO_DISTANCE_RATIO = 3.0;
/// Whether an eye that left `station`'s view by flying is still in its studio: no farther from
/// what the station frames than STUDIO_DISTANCE_RATIO times its framing distance.
bool inStudioReach(const Station& station, const glm::dvec3& eye);
/// A studio far larger than the distance the eye looks at is not the one it is in: inside a hall,
/// looking at a row 10 m away, the 600 m campus (whose studio holds every hall) is not a studio.
inline constexpr double MAX_STUDIO_SCALE_PER_FOCUS = 8.0;

/// The ladder station one step out (direction +1) or in (-1) from `current`; nullopt
/// at the ends or when `current` is not on the ladder.
std::optional<size_t> neighbourOnLadder(const std::vector<Station>& stations,
                                        const std::string& current, int direction);
/// The ladder station the camera at `pose` is at: the one whose viewpoint it is nearest to, in
/// the log of its distance to the station's centre against the viewpoint's distance plus the
/// angle between its view and the station's centre (exactly the station at its own viewpoint;
/// the right one after any flight of the ladder; a fair guess in free flight).
std::optional<size_t> ladderRungAt(const std::vector<Station>& stations, const Pose& pose);

}  // namespace world
