// The one frame, written once and used by every mode (window, booth, soak, headless tour and
// clip, shot, bench). Its order is fixed here:
//   1. apply the simulation commands queued last frame (SimHost::applyCommands)
//   2. advance the clock: the mode moves its camera, the sim host its engine
//   3. sync the world from the simulation's snapshot (World::sync)
//   4. panels follow the tour step and the simulation
//   5. build the render list (World::buildRenderList: the only call in app/)
//   6. the UI: HUD, legend, the mode's windows, then the in-world labels clear of them
//   7. render: present, draw offscreen, or read the pixels back
//   8. at the frame boundary, a world rebuilt for a new engine's cluster is swapped in with that
//      engine (app/session/world_rebuild.h), and the frame source finds its place in it
// What differs between modes is a FrameSource: the camera, overlay, HUD and windows it shows.
#pragma once

#include <functional>
#include <vector>

#include <vulkan/vulkan.h>

#include "app/session/session.h"
#include "app/session/sim_host.h"
#include "app/session/world_rebuild.h"
#include "app/ui/ui_layer.h"
#include "renderer/renderer.h"
#include "world/live/overlays.h"
#include "world/scene/camera.h"
#include "world/world.h"

namespace app {

/// What a mode's frame source may read while the frame is made, and where it queues commands
/// for the simulation (applied at the start of the next frame).
struct FrameContext {
  const sim::engine::Snapshot& snapshot;
  const SimHost& sim;
  std::vector<SimCommand>& commands;
  const world::World& world;
  const sim::Catalog& catalog;
  UiLayer& ui;
  VkExtent2D extent;
};

/// What a frame shows: each mode's camera, overlay, HUD and windows.
class FrameSource {
 public:
  virtual ~FrameSource() = default;
  /// Stage 2: moves the camera (tour, flight, path) by `dt_s` wall seconds; may queue commands
  /// (a tour step that changes the simulation).
  virtual void advance(double dt_s, std::vector<SimCommand>& commands) = 0;
  virtual const world::Camera& camera() const = 0;
  virtual world::OverlayMetric overlay() const = 0;
  /// The frame's description for `extent` (traffic, coolant, the HBM fill, a selection).
  virtual world::FrameDesc frameDesc(VkExtent2D extent, const SimHost& sim) const = 0;
  /// Stage 4: panels follow the step and the simulation.
  virtual void follow(FrameContext&) {}
  /// Stage 6: the HUD.
  virtual HudInfo hud(FrameContext& context) = 0;
  /// Stage 6: the mode's windows (panels, timeline ...), after the HUD and legend.
  virtual void drawWindows(FrameContext&) {}
  /// The presenter's blank: an empty scene and no UI.
  virtual bool blanked() const { return false; }
  /// The visitor asked for less motion: the live world follows the simulation more calmly.
  virtual bool reducedMotion() const { return false; }
  /// Stage 8: the world was rebuilt for another cluster; `old` (its former contents, read-only,
  /// dropped after this call) says where the camera was, `world` is what is drawn from now on.
  /// Whatever the source holds of the old world (stations, a selection, views) is found again
  /// in the new one or dropped.
  virtual void worldRebuilt(const world::World& old, const world::World& world) {
    (void)old;
    (void)world;
  }
};

enum class FrameOutput {
  Present,    // to the window's swapchain
  Offscreen,  // drawn and not read (the bench, the soak)
  Pixels,     // read back into FrameResult::pixels (stills, clips)
};

struct FrameSpec {
  double dt_s = 0;  // wall seconds since the last frame: motion and the simulation clock
  VkExtent2D extent{1280, 720};
  FrameOutput output = FrameOutput::Offscreen;
  // A still made in one frame: ImGui shows a new window from its second frame, so the UI is
  // built twice and the second one drawn.
  bool settleUi = false;
  bool alsoReadBack = false;               // Present, and the pixels too (F12, F9)
  renderer::StillSpec still;               // Pixels: supersampled in tiles (--supersample)
  std::function<void()> platformNewFrame;  // window: the GLFW backend's NewFrame before the UI
};

/// CPU milliseconds of each stage.
struct FrameTimes {
  double commands_ms = 0, advance_ms = 0, sync_ms = 0, follow_ms = 0, world_ms = 0, ui_ms = 0,
         render_ms = 0;
};

struct FrameResult {
  renderer::Pixels pixels;  // FrameOutput::Pixels or alsoReadBack
  FrameTimes times;
  world::FrameStats stats;
  uint64_t generation = 0;  // of the simulation the whole frame shows
  HudInfo hud;              // as drawn
  bool presented = true;    // Present: false when the window skipped the frame
  RebuildFrame rebuild;     // stage 8's share of a world rebuild
};

/// Makes one frame of `source` (see the stages above).
FrameResult runFrame(Session& session, FrameSource& source, const FrameSpec& spec);

/// A still of `source` at `extent`, read back: one runFrame with the UI settled, no time passing;
/// `still` supersamples its 3D picture in tiles (the world, labels and UI are made at `extent`).
FrameResult renderStill(Session& session, FrameSource& source, VkExtent2D extent,
                        const renderer::StillSpec& still = {});

}  // namespace app
