#include "app/session/session.h"

#include <malloc.h>

#include <algorithm>
#include <cstdio>

#include "sim/catalog.h"
#include "sim/engine/scenarios.h"
#include "world/build/asset_overrides.h"

#include "app/cli/commands.h"
#include "app/platform/window.h"
#include "app/ui/legend.h"

namespace app {

namespace {

sim::Result<std::unique_ptr<sim::engine::Engine>> createEngine(
    const sim::Catalog& catalog, const sim::engine::EngineRequest& request) {
  auto engineDesc = sim::engine::engineDescOf(request);
  if (!engineDesc) {
    return sim::Result<std::unique_ptr<sim::engine::Engine>>::failure(engineDesc.error());
  }
  return sim::engine::Engine::create(catalog, *engineDesc);
}

sim::Result<std::unique_ptr<world::World>> buildWorld(const world::Dimensions& dims,
                                                      const RenderOptions& options,
                                                      const SessionDesc& sessionDesc,
                                                      uint32_t campusRacks) {
  using R = sim::Result<std::unique_ptr<world::World>>;
  world::WorldDesc worldDesc;
  if (!sessionDesc.modelFile.empty()) {
    auto model = world::importGltf(sessionDesc.modelFile);
    if (!model) return R::failure(model.error());
    for (const std::string& warning : model->warnings) {
      std::fprintf(stderr, "dcwalk: warning: %s\n", warning.c_str());
    }
    return world::World::createViewer(*model, worldDesc.verticalFov_rad);
  }
  // One source for the counts: the halls hold exactly the racks the simulation's campus has.
  worldDesc.campus.totalRacks = int(campusRacks) * std::max(1, sessionDesc.campusScale);
  if (!options.assetsFile.empty()) {
    auto overrides = world::loadAssetOverrides(options.assetsFile);
    if (!overrides) return R::failure(overrides.error());
    worldDesc.componentModels = std::move(*overrides);
  }
  return world::World::create(dims, worldDesc);
}

}  // namespace

int openSession(const RenderOptions& options, Window* window, float fontPixels, Session& out,
                const SessionDesc& sessionDesc) {
  auto catalog = sim::Catalog::loadDirectory(sim::assetsDir() / "catalog");
  if (!catalog) {
    std::fprintf(stderr, "dcwalk: %s\n", catalog.error().c_str());
    return EXIT_BAD_INPUT;
  }
  out.catalog = std::make_unique<sim::Catalog>(std::move(*catalog));
  const sim::engine::EngineRequest request{sessionDesc.engineScenario, {}, sessionDesc.faults};
  auto engine = createEngine(*out.catalog, request);
  if (!engine) {
    std::fprintf(stderr, "dcwalk: %s\n", engine.error().c_str());
    return EXIT_BAD_INPUT;
  }
  out.engine = std::move(*engine);
  out.engineRequest = request;
  auto dims = world::Dimensions::fromCatalog(*out.catalog);
  if (!dims) {
    std::fprintf(stderr, "dcwalk: %s\n", dims.error().c_str());
    return EXIT_BAD_INPUT;
  }
  auto built = buildWorld(*dims, options, sessionDesc, out.engine->cluster().campusRacks);
  if (!built) {
    std::fprintf(stderr, "dcwalk: %s\n", built.error().c_str());
    return EXIT_BAD_INPUT;
  }
  out.world = std::move(*built);
  out.ui = std::make_unique<UiLayer>(fontPixels);

  renderer::RendererDesc desc = rendererDesc(options);
  if (window) {
    desc.instanceExtensions = window->requiredExtensions();
    desc.createSurface = [window](VkInstance instance) { return window->createSurface(instance); };
    desc.extent = window->framebufferExtent();
  }
  std::string error;
  out.renderer = renderer::Renderer::create(desc, error);
  if (!out.renderer) {
    std::fprintf(stderr, "dcwalk: %s\n", error.c_str());
    // A --device that names no usable device is bad input; anything else is the machine's.
    const bool badChoice = !options.device.empty() && error.find("--device") != std::string::npos;
    return badChoice ? EXIT_BAD_INPUT : EXIT_FAILURE_RUNTIME;
  }
  out.renderer->setMeshes(out.world->meshes());
  out.renderer->setTextures(out.world->textures());
  out.world->setShadowCasting(out.renderer->quality() == renderer::Quality::High);
  return EXIT_OK;
}

sim::Result<bool> startEngine(Session& session, const sim::engine::EngineRequest& request) {
  auto engine = createEngine(*session.catalog, request);
  if (!engine) return sim::Result<bool>::failure(engine.error());
  const uint32_t racks = (*engine)->cluster().campusRacks;
  const uint32_t running = session.engine->cluster().campusRacks;
  if (racks != running) {
    return sim::Result<bool>::failure("engine scenario '" + request.scenario + "' has " +
                                      std::to_string(racks) + " campus racks; the world has " +
                                      std::to_string(running));
  }
  session.engine = std::move(*engine);  // the old engine's arrays are freed here
  // glibc keeps freed heap pages resident and, after large frees, raises its mmap threshold so
  // the next engine's arrays come from the heap too: without this, every scenario switch in a
  // booth that runs all day left the resident size a few MB higher (measured with the soak).
  malloc_trim(0);
  session.engineRequest = request;
  return true;
}

void frameStation(const world::Station& station, world::Camera& camera) {
  camera.setPose(world::toPose(station.viewpoint));
}

HudInfo stationHud(const world::Station& station) {
  HudInfo hud;
  hud.title = station.title;
  hud.subtitle = station.description;
  hud.status = "scale " + world::formatLength(station.scale_m);
  return hud;
}

void syncOverlay(Session& session, world::OverlayMetric metric) {
  world::updateOverlay(*session.engine, metric, session.world->overlay());
  session.world->traffic().update(*session.engine);
  session.world->coolant().update(*session.engine);
  session.world->updateComputeGlow(*session.engine);
}

std::string simStatus(const sim::engine::Engine& engine, const world::RackMap& racks) {
  const sim::engine::Snapshot s = engine.snapshot();
  const sim::engine::Aggregates& a = s.aggregates;
  // Hall 0's racks: the modelled ones as the engine has them, the rest mirror their average.
  const sim::engine::Cluster& c = engine.cluster();
  const uint32_t modelled = std::min<uint32_t>(c.racks, uint32_t(s.rackPower_W.size()));
  double modelledSum_W = 0;
  for (uint32_t r = 0; r < modelled; ++r) modelledSum_W += s.rackPower_W[r];
  const double mirrored_W = modelled ? modelledSum_W / modelled : 0.0;
  double hall_W = 0;
  if (!racks.rowStarts().empty() && !racks.rowStarts()[0].empty()) {
    const uint32_t end = racks.rowStarts()[0].back();
    for (uint32_t r = racks.rowStarts()[0].front(); r < end; ++r) {
      hall_W += r < modelled ? s.rackPower_W[r] : mirrored_W;
    }
  }
  char text[256];
  int n = std::snprintf(text, sizeof(text), "t = %.2f s", engine.time_s());
  if (engine.training()) {
    if (a.lastStepTime_s > 0) {
      n += std::snprintf(text + n, sizeof(text) - size_t(n), "   step %.2f s   %.2f M tokens/s",
                         a.lastStepTime_s, a.tokensPerSecond / 1e6);
    } else {
      n += std::snprintf(text + n, sizeof(text) - size_t(n), "   fault-free step %.2f s",
                         engine.faultFreeStepTime_s());
    }
  } else {
    n += std::snprintf(text + n, sizeof(text) - size_t(n), "   %.0f output tokens/s",
                       a.tokensPerSecond);
  }
  std::snprintf(text + n, sizeof(text) - size_t(n),
                "   hall 0 IT %.1f MW   campus IT %.1f MW   PUE %.2f", hall_W / 1e6,
                a.campusIt_W / 1e6, a.pue);
  return text;
}

renderer::Pixels renderView(Session& session, const world::Camera& camera, const HudInfo& hud,
                            const world::FrameDesc& frame, const std::function<void()>& extraUi) {
  const uint32_t width = frame.width_px, height = frame.height_px;
  session.worldStats = session.world->buildRenderList(camera, frame, session.list);
  ImDrawData* draw = nullptr;
  for (int pass = 0; pass < 2; ++pass) {
    session.ui->beginFrame(float(width), float(height), 1.0f / 30.0f);
    session.ui->drawHud(hud);
    drawLegend(session.world->overlay(), hud.panelOnRight ? session.ui->titleBottom() : -1.0f);
    if (extraUi) extraUi();
    session.ui->drawLabels(session.list, float(width), float(height));  // clear of the windows
    draw = session.ui->endFrame();
  }
  return session.renderer->renderToPixels(session.list, draw, {width, height});
}

}  // namespace app
