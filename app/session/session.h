// What every rendering mode holds: the world, the UI layer and the renderer, plus the
// render list reused every frame. Created once per run, for a window or headless.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/options.h"
#include "app/ui/ui_layer.h"
#include "renderer/renderer.h"
#include "sim/catalog.h"
#include "sim/engine/engine.h"
#include "sim/engine/request.h"
#include "sim/result.h"
#include "world/world.h"

namespace app {

class Window;

/// What a session simulates and how big its campus is.
struct SessionDesc {
  std::string engineScenario = "training_405b";  // sim::engine built-in scenario
  int campusScale = 1;                           // the benchmark's N x racks
  std::vector<sim::engine::FaultDesc> faults;    // injected on top of the scenario's own
  std::string modelFile;  // a glTF model to view on its own instead of the campus (shot --model)
};

struct Session {
  std::unique_ptr<sim::Catalog> catalog;        // the shipped catalog, loaded once
  std::unique_ptr<sim::engine::Engine> engine;  // drives every scale; its counts size the campus
  sim::engine::EngineRequest
      engineRequest;  // what the engine runs: scenario, what-if overrides, faults
  std::unique_ptr<world::World> world;
  std::unique_ptr<UiLayer> ui;
  std::unique_ptr<renderer::Renderer> renderer;
  world::RenderList list;
  world::FrameStats worldStats;
};

/// Loads the shipped catalog, creates the simulation engine, builds the world with the engine's
/// campus counts (and the asset overrides of options.assetsFile; or the viewer of
/// desc.modelFile), and creates the renderer (with `window`'s surface when given). Returns an exit
/// status: EXIT_OK, EXIT_BAD_INPUT (catalog, scenario, assets), or EXIT_FAILURE_RUNTIME (no Vulkan
/// device); the message is printed.
int openSession(const RenderOptions& options, Window* window, float fontPixels, Session& out,
                const SessionDesc& desc = {});

/// Replaces the session's engine with a fresh one (t = 0) running `request` (a built-in scenario,
/// its overrides and faults). The world keeps its campus, so the new engine must have the same
/// campus racks; on any failure the running engine stays and the message says why.
sim::Result<bool> startEngine(Session& session, const sim::engine::EngineRequest& request);

/// Points `camera` at a station's viewpoint.
void frameStation(const world::Station& station, world::Camera& camera);

/// HUD text for a station.
HudInfo stationHud(const world::Station& station);

/// Fills the world's overlay with `metric`, and updates its traffic, coolant flow and compute
/// glow, from the engine's current state.
void syncOverlay(Session& session, world::OverlayMetric metric);

/// HUD status line from the engine: simulated time, training step time and tokens/s (or
/// inference output tokens/s), the hero hall's IT MW (its racks, `racks` gives which), campus
/// IT MW and PUE.
std::string simStatus(const sim::engine::Engine& engine, const world::RackMap& racks);

/// Renders the camera's view headless, with labels, `hud` and the overlay legend (when an
/// overlay is on), at frame.width_px x frame.height_px (`frame` also says whether traffic is
/// drawn); `extraUi` draws more windows (a simulator panel). ImGui windows appear on their
/// second frame, so the UI is built twice and the second draw is kept.
renderer::Pixels renderView(Session& session, const world::Camera& camera, const HudInfo& hud,
                            const world::FrameDesc& frame,
                            const std::function<void()>& extraUi = {});

}  // namespace app
