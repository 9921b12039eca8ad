#include "app/session.h"

#include <algorithm>
#include <cstdio>

#include "sim/catalog.h"
#include "sim/engine/scenarios.h"

#include "app/commands.h"
#include "app/window.h"

namespace app {

int openSession(const RenderOptions& options, Window* window, float fontPixels, Session& out,
                const SessionDesc& sessionDesc) {
  auto catalog = sim::Catalog::loadDirectory(sim::assetsDir() / "catalog");
  if (!catalog) {
    std::fprintf(stderr, "dcwalk: %s\n", catalog.error().c_str());
    return EXIT_BAD_INPUT;
  }
  auto engineDesc = sim::engine::builtinScenario(sessionDesc.engineScenario);
  if (!engineDesc) {
    std::fprintf(stderr, "dcwalk: %s\n", engineDesc.error().c_str());
    return EXIT_BAD_INPUT;
  }
  auto engine = sim::engine::Engine::create(*catalog, *engineDesc);
  if (!engine) {
    std::fprintf(stderr, "dcwalk: %s\n", engine.error().c_str());
    return EXIT_BAD_INPUT;
  }
  out.engine = std::move(*engine);
  auto dims = world::Dimensions::fromCatalog(*catalog);
  if (!dims) {
    std::fprintf(stderr, "dcwalk: %s\n", dims.error().c_str());
    return EXIT_BAD_INPUT;
  }
  world::WorldDesc worldDesc;
  // One source for the counts: the halls hold exactly the racks the simulation's campus has.
  worldDesc.campus.totalRacks =
      int(out.engine->cluster().campusRacks) * std::max(1, sessionDesc.campusScale);
  auto built = world::World::create(*dims, worldDesc);
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
    return EXIT_FAILURE_RUNTIME;
  }
  out.renderer->setMeshes(out.world->meshes());
  return EXIT_OK;
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

renderer::Pixels renderView(Session& session, const world::Camera& camera, const HudInfo& hud,
                            uint32_t width, uint32_t height) {
  world::FrameDesc frame;
  frame.width_px = width;
  frame.height_px = height;
  session.worldStats = session.world->buildRenderList(camera, frame, session.list);
  ImDrawData* draw = nullptr;
  for (int pass = 0; pass < 2; ++pass) {
    session.ui->beginFrame(float(width), float(height), 1.0f / 30.0f);
    session.ui->drawLabels(session.list, float(width), float(height));
    session.ui->drawHud(hud);
    draw = session.ui->endFrame();
  }
  return session.renderer->renderToPixels(session.list, draw, {width, height});
}

}  // namespace app
