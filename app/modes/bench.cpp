#include "app/modes/bench.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "app/modes/bench_paths.h"
#include "app/platform/process_stats.h"
#include "app/session/exit_status.h"
#include "app/session/frame.h"
#include "app/session/session.h"
#include "app/session/tour_view.h"
#include "renderer/vk/validation.h"

namespace app {
namespace {

using Clock = std::chrono::steady_clock;

// Nearest-rank percentile of unsorted samples.
double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t rank = size_t(std::ceil(p / 100.0 * double(v.size())));
  return v[std::clamp<size_t>(rank, 1, v.size()) - 1];
}

nlohmann::json summary(const std::vector<double>& v) {
  return {{"median", percentile(v, 50)},
          {"p95", percentile(v, 95)},
          {"p99", percentile(v, 99)},
          {"max", v.empty() ? 0.0 : *std::max_element(v.begin(), v.end())}};
}

struct PathSamples {
  std::vector<double> frame_ms, sim_ms, world_ms, ui_ms, record_ms, gpu_ms, triangles, draws;
  std::vector<double> heldBack;  // prototypes kept as proxies by the triangle budget
  std::vector<double> time_s;    // where on the path each measured frame was
};

// The simulation advances as a 30 fps window's would, whatever the frame really took, so every
// run sees the same simulated moments.
constexpr double BENCH_FRAME_DT_S = 1.0 / 30.0;

PathSamples flyPath(Session& session, const BenchPath& path, const BenchOptions& options) {
  PathSamples s;
  StationView view;
  view.setOverlay(path.overlay);
  view.setTraffic(path.traffic);
  // The naive baselines measure what the LOD and culling save: no triangle budget either.
  if (options.noLod || options.noCull) {
    view.setBaseline(options.noLod ? 0.0 : 1.0, !options.noCull, UINT64_MAX);
  }
  FrameSpec spec;
  spec.dt_s = BENCH_FRAME_DT_S;
  spec.extent = {options.render.width, options.render.height};
  spec.output = FrameOutput::Offscreen;  // two frames in flight, nothing read back
  const uint32_t total = options.warmup + options.frames;
  Clock::time_point previous = Clock::now();
  for (uint32_t i = 0; i < total; ++i) {
    const double t = i < options.warmup ? 0.0
                                        : path.duration_s * double(i - options.warmup) /
                                              double(std::max(1u, options.frames - 1));
    view.camera().setPose(path.poseAt(t));
    view.setStation(session.world->station(path.stationAt(t)));
    const FrameResult frame = runFrame(session, view, spec);
    const Clock::time_point now = Clock::now();
    const double frameMs = std::chrono::duration<double, std::milli>(now - previous).count();
    previous = now;
    if (i < options.warmup) continue;
    const renderer::FrameStats& rs = session.renderer->lastFrameStats();
    s.frame_ms.push_back(frameMs);
    s.time_s.push_back(t);
    s.sim_ms.push_back(frame.times.commands_ms + frame.times.advance_ms + frame.times.sync_ms);
    s.world_ms.push_back(frame.times.follow_ms + frame.times.world_ms);
    s.ui_ms.push_back(frame.times.ui_ms);
    s.record_ms.push_back(rs.recordSubmitMilliseconds);
    if (rs.gpuMilliseconds >= 0) s.gpu_ms.push_back(rs.gpuMilliseconds);
    s.triangles.push_back(double(frame.stats.triangles));
    s.heldBack.push_back(double(frame.stats.heldBack));
    s.draws.push_back(double(rs.scene.drawCalls));
  }
  session.renderer->waitIdle();
  return s;
}

}  // namespace

