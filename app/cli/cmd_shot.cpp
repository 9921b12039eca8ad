// `dcwalk shot`: one station rendered headless to a PNG, optionally at a simulated time of an
// engine scenario, with faults injected and a live overlay drawn; or, with --model, one glTF
// model on its own.
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "app/cli/commands.h"
#include "app/session/session.h"
#include "renderer/image_io.h"
#include "sim/engine/fault_spec.h"

namespace app {
namespace {

struct ShotOptions {
  RenderOptions render;
  std::string station = "rack";
  std::string out = "shot.png";
  std::string scenario = "training_405b";
  double time_s = 0;
  std::string overlay = "none";
  std::vector<std::string> faults;
  bool traffic = false;
  bool coolant = false;
  std::string model;  // --model: a glTF file viewed on its own (station "model")
};

int runShot(const ShotOptions& options) {
  // Flags first, before the (slow) world and renderer are made.
  const auto metric = world::parseOverlayMetric(options.overlay);
  if (!metric) {
    std::fprintf(stderr,
                 "dcwalk: shot: unknown --overlay '%s' (power, temperature, utilisation, "
                 "link_load, pipeline_stage, none)\n",
                 options.overlay.c_str());
    return EXIT_BAD_INPUT;
  }
  if (!std::isfinite(options.time_s) || options.time_s < 0) {
    std::fprintf(stderr, "dcwalk: shot: --time must be a finite number of seconds >= 0\n");
    return EXIT_BAD_INPUT;
  }
  SessionDesc sessionDesc;
  sessionDesc.engineScenario = options.scenario;
  sessionDesc.modelFile = options.model;
  for (const std::string& spec : options.faults) {
    auto fault = sim::engine::parseFaultSpec(spec);
    if (!fault) {
      std::fprintf(stderr, "dcwalk: shot: --fault: %s\n", fault.error().c_str());
      return EXIT_BAD_INPUT;
    }
    sessionDesc.faults.push_back(*fault);
  }

  Session session;
  if (int status = openSession(options.render, nullptr, fontPixelsFor(options.render.height),
                               session, sessionDesc)) {
    return status;
  }
  const world::Station* station =
      session.world->station(options.model.empty() ? options.station : "model");
  if (!station) {
    std::string names;
    for (const auto& s : session.world->stations()) names += (names.empty() ? "" : ", ") + s.name;
    std::fprintf(stderr, "dcwalk: shot: unknown station '%s' (stations: %s)\n",
                 options.station.c_str(), names.c_str());
    return EXIT_BAD_INPUT;
  }
  session.engine->advanceTo(options.time_s);
  syncOverlay(session, *metric);

  world::Camera camera;
  frameStation(*station, camera);
  HudInfo hud = stationHud(*station);
  if (options.model.empty()) {
    hud.status = simStatus(*session.engine, session.world->racks()) + "   |   " + hud.status;
  } else {
    hud.title = std::filesystem::path(options.model).filename().string();
  }
  world::FrameDesc frame{options.render.width, options.render.height};
  frame.traffic = options.traffic;
  frame.coolant = options.coolant;
  frame.animationTime_s = session.engine->time_s();
  renderer::Pixels pixels = renderView(session, camera, hud, frame);
  std::string error;
  if (!renderer::writePng(options.out, pixels, error)) {
    std::fprintf(stderr, "dcwalk: %s\n", error.c_str());
    return EXIT_FAILURE_RUNTIME;
  }
  std::printf("wrote %s (%ux%u, station %s, %llu triangles, t = %.2f s, overlay %s)\n",
              options.out.c_str(), pixels.width, pixels.height, station->name.c_str(),
              static_cast<unsigned long long>(session.worldStats.triangles),
              session.engine->time_s(), std::string(world::overlayMetricName(*metric)).c_str());
  std::printf("status: %s\n", hud.status.c_str());
  if (options.model.empty()) {
    const world::ComputeGlow& glow = session.world->computeGlow();
    std::printf("hero GPU: tensor cores %.0f %% busy, HBM %.0f %% of its bandwidth\n",
                100 * glow.tensorShare(), 100 * glow.hbmShare());
  }
  if (options.traffic) {
    const world::Traffic& traffic = session.world->traffic();
    std::printf("traffic: %u particles, NVLink %.3g GB/s (%.0f %%), fabric %.3g GB/s (%.0f %%)%s\n",
                traffic.particles(), traffic.flow(world::TrafficKind::NvLink).rate_Bps / 1e9,
                100 * traffic.flow(world::TrafficKind::NvLink).load(),
                traffic.flow(world::TrafficKind::Fabric).rate_Bps / 1e9,
                100 * traffic.flow(world::TrafficKind::Fabric).load(),
                traffic.flow(world::TrafficKind::Fabric).paused ? ", PFC-paused" : "");
  }
  for (const world::Label& label : session.list.labels)
    std::printf("label: %s\n", label.text.c_str());
  return reportValidation() ? EXIT_OK : EXIT_FAILURE_RUNTIME;
}

}  // namespace

Command addShotCommand(CLI::App& cli) {
  auto options = std::make_shared<ShotOptions>();
  CLI::App* sub = cli.add_subcommand("shot", "render one station headless to a PNG");
  sub->add_option("--station", options->station, "station name (see `dcwalk stations`)")
      ->capture_default_str();
  sub->add_option("--out", options->out, "PNG file to write")->capture_default_str();
  sub->add_option("--scenario", options->scenario, "engine built-in scenario")
      ->capture_default_str();
  sub->add_option("--time", options->time_s, "simulated seconds to advance before the shot")
      ->capture_default_str();
  sub->add_option(
         "--overlay", options->overlay,
         "heatmap and live labels: power, temperature, utilisation, link_load, pipeline_stage, "
         "none")
      ->capture_default_str();
  sub->add_option("--fault", options->faults,
                  "fault KIND[:TARGET]@START[-END][,severity=X] (repeatable), e.g. pump_trip@10");
  sub->add_flag("--traffic", options->traffic,
                "draw the hero rack's NVLink and fabric traffic as moving particles");
  sub->add_flag("--coolant", options->coolant,
                "draw the hero rack's coolant loop and its CDU's facility water by temperature");
  sub->add_option("--model", options->model,
                  "a glTF 2.0 file (.gltf/.glb) to render on its own, at its own size")
      ->excludes("--station");
  addRenderOptions(*sub, options->render);
  return {sub, [options] { return runShot(*options); }};
}

}  // namespace app
