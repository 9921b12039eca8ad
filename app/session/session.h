// What every rendering mode holds: the catalog, the simulation (through its one owner, the sim
// host), the world, the UI layer and the renderer, plus the render list reused every frame.
// Created once per run, for a window or headless; frames are made by runFrame (frame.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/session/render_options.h"
#include "app/session/sim_host.h"
#include "app/session/trace_replay.h"
#include "app/session/world_rebuild.h"
#include "app/ui/ui_layer.h"
#include "renderer/renderer.h"
#include "sim/catalog.h"
#include "sim/engine/snapshot.h"
#include "world/world.h"

namespace app {

class Window;

/// What a session simulates and how big its campus is.
struct SessionDesc {
  std::string engineScenario = "training_405b";  // sim::engine built-in scenario
  int campusScale = 1;                           // the benchmark's N x racks
  std::vector<sim::engine::FaultDesc> faults;    // injected on top of the scenario's own
  std::string modelFile;  // a glTF model to view on its own instead of the campus (shot --model)
  TraceRequest trace;     // --trace: a traced job replayed on the engine's cluster
};

struct Session {
  std::unique_ptr<sim::Catalog> catalog;  // the shipped catalog, loaded once
  std::unique_ptr<SimHost> sim;           // drives every scale; its counts size the campus
  std::unique_ptr<ReplayHost> replay;     // --trace: what the world shows instead of the engine
  std::unique_ptr<world::World> world;
  // Rebuilds the world when a new engine's cluster needs another one (null: a model viewer).
  std::unique_ptr<WorldRebuild> rebuild;
  std::unique_ptr<UiLayer> ui;
  std::unique_ptr<renderer::Renderer> renderer;
  world::RenderList list;
  world::FrameStats worldStats;
};

/// Loads the shipped catalog, starts the simulation, builds the world with the engine's campus
/// counts (and the asset overrides of options.assetsFile; or the viewer of desc.modelFile), sets
/// up its rebuild for later engines (in frame: Session::rebuild->setMode for the window), and
/// creates the renderer (with `window`'s surface when given). Returns an exit status: EXIT_OK,
/// EXIT_BAD_INPUT (catalog, scenario, assets), or EXIT_FAILURE_RUNTIME (no Vulkan device); the
/// message is printed.
int openSession(const RenderOptions& options, Window* window, float fontPixels, Session& out,
                const SessionDesc& desc = {});

/// HUD text for a station.
HudInfo stationHud(const world::Station& station);

/// HUD status line from the simulation: simulated time, training step time and tokens/s (or
/// inference output tokens/s), the hero hall's IT MW (its racks, `racks` gives which), campus
/// IT MW and PUE.
std::string simStatus(const sim::engine::Snapshot& snapshot, const world::RackMap& racks);
/// The tour's shorter status line in `language`: simulated time and the workload's pace (step
/// time and tokens/s, or output tokens/s); the power figures belong to the chapters on power.
/// `outOfMemory`: the chapter's server has crashed (its panel says the model does not fit), so
/// it serves 0 tokens/s whatever the running engine, which admits only what fits, would serve.
std::string tourStatus(const sim::engine::Snapshot& snapshot, const std::string& language,
                       bool outOfMemory = false);

}  // namespace app
