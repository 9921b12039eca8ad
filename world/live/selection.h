// What the selection panel shows for a picked thing: its live numbers from the engine (a GPU of
// the hero rack, or any rack of the campus) and its catalog figures with their sources and basis
// (the GPU model, the rack system). Pure logic over the world, the engine and the catalog.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/basis.h"
#include "sim/catalog.h"
#include "sim/engine/snapshot.h"
#include "world/scene/flight.h"
#include "world/world.h"

namespace world {

enum class SelectionKind : uint8_t { Part, Rack, Gpu, Switch };

struct SelectionMetric {
  std::string label;  // "power"
  double value = 0;
  std::string unit;  // "kW"
};

struct SelectionFigure {
  std::string key;  // catalog path, "gpus.gb200.hbm_bandwidth_Bps"
  double value = 0;
  std::string unit;
  std::string source;
  sim::Basis basis = sim::Basis::Estimate;
};

struct SelectionInfo {
  SelectionKind kind = SelectionKind::Part;
  std::string title;  // the part's name, then what it belongs to
  std::string path;
  uint32_t index = 0;                  // RackId, GpuId or SwitchId index (Rack, Gpu, Switch)
  bool mirrored = false;               // a rack beyond the modelled fabric: its average rack
  std::vector<SelectionMetric> live;   // engine values now; live[0] is the one worth plotting
  std::vector<SelectionFigure> specs;  // catalog figures of what it is
};

/// Describes `hit`: a hero-rack GPU (its package or anything inside it), a scale-out switch of
/// the modelled fabric (a row's leaf, a spine, a core: anything inside it), a rack (anything
/// inside one), or just a part.
SelectionInfo describeSelection(const PickHit& hit, const World& world,
                                const sim::engine::Snapshot& snapshot, const sim::Catalog& catalog);

/// What a click at pixel (x, y) selects, as people expect: the part the station is about (a
/// hero GPU through the cold plate, lid or tray over it, as in the rack and tray views), and
/// nothing at all for the backdrop (a part that fills the whole view, such as the board under
/// a die or the hall's floor): a click there clears the selection.
std::optional<PickHit> pickForSelection(const World& world, const Camera& camera, double x_px,
                                        double y_px, const FrameDesc& frame);

/// Where the camera is: the smallest thing that holds it ("rack 12", "hall 0", "campus") and
/// its size (largest extent), for a camera re-homed after a world rebuild.
struct Whereabouts {
  enum class Kind : uint8_t { Station, Rack, Hall, Campus };
  Kind kind = Kind::Campus;
  uint32_t index = 0;   // RackId (Rack) or hall number (Hall)
  std::string station;  // Station: its title ("Compute tray")
  double scale_m = 0;
};
Whereabouts locate(const World& world, const glm::dvec3& position);
/// Where the camera at `eye` looking along `forward` is, as "you are in" says it: the station
/// whose hero it looks at (World::stationInView; `studio`: the one a landed tour step names)
/// unless what holds the eye is smaller (inside rack 12, looking down its row: rack 12).
Whereabouts locate(const World& world, const glm::dvec3& eye, const glm::dvec3& forward,
                   const std::string& studio = {});

/// A view that frames the selected thing (the GPU package, the rack, else the part hit) from
/// outside it: the whole of it in the field of view, from the side the camera is on, moved to
/// another side (front, above, behind) when something stands in the way.
OrbitPose frameSelection(const World& world, const PickHit& hit, const Camera& camera);

}  // namespace world
