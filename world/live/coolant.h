// Coolant made visible: short dashes moving along the hero rack's coolant loop and its CDU's
// facility-water loop, in the direction the water flows, coloured by its temperature there.
//
// Secondary loop (the CDU's): CDU supply riser -> row supply pipe -> the hero rack's supply
// manifold -> the hero tray's supply quick-disconnect -> across its cold plates (where the water
// picks up the heat) -> return quick-disconnect -> return manifold -> row return pipe -> CDU.
// Facility loop: the CDU's heat exchanger -> up and along the hall to the plant's return header
// -> over a dry cooler's coil (where the heat leaves) -> supply header -> back to the CDU.
//
// Temperatures follow the engine's lumped cooling model (sim/engine/thermal.h): the CDU's heat
// exchanger returns the loop at the catalog supply temperature; the mixed return to the CDU is
// the engine's loop temperature; a rack's outlet rise is the loop's rise scaled by the rack's
// share of its CDU's heat (at equilibrium, exactly rack heat / (rack flow x c_p)). The facility
// side is an ideal balanced counterflow exchanger (zero approach, facility flow = the CDU's design
// flow): facility water arrives at the supply temperature and leaves warmer by the heat the CDU
// carries now / (design flow x c_p). Dash speed is proportional to the CDU's pump flow share.
// Pure logic: the app feeds the engine, the world adds the dashes to the render list.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/engine/snapshot.h"
#include "world/live/layer.h"
#include "world/live/overlays.h"
#include "world/scene/render_list.h"
#include "world/scene/scene.h"

namespace world {

enum class CoolantLoop : uint8_t { Secondary, Facility };

/// The temperatures a loop point can take (what the engine gives for the hero rack's CDU).
enum class CoolantTemp : uint8_t {
  Supply,          // CDU heat-exchanger outlet = facility water inlet (zero approach)
  RackOutlet,      // the hero rack's return manifold
  LoopReturn,      // mixed return to the CDU: the engine's loop temperature
  FacilityReturn,  // facility water leaving the CDU towards the plant
};
inline constexpr size_t COOLANT_TEMP_COUNT = 4;
/// A dash on a pipe is a band this much wider than the pipe, so that it shows round it.
inline constexpr double COOLANT_BAND_OVER_PIPE = 1.25;

/// What the engine says about the hero rack's (RackId 0) coolant now.
struct CoolantState {
  uint32_t cdu = 0;         // CduId index of the hero rack
  double flowFraction = 1;  // the CDU's pump flow, share of design
  double rackHeat_W = 0;    // the hero rack's power, all of it heat in the water
  std::array<double, COOLANT_TEMP_COUNT> temperature_C{};  // by CoolantTemp
  double at_C(CoolantTemp t) const { return temperature_C[size_t(t)]; }
};

/// Reads the hero rack's coolant state from `engine` (see the file comment for the model).
CoolantState coolantStateOf(const sim::engine::Snapshot& snapshot);

/// The colour scale, in °C: from one design rise below the catalog supply temperature (so that
/// supply water is not the palette's darkest, unreadable on dark pipes) to the loop's equilibrium
/// with its racks at full power after a pump trip (supply + design rise / pump-trip flow share).
LegendRange coolantRange(const sim::engine::Snapshot& snapshot);
/// The dash colour of `temperature_C` on `range` (viridis, glowing so the colour reads true).
Look coolantLook(double temperature_C, const LegendRange& range);

/// A point of a loop: where, and its temperature as a mix of two of the state's temperatures.
struct CoolantPoint {
  glm::dvec3 position_m{0.0};
  CoolantTemp from = CoolantTemp::Supply;
  CoolantTemp to = CoolantTemp::Supply;
  double mix = 0;     // 0: `from`, 1: `to`
  double pipe_m = 0;  // diameter of the pipe from here to the next point (0: none, in the open)
  double temperature_C(const CoolantState& s) const;
};

/// A closed loop in world metres, points in the direction of flow, walked by arc length.
struct CoolantPath {
  CoolantLoop loop = CoolantLoop::Secondary;
  std::vector<CoolantPoint> points;  // the last joins the first
  std::vector<double> along_m;       // arc length at each point, and the closing length last

