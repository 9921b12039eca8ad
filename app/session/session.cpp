#include "app/session/session.h"

#include <algorithm>
#include <cstdio>

#include "sim/catalog.h"
#include "world/builders/asset_overrides.h"

#include "app/platform/window.h"
#include "app/session/exit_status.h"
#include "app/session/scenario_request.h"
#include "app/ui/panels.h"
#include "app/ui/ui_text.h"
#include "sim/format.h"

namespace app {

namespace {

// The world of the session: the viewer of desc.modelFile, else the campus of the engine's
// cluster (worldPlanOf, what every rebuild uses too) with the asset overrides, and its rebuild.
sim::Result<bool> buildWorld(const world::Dimensions& dims, const RenderOptions& options,
                             const SessionDesc& sessionDesc, Session& out) {
  using R = sim::Result<bool>;
  if (!sessionDesc.modelFile.empty()) {
    auto model = world::importWithinBudget(sessionDesc.modelFile);
    if (!model) return R::failure(model.error());
    for (const std::string& warning : model->warnings) {
      std::fprintf(stderr, "dcwalk: warning: %s\n", warning.c_str());
    }
    auto viewer = world::World::createViewer(*model, world::WorldDesc{}.verticalFov_rad);
    if (!viewer) return R::failure(viewer.error());
    out.world = std::move(*viewer);
    return true;
  }
  WorldRecipe recipe{dims, std::max(1, sessionDesc.campusScale), {}};
  if (!options.assetsFile.empty()) {
    auto overrides = world::loadAssetOverrides(options.assetsFile);
    if (!overrides) return R::failure(overrides.error());
    recipe.componentModels = std::move(overrides->models);
  }
  auto plan = worldPlanOf(recipe, out.sim->engine().cluster());
  if (!plan) return R::failure(plan.error());
  auto built = world::World::create(dims, plan->desc);
  if (!built) return R::failure(built.error());
  out.world = std::move(*built);
  out.rebuild = std::make_unique<WorldRebuild>(std::move(recipe), std::move(*plan));
  WorldRebuild* rebuild = out.rebuild.get();  // owned by the session, as the host is
  out.sim->setWorldCheck([rebuild](const sim::engine::Cluster& c) { return rebuild->check(c); });
  return true;
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
  auto request = engineRequestFor(sessionDesc.engineScenario);
  if (!request) {
    std::fprintf(stderr, "dcwalk: %s\n", request.error().c_str());
    return EXIT_BAD_INPUT;
  }
  request->faults = sessionDesc.faults;
  auto host = SimHost::create(*out.catalog, *request);
  if (!host) {
    std::fprintf(stderr, "dcwalk: %s\n", host.error().c_str());
    return EXIT_BAD_INPUT;
  }
  out.sim = std::move(*host);
  auto dims = world::Dimensions::fromCatalog(*out.catalog);
  if (!dims) {
    std::fprintf(stderr, "dcwalk: %s\n", dims.error().c_str());
    return EXIT_BAD_INPUT;
  }
  if (auto built = buildWorld(*dims, options, sessionDesc, out); !built) {
    std::fprintf(stderr, "dcwalk: %s\n", built.error().c_str());
    return EXIT_BAD_INPUT;
  }
  if (sessionDesc.trace.active()) {  // before the renderer: a bad trace is refused at once
    // Rank 0 on the first GPU the world draws one by one (the hero rack's open tray).
    const sim::engine::Cluster& cluster = out.sim->engine().cluster();
    const auto& hero = out.world->heroGpus();
    const uint32_t first = hero.empty() ? 0 : hero.front().local(std::max(1u, cluster.gpusPerTray));
    auto replay = ReplayHost::open(sessionDesc.trace, out.sim->snapshot(), *out.catalog, first);
    if (!replay) {
      std::fprintf(stderr, "dcwalk: %s\n", replay.error().c_str());
      return EXIT_BAD_INPUT;
    }
    out.replay = std::move(*replay);
    if (out.rebuild)
      out.rebuild->fixCluster("a --trace replay runs on the cluster it was opened for");
    for (const std::string& note : out.replay->notes()) {
      std::fprintf(stderr, "dcwalk: note: %s\n", note.c_str());
    }
  }
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
  // A headless image's size was checked by its flag; what it costs depends on the quality the
  // device got (auto: low on software Vulkan), known only now, before anything is allocated.
  if (!window) {
    const std::string why =
        checkImageMemory(options.width, options.height, out.renderer->quality());
    if (!why.empty()) {
      std::fprintf(stderr, "dcwalk: %s\n", why.c_str());
      return EXIT_BAD_INPUT;
    }
  }
  out.renderer->setMeshes(out.world->meshes());
  out.renderer->setTextures(out.world->textures());
  out.world->setShadowCasting(out.renderer->quality() == renderer::Quality::High);
  return EXIT_OK;
}

HudInfo stationHud(const world::Station& station) {
  HudInfo hud;
  hud.title = station.title;
  hud.subtitle = station.description;
  hud.status = "scale " + sim::formatLength(station.scale_m);
  return hud;
}

std::string simStatus(const sim::engine::Snapshot& s, const world::RackMap& racks) {
  const sim::engine::Aggregates& a = s.aggregates;
  double hall_W = 0;
  if (!racks.rowStarts().empty() && !racks.rowStarts()[0].empty()) {
    hall_W =
        sim::engine::rackRangePower_W(s, racks.rowStarts()[0].front(), racks.rowStarts()[0].back());
  }
  char text[256];
  int n = std::snprintf(text, sizeof(text), "t = %.2f s", s.time_s);
  if (s.training) {
    if (a.lastStepTime_s > 0) {
      n += std::snprintf(text + n, sizeof(text) - size_t(n), "   step %.2f s   %.2f M tokens/s",
                         a.lastStepTime_s, a.tokensPerSecond / 1e6);
    } else {
      n += std::snprintf(text + n, sizeof(text) - size_t(n), "   fault-free step %.2f s",
                         s.faultFreeStepTime_s);
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

}  // namespace app

namespace app {

std::string tourStatus(const sim::engine::Snapshot& s, const std::string& language,
                       bool outOfMemory) {
  const sim::engine::Aggregates& a = s.aggregates;
  std::string text = "t = " + sim::formatQuantity(s.time_s, "time_s");
  if (s.training) {
    if (a.lastStepTime_s > 0) {
      text += "   ·   " + withValue(uiText("hud.step", language),
                                    sim::formatQuantity(a.lastStepTime_s, "step_s"));
    } else {
      text += "   ·   " + withValue(uiText("hud.fault_free_step", language),
                                    sim::formatQuantity(s.faultFreeStepTime_s, "step_s"));
    }
  }
  text += "   ·   " + (outOfMemory ? std::string(uiText("hud.tokens_out_of_memory", language))
                                   : withValue(uiText("hud.tokens", language),
                                               sim::formatQuantity(a.tokensPerSecond, "count")));
  return text;
}

}  // namespace app
