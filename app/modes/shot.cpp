#include "app/modes/shot.h"

#include <cstdio>
#include <filesystem>

#include "app/modes/shot_compare.h"
#include "app/platform/capture.h"
#include "app/session/exit_status.h"
#include "app/session/frame.h"
#include "app/session/session.h"
#include "app/session/tour_view.h"
#include "world/live/compute_glow.h"
#include "world/live/traffic.h"

namespace app {

int openShotSession(const ShotOptions& options, Session& session, const world::Station*& station) {
  SessionDesc sessionDesc;
  sessionDesc.engineScenario = options.scenario;
  sessionDesc.modelFile = options.model;
  sessionDesc.faults = options.faults;
  sessionDesc.trace = options.trace;
  if (int status = openSession(options.render, nullptr, fontPixelsFor(options.render.height),
                               session, sessionDesc)) {
    return status;
  }
  station = session.world->station(options.model.empty() ? options.station : "model");
  if (!station) {
    std::string names;
    for (const auto& s : session.world->stations()) names += (names.empty() ? "" : ", ") + s.name;
    std::fprintf(stderr, "dcwalk: shot: unknown station '%s' (stations: %s)\n",
                 options.station.c_str(), names.c_str());
    return EXIT_BAD_INPUT;
  }
  SimProgress progress("dcwalk shot", session.sim->time_s(), options.time_s);
  if (!session.sim->runTo(options.time_s, &progress)) return EXIT_BAD_INPUT;  // the host said why
  return EXIT_OK;
}

void setUpShotView(const ShotOptions& options, const world::Station& station, StationView& view) {
  view.camera().setPose(world::toPose(station.viewpoint));
  view.setStation(&station);
  view.setOverlay(options.overlay);
  view.setTraffic(options.traffic);
  view.setCoolant(options.coolant);
  if (options.clean) view.setTextMode(TextMode::Off);
  if (!options.model.empty()) view.setTitle(std::filesystem::path(options.model).filename());
}

renderer::StillSpec shotStill(const ShotOptions& options) {
  renderer::StillSpec still;
  still.supersample = options.supersample;
  return still;
}

int runShot(const ShotOptions& options) {
  // Before any rendering: an --out that cannot take the picture is refused now, not after.
  if (const std::string problem = checkPngOut("--out", options.out); !problem.empty()) {
    std::fprintf(stderr, "dcwalk: shot: %s\n", problem.c_str());
    return EXIT_BAD_INPUT;
  }
  if (!options.compare.empty()) return runCompareShot(options);
  Session session;
  const world::Station* station = nullptr;
  if (int status = openShotSession(options, session, station)) return status;
  StationView view;
  setUpShotView(options, *station, view);
  const FrameResult frame =
      renderStill(session, view, {options.render.width, options.render.height}, shotStill(options));
  if (auto written = writePng(options.out, frame.pixels); !written) {
    std::fprintf(stderr, "dcwalk: %s\n", written.error().c_str());
    return EXIT_FAILURE_RUNTIME;
  }
  std::printf(
      "wrote %s (%ux%u, station %s, %llu triangles, t = %.2f s, overlay %s, supersample %u)\n",
      options.out.c_str(), frame.pixels.width, frame.pixels.height, station->name.c_str(),
      static_cast<unsigned long long>(frame.stats.triangles), session.sim->time_s(),
      std::string(world::overlayMetricName(options.overlay)).c_str(), options.supersample);
  std::printf("status: %s\n", frame.hud.status.c_str());
  if (options.model.empty()) {
    const world::ComputeGlow& glow = session.world->layer<world::ComputeGlowLayer>().glow();
    std::printf("hero GPU: tensor cores %.0f %% busy, HBM %.0f %% of its bandwidth\n",
                100 * glow.tensorShare(), 100 * glow.hbmShare());
  }
  if (options.traffic) {
    const world::Traffic& traffic = session.world->layer<world::TrafficLayer>().traffic();
    std::printf("traffic: %u particles, NVLink %.3g GB/s (%.0f %%), fabric %.3g GB/s (%.0f %%)%s\n",
                traffic.particles(), traffic.flow(world::TrafficKind::NvLink).rate_Bps / 1e9,
                100 * traffic.flow(world::TrafficKind::NvLink).load(),
                traffic.flow(world::TrafficKind::Fabric).rate_Bps / 1e9,
                100 * traffic.flow(world::TrafficKind::Fabric).load(),
                traffic.flow(world::TrafficKind::Fabric).paused ? ", PFC-paused" : "");
  }
  if (session.replay) {
    for (const TraceComparison& c : session.replay->comparisons()) {
      std::printf("measured vs modelled (%s, rank %lld): %s\n", c.file.c_str(),
                  static_cast<long long>(c.rank), c.gap.c_str());
    }
  }
  for (const world::Label& label : session.list.labels)
    std::printf("label: %s\n", label.text.c_str());
  return reportValidation() ? EXIT_OK : EXIT_FAILURE_RUNTIME;
}

}  // namespace app
