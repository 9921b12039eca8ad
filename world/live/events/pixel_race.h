// Chapters 1 and 2's tour event: two screens racing one piece of work behind the hero.
// Pure geometry over the scene and its live layer (world/live/layer.h); time is the frame's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "world/live/events/event_geometry.h"
#include "world/live/layer.h"
#include "world/live/layer_inputs.h"

namespace world {

/// Chapter 1's 4K pixel race and chapter 2's CUDA cores against a tensor core, in the picture:
/// two screens stand behind the station's hero, each lighting its share of one piece of work at
/// its side's real relative rate (the chapter panel's figures). A side's work is split among its
/// lanes, every lane painting its band at once; the bands are drawn in proportion to the lanes
/// (the side with more MAX_BANDS, the other as many fewer), and a side that works in tiles (a
/// tensor core's matrix tile per instruction) lights in `stamps` equal steps, not smoothly. The
/// race stops when the faster side is done: the slower side shows how far it got meanwhile.
class PixelRace {
 public:
  // The race runs until the faster side has done its work (CYCLE_S), holds that photo finish
  // (HOLD_S: the slower side as far as it got, its share the rates' ratio), and starts again.
  static constexpr double CYCLE_S = 4.0;
  static constexpr double HOLD_S = 3.0;
  static constexpr double KEY_S = CYCLE_S + 0.5 * HOLD_S;  // a key frame's moment: the finish
  static constexpr uint32_t MAX_BANDS = 96;
  static constexpr uint32_t FEW_LANES = 16;     // a side with this few shows each lane as a band
  static constexpr double SCREEN_SHARE = 0.34;  // each screen's width, of the hero's width
  static constexpr double GAP_SHARE = 0.06;     // between the screens, of the hero's width

  struct Shares {
    double left = 0, right = 0;  // of its work each side has lit, 0..1
  };
  /// `time_s` display seconds into the race (it repeats every CYCLE_S + HOLD_S).
  static Shares shares(const PixelRaceDesc& race, double time_s);
  /// Bands drawn for each side: its lanes when FEW_LANES or fewer; else the side with more lanes
  /// MAX_BANDS and the other in proportion (>= 1).
  static std::pair<uint32_t, uint32_t> bands(const PixelRaceDesc& race);

  struct Screens {
    Aabb left, right;  // world: each screen's face (16:9), standing on the hero's far edge
    glm::dvec3 across{1, 0, 0};
  };
  static Screens layout(const Aabb& hero, const glm::dvec3& right, const glm::dvec3& forward);
  /// The screens, and on each its lanes' bands lit from the left as far as its share.
  static void emit(const Screens& screens, const PixelRaceDesc& race, double time_s,
                   const glm::dvec3& eye, std::vector<gpu::Instance>& out);
};

/// The pixel race as a layer: the panel's race (LayerInputs::pixelRace) behind the studio's hero
/// on the events' clock, each screen labelled with its side.
class PixelRaceLayer : public PlacedLabelsLayer {
 public:
  static std::unique_ptr<LiveLayer> make(const LayerSources& sources);
  void emit(const LayerFrame& frame, std::vector<gpu::Instance>& out) override;
};

}  // namespace world
