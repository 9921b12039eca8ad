#include "app/session/frame.h"

#include <chrono>

#include "app/ui/legend.h"

namespace app {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point& start) {
  const Clock::time_point now = Clock::now();
  const double ms = std::chrono::duration<double, std::milli>(now - start).count();
  start = now;
  return ms;
}

}  // namespace

FrameResult runFrame(Session& session, FrameSource& source, const FrameSpec& spec) {
  FrameResult result;
  SimHost& sim = *session.sim;
  std::vector<SimCommand> commands;
  Clock::time_point mark = Clock::now();

  sim.applyCommands();  // 1
  result.times.commands_ms = msSince(mark);

  // 2. What the clock itself brings (a tour step that starts another simulation) takes effect in
  // this frame, before the world syncs, so a new step never shows the old simulation.
  source.advance(spec.dt_s, commands);
  sim.applyNow(commands);
  commands.clear();
  sim.advance(spec.dt_s);
  if (session.replay) session.replay->advance(spec.dt_s, sim.speed(), sim.paused());
  result.times.advance_ms = msSince(mark);

  // 3. With --trace the replayed job takes the engine's place in what the world reads. Colours
  // and glow follow at a bounded rate of wall time, so nothing flashes (a still: at once).
  sim::engine::Snapshot snapshot = sim.snapshot();
  if (session.replay) session.replay->apply(snapshot);
  session.world->sync(snapshot, source.overlay(), sim.generation(),
                      world::Calm{spec.dt_s, source.reducedMotion()});
  result.generation = sim.generation();
  result.times.sync_ms = msSince(mark);

  FrameContext context{snapshot,         sim,         commands,   *session.world,
                       *session.catalog, *session.ui, spec.extent};
  source.follow(context);  // 4
  result.times.follow_ms = msSince(mark);

  const world::FrameDesc frame = source.frameDesc(spec.extent, sim);  // 5
  session.worldStats = session.world->buildRenderList(source.camera(), frame, session.list);
  const bool blank = source.blanked();
  if (blank) {  // the presenter's blank: black, not an empty sky
    session.list.clear();
    for (int k = 0; k < 3; ++k) session.list.view.skyTop[k] = session.list.view.skyHorizon[k] = 0;
  }
  result.stats = session.worldStats;
  result.times.world_ms = msSince(mark);

  UiLayer& ui = *session.ui;  // 6
  const float width = float(spec.extent.width), height = float(spec.extent.height);
  // The text size follows the screen: a resized window gets fonts of its own size.
  if (ui.fitTo(spec.extent.width, spec.extent.height)) session.renderer->reloadUiFonts();
  ImDrawData* draw = nullptr;
  for (int pass = 0; pass < (spec.settleUi ? 2 : 1); ++pass) {
    if (spec.platformNewFrame) {
      spec.platformNewFrame();
      ui.beginFrame(0, 0, float(spec.dt_s));
    } else {
      ui.beginFrame(width, height, spec.dt_s > 0 ? float(spec.dt_s) : 1.0f / 30.0f);
    }
    if (!blank) {
      result.hud = source.hud(context);
      if (session.replay) {
        result.hud.status = session.replay->status();
        for (const std::string& note : session.replay->notes()) result.hud.subtitle += " — " + note;
      }
      result.hud.generation = sim.generation();
      const TextMode mode = result.hud.mode;
      // Engineer: one legend bar; the booth's headline tells the number instead.
      const bool legend = mode == TextMode::Engineer && session.world->overlay().active();
      ui.drawHud(result.hud, legend);
      if (legend) drawLegend(session.world->overlay(), ui.layout().legend, result.hud.language);
      if (mode != TextMode::Off) source.drawWindows(context);
      // Labels in the world: the engineer's (the booth's words are the title, the headline and
      // one line), clear of the windows drawn above.
      if (mode == TextMode::Engineer) ui.drawLabels(session.list, width, height);
    }
    draw = ui.endFrame();
  }
  for (SimCommand& c : commands) sim.queue(std::move(c));  // for the next frame's stage 1
  result.times.ui_ms = msSince(mark);

  renderer::Renderer& r = *session.renderer;  // 7
  switch (spec.output) {
    case FrameOutput::Present:
      if (spec.alsoReadBack) result.pixels = r.renderToPixels(session.list, draw, spec.extent);
      result.presented =
          r.drawFrame(session.list, draw, spec.extent) == renderer::FrameResult::Presented;
      break;
    case FrameOutput::Offscreen:
      r.drawOffscreen(session.list, draw, spec.extent);
      break;
    case FrameOutput::Pixels:
      result.pixels = r.renderToPixels(session.list, draw, spec.extent, spec.still);
      break;
  }
  result.times.render_ms = msSince(mark);
  if (session.rebuild) result.rebuild = session.rebuild->atFrameBoundary(session, source);  // 8
  return result;
}

FrameResult renderStill(Session& session, FrameSource& source, VkExtent2D extent,
                        const renderer::StillSpec& still) {
  FrameSpec spec;
  spec.extent = extent;
  spec.still = still;
  spec.output = FrameOutput::Pixels;
  spec.settleUi = true;
  return runFrame(session, source, spec);
}

}  // namespace app