int runBench(const BenchOptions& options) {
  Session session;
  if (int status =
          openSession(options.render, nullptr, fontPixelsFor(options.render.height), session)) {
    return status;
  }
  // First frame: what a user waits for after launch (the world built, one frame drawn).
  {
    StationView first;
    first.setStation(session.world->station("rack"));
    if (const world::Station* s = session.world->station("rack")) {
      first.camera().setPose(world::toPose(s->viewpoint));
    }
    renderStill(session, first, {options.render.width, options.render.height});
  }
  const double firstFrame_s = secondsSinceProcessStart();

  nlohmann::json report;
  report["device"] = session.renderer->deviceName();
  report["quality"] = renderer::qualityName(session.renderer->quality());
  report["samples_per_pixel"] = session.renderer->samplesPerPixel();
  report["size"] =
      std::to_string(options.render.width) + "x" + std::to_string(options.render.height);
  report["frames"] = options.frames;
  report["warmup_frames"] = options.warmup;
  report["lod"] = !options.noLod;
  report["cull"] = !options.noCull;
  report["campus_scale"] = options.campusScale;
  report["campus_racks"] =
      session.sim->engine().cluster().campusRacks * uint32_t(options.campusScale);
  report["sim_gpus"] = session.sim->engine().cluster().gpuCount();
  report["scenario"] = options.scenario;
  report["first_frame_s"] = firstFrame_s;
  for (const std::string& name : options.paths) {
    BenchPath path;
    if (!makeBenchPath(*session.world, name, path)) {
      std::fprintf(stderr, "dcwalk: bench: unknown path '%s'\n", name.c_str());
      return EXIT_BAD_INPUT;
    }
    PathSamples s = flyPath(session, path, options);
    if (!options.traceOut.empty()) {
      std::ofstream trace(options.traceOut, std::ios::app);
      for (size_t i = 0; i < s.frame_ms.size(); ++i) {
        trace << name << "," << s.time_s[i] << "," << s.frame_ms[i] << ","
              << (i < s.gpu_ms.size() ? s.gpu_ms[i] : -1.0) << "," << s.triangles[i] << "\n";
      }
    }
    report["paths"][name] = {
        {"description", path.description},
        {"path_duration_s", path.duration_s},
        {"frame_ms", summary(s.frame_ms)},
        {"cpu_ms",
         {{"sim", summary(s.sim_ms)},
          {"world", summary(s.world_ms)},
          {"ui", summary(s.ui_ms)},
          {"record_submit", summary(s.record_ms)}}},
        {"gpu_ms", summary(s.gpu_ms)},
        {"triangles",
         {{"median", percentile(s.triangles, 50)}, {"max", percentile(s.triangles, 100)}}},
        {"held_back", {{"max", percentile(s.heldBack, 100)}}},
        {"draw_calls", {{"median", percentile(s.draws, 50)}, {"max", percentile(s.draws, 100)}}},
    };
  }
  report["peak_resident_MB"] = peakResidentBytes() / 1e6;
  report["validation_errors"] = vkutil::validationErrorCount();

  std::printf("dcwalk bench  %s  %s  quality %s (%ux)  lod %s  cull %s  campus racks %u\n",
              report["device"].get<std::string>().c_str(),
              report["size"].get<std::string>().c_str(),
              report["quality"].get<std::string>().c_str(), session.renderer->samplesPerPixel(),
              options.noLod ? "off" : "on", options.noCull ? "off" : "on",
              report["campus_racks"].get<uint32_t>());
  std::printf("%-9s %9s %9s %9s %9s | %7s %7s %7s %7s %7s | %9s %5s %6s\n", "path", "median", "p95",
              "p99", "max", "sim", "world", "ui", "record", "gpu", "tri max", "held", "draws");
  for (const auto& [name, p] : report["paths"].items()) {
    std::printf(
        "%-9s %9.2f %9.2f %9.2f %9.2f | %7.3f %7.3f %7.3f %7.3f %7.2f | %9.0f %5.0f %6.0f\n",
        name.c_str(), p["frame_ms"]["median"].get<double>(), p["frame_ms"]["p95"].get<double>(),
        p["frame_ms"]["p99"].get<double>(), p["frame_ms"]["max"].get<double>(),
        p["cpu_ms"]["sim"]["median"].get<double>(), p["cpu_ms"]["world"]["median"].get<double>(),
        p["cpu_ms"]["ui"]["median"].get<double>(),
        p["cpu_ms"]["record_submit"]["median"].get<double>(), p["gpu_ms"]["median"].get<double>(),
        p["triangles"]["max"].get<double>(), p["held_back"]["max"].get<double>(),
        p["draw_calls"]["max"].get<double>());
  }
  std::printf("first frame %.2f s   peak resident %.0f MB   validation errors %u\n", firstFrame_s,
              report["peak_resident_MB"].get<double>(), vkutil::validationErrorCount());
  if (!options.jsonOut.empty()) {
    std::ofstream out(options.jsonOut);
    out << report.dump(2) << "\n";
    if (!out) {
      std::fprintf(stderr, "dcwalk: bench: cannot write %s\n", options.jsonOut.c_str());
      return EXIT_FAILURE_RUNTIME;
    }
  }
  return reportValidation() ? EXIT_OK : EXIT_FAILURE_RUNTIME;
}

}  // namespace app
