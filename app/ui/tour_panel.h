// The chapter's simulator panel for whatever mode shows the tour: follows the tour frame's
// panel id and sim scenario, keeps the visitor's knob values for that panel, and re-evaluates
// (sim::evaluateScenario through evaluatePanel, the same numbers `dcwalk sim` prints)
// only when one of those, or the language, changes. Its buttons become simulation commands.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/ui/panel_view.h"
#include "app/ui/panels.h"
#include "app/ui/sim_command.h"
#include "sim/catalog.h"
#include "sim/engine/request.h"
#include "sim/result.h"
#include "sim/scenario.h"
#include "world/live/compute_glow.h"
#include "world/live/hbm_fill.h"
#include "world/live/layer_inputs.h"
#include "world/tour/tour_player.h"

namespace app {

/// What a panel button acts on: the simulation that runs now.
struct RunningSim {
  const sim::engine::EngineRequest& request;
  double time_s = 0;
};

/// A roofline point as shares of the GPU: tensor cores busy = attainable / peak; HBM streaming =
/// the bytes the point's FLOPs need, attainable / intensity, over the bandwidth (1 when memory
/// bound). Both within 0..1.
world::ComputeShares rooflineShares(const RooflineView& roofline, const RooflineView::Point& point);

class TourPanel {
 public:
  /// Loads the shipped panels (assets/panels.json); errors name file:line.
  static sim::Result<TourPanel> load(const sim::Catalog& catalog);

  /// Shows `frame`'s panel for its scenario (a new panel starts from the scenario's values), in
  /// a frame of simulation `generation` (what the panel and its HBM fill carry).
  void follow(const world::TourFrame& frame, const std::string& language, uint64_t generation);
  /// The simulation generation of the last follow.
  uint64_t generation() const { return m_generation; }
  /// Draws the panel as `desc` says; moved knobs re-evaluate it, a pressed button asks `sim`'s
  /// host for its change in `commands`.
  void draw(const PanelDrawDesc& desc, const RunningSim& sim, std::vector<SimCommand>& commands);
  /// The command of button `index` of the view on `sim` (nullopt when there is no such
  /// button, or its fault cannot be made).
  std::optional<SimCommand> buttonCommand(size_t index, const RunningSim& sim,
                                          const std::string& language) const;
  /// The restart that runs `sim` with the engine fields of the panel's turned knobs
  /// (PanelKnob::engine); nullopt when the running request has them already.
  std::optional<SimCommand> engineCommand(const RunningSim& sim, const std::string& language) const;
  /// Sets knob `index` to `value` (a choice's index, or the knob's own value) and re-evaluates,
  /// as a turn in the panel does (tests, scripted tours).
  void setKnob(size_t index, double value, const std::string& language);
  /// The panel as evaluated now; nullptr before the first follow or when the frame has none.
  const PanelView* view() const { return m_view.id.empty() ? nullptr : &m_view; }
  /// The panel's memory bar as an HBM fill (the hero stack shows it); nullptr without a bar.
  const world::HbmFill* hbmFill() const { return m_fill.capacity_bytes > 0 ? &m_fill : nullptr; }
  /// The hero GPU's glow the panel's roofline gives `eventTime_s` into its step: its points in
  /// turn (prefill, then decode), ROOFLINE_PHASE_S each, each lighting the tensor cores by its
  /// attainable share of the peak and the HBM by its share of the bandwidth (rooflineShares);
  /// nullopt without a roofline.
  std::optional<world::ComputeShares> rooflineGlow(double eventTime_s) const;
  /// The roofline's points side by side (the "phases" overlay): each its label and shares
  /// (rooflineShares), in the panel's order; none without a roofline.
  std::vector<world::DiePhase> rooflinePhases() const;
  /// The verdict against its comparisons as floating bars (the "compare" overlay): every
  /// "comparison.*" value of the verdict's quantity (its key ends as the verdict's does), named by
  /// its row's first word and shown with its text; the one equal to the verdict is chosen (the
  /// verdict is added as its own bar when none is). Empty without a verdict or comparisons.
  std::vector<world::ValueBar> valueBars() const;
  /// The panel's pixel race for the world's screens (the "race" overlay); nullopt without one.
  std::optional<world::PixelRaceDesc> pixelRace() const;
  /// One SM of the panel's GPU doing the same matrix work on its CUDA cores (an FMA, 2 FLOP, per
  /// FP32 lane a clock) and on its tensor cores (their BF16 FLOP a clock, a tile per
  /// instruction: lit in TILE_STAMPS stamps), from the catalog (the "tiles" overlay); nullopt
  /// when the catalog lacks the GPU's figures.
  std::optional<world::PixelRaceDesc> tensorRace() const;
  static constexpr uint32_t TILE_STAMPS = 8;  // drawing only: the tiles each tensor core stamps
  static constexpr double ROOFLINE_PHASE_S = 3.0;
  /// Every panel of the file (tests: each control of each chapter).
  const PanelSet& panels() const { return m_panels; }

 private:
  void evaluate(const std::string& language);

  const sim::Catalog* m_catalog = nullptr;
  PanelSet m_panels;
  const Panel* m_panel = nullptr;
  std::string m_scenario;  // sim scenario name of the view
  sim::Result<sim::ScenarioDesc> m_base = sim::Result<sim::ScenarioDesc>::failure("");
  std::string m_language;
  std::vector<double> m_knobs;
  PanelView m_view;
  world::HbmFill m_fill;
  uint64_t m_generation = 0;
};

}  // namespace app