  double length_m() const { return along_m.empty() ? 0.0 : along_m.back(); }
  /// The point `s_m` metres downstream of the first (wraps round the loop).
  glm::dvec3 at(double s_m) const;
  /// Unit direction of flow at `s_m`.
  glm::dvec3 direction(double s_m) const;
  /// Diameter of the pipe at `s_m` (0 in the open).
  double pipe_m(double s_m) const;
  /// Temperature at `s_m`: linear between the neighbouring points.
  double temperature_C(double s_m, const CoolantState& state) const;
};

/// How one loop's dashes look. Water is incompressible: the dash spacing stays, the speed follows
/// the flow.
struct CoolantStyle {
  double dashesPerMetre = 0;
  double speedAtDesignFlow_mps = 0;
  double size_m = 0;  // dash cross-section in the open; on a pipe, a band round it
  double dash_m = 0;  // dash length along the flow
};

struct CoolantDesc {
  // A few metres of rack and row pipe, seen from a metre or two away.
  CoolantStyle secondary{8.0, 0.5, 0.02, 0.06};
  // Hundreds of metres from the hall to the yard, seen from the plant station.
  CoolantStyle facility{0.5, 6.0, 0.1, 0.8};
  const CoolantStyle& style(CoolantLoop loop) const {
    return loop == CoolantLoop::Secondary ? secondary : facility;
  }
};

class Coolant {
 public:
  /// The hero rack's secondary loop (hall0/row0/rack0, its hero tray and the row's CDU) and that
  /// CDU's facility loop through cooling0's headers and dry_cooler0. None when the scene lacks
  /// them.
  static Coolant build(const Scene& scene, CoolantDesc desc = {});

  /// Reads the state from `engine` and moves the dashes by the simulated time since the last
  /// update (at most 0.1 s, so scrubbing does not smear; none on the first or after a restart).
  void update(const sim::engine::Snapshot& snapshot);

  /// Appends one box instance per dash, positioned relative to `eye`.
  void emit(const glm::dvec3& eye, std::vector<gpu::Instance>& out) const;

  const std::vector<CoolantPath>& paths() const { return m_paths; }
  const CoolantState& state() const { return m_state; }
  const LegendRange& range() const { return m_range; }
  /// Dash speed of `loop` now (m/s): the secondary's follows the CDU's pump.
  double speed_mps(CoolantLoop loop) const;
  /// How far the dash train of path `i` has moved (m, 0..length).
  double phase_m(size_t i) const { return m_phase_m[i]; }
  /// Dashes on path `i`, and emit()'s total.
  uint32_t dashes(size_t i) const;
  uint32_t dashes() const;

 private:
  CoolantDesc m_desc;
  std::vector<CoolantPath> m_paths;
  std::vector<double> m_phase_m;
  CoolantState m_state;
  LegendRange m_range;
  double m_lastTime_s = -1;
};

/// "CDU  supply 25 °C  return 39 °C  flow 100 % (derived)": the label of the hero row's CDU when
/// the coolant is shown (supply and mixed return temperature, pump flow share).
std::string coolantLabel(const CoolantState& state);

/// The coolant as a layer, its CDU's temperatures and flow over the hero row's CDU.
class CoolantLayer : public LiveLayer {
 public:
  static std::unique_ptr<LiveLayer> make(const LayerSources& sources);
  void sync(const LayerSync& sync) override { m_coolant.update(sync.snapshot); }
  void emit(const LayerFrame& frame, std::vector<gpu::Instance>& out) override {
    m_coolant.emit(frame.view.eye, out);
  }
  void labels(const LayerFrame& frame, std::vector<Label>& out) const override;
  Coolant& coolant() { return m_coolant; }
  const Coolant& coolant() const { return m_coolant; }

 private:
  Coolant m_coolant;
  Aabb m_cdu;  // the hero row's CDU (world), where its label sits
};

}  // namespace world
