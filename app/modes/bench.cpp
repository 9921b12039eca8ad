#include "app/modes/bench.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "app/modes/bench_paths.h"
#include "app/platform/atomic_file.h"
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

// The figures of `samples` that are known (>= 0) for `field`.
std::vector<double> known(const std::vector<BenchFrame>& samples, double BenchFrame::*field) {
  std::vector<double> out;
  for (const BenchFrame& s : samples)
    if (s.*field >= 0) out.push_back(s.*field);
  return out;
}

nlohmann::json report(const std::vector<BenchFrame>& s) {
  auto all = [&](double BenchFrame::*field) { return summary(known(s, field)); };
  return {
      {"frames", s.size()},
      {"frame_ms", all(&BenchFrame::frame_ms)},
      {"cpu_ms",
       {{"sim", all(&BenchFrame::sim_ms)},
        {"world", all(&BenchFrame::world_ms)},
        {"ui", all(&BenchFrame::ui_ms)},
        {"record_submit", all(&BenchFrame::record_ms)}}},
      {"gpu_ms", all(&BenchFrame::gpu_ms)},
      {"overdraw", all(&BenchFrame::overdraw)},
      {"fragments_per_pixel", all(&BenchFrame::fragmentsPerPixel)},
      {"triangles", all(&BenchFrame::triangles)},
      {"held_back", all(&BenchFrame::heldBack)},
      {"draw_calls", all(&BenchFrame::draws)},
  };
}

// The frames of world swaps (the swap path): their count and the longest.
nlohmann::json swapReport(const std::vector<BenchFrame>& samples) {
  std::vector<double> frame_ms;
  for (const BenchFrame& s : samples)
    if (s.swapping) frame_ms.push_back(s.frame_ms);
  return {{"frames", frame_ms.size()},
          {"max_frame_ms",
           frame_ms.empty() ? 0.0 : *std::max_element(frame_ms.begin(), frame_ms.end())}};
}

// The GPU figures of frame `gpuFrame` (the renderer reads them when the frame's slot comes round
// again) go to the sample that submitted it.
void attributeGpuFigures(const renderer::FrameStats& rs, const std::map<uint64_t, size_t>& byFrame,
                         double pixels, std::vector<BenchFrame>& samples) {
  const auto it = byFrame.find(rs.gpuFrameIndex);
  if (it == byFrame.end()) return;
  BenchFrame& s = samples[it->second];
  if (rs.gpuMilliseconds >= 0) s.gpu_ms = rs.gpuMilliseconds;
  if (rs.samplesPassed >= 0) s.overdraw = double(rs.samplesPassed) / pixels;
  if (rs.fragmentInvocations >= 0) s.fragmentsPerPixel = double(rs.fragmentInvocations) / pixels;
}

}  // namespace

bool flyPath(Session& session, const BenchPath& path, const BenchOptions& options,
             std::vector<BenchFrame>& samples, std::string& error) {
  samples.clear();
  std::unique_ptr<PathView> view = path.view(session, error);
  if (!view) return false;
  std::map<uint64_t, size_t> byFrame;
  renderer::Renderer& r = *session.renderer;
  r.setMeasureOverdraw(true);
  const double pixels = double(options.render.width) * options.render.height;
  // The naive baselines measure what the LOD and culling save: no triangle budget either.
  if (options.noLod || options.noCull) {
    view->setBaseline(options.noLod ? 0.0 : 1.0, !options.noCull, UINT64_MAX);
  }
  if (path.prepare) path.prepare(*session.sim);
  // Where the measured frames fall on the path: its key moments, or `frames` evenly.
  std::vector<double> times = options.keyFrames ? path.keyTimes_s : std::vector<double>{};
  if (times.empty()) {
    const uint32_t frames = options.keyFrames ? 1 : options.frames;
    for (uint32_t k = 0; k < frames; ++k)
      times.push_back(path.duration_s * double(k) / double(std::max(1u, frames - 1)));
  }
  FrameSpec spec;
  spec.extent = {options.render.width, options.render.height};
  spec.output = FrameOutput::Offscreen;  // two frames in flight, nothing read back
  const uint32_t total = options.warmup + uint32_t(times.size());
  Clock::time_point previous = Clock::now();
  for (uint32_t i = 0; i < total; ++i) {
    const bool measured = i >= options.warmup;
    const uint32_t k = measured ? i - options.warmup : 0;
    const double t = times[k];
    spec.dt_s = view->moveTo(t);
    const std::string station = view->station();
    if (measured && path.atFrame) path.atFrame(k, *session.sim);
    const uint64_t submitted = r.framesSubmitted();
    const bool rebuilding = session.rebuild && session.rebuild->pending();
    const std::string drawnSystem =
        session.rebuild ? session.rebuild->current().layout.systemName : std::string();
    const FrameResult frame = runFrame(session, view->source(), spec);
    const Clock::time_point now = Clock::now();
    const double frameMs = std::chrono::duration<double, std::milli>(now - previous).count();
    previous = now;
    if (!measured) continue;
    BenchFrame s;
    s.time_s = t;
    s.station = station;
    // The world the frame drew: before its end's swap, if any.
    if (path.bySystem && session.rebuild) s.station += " " + drawnSystem;
    s.frame_ms = frameMs;
    s.sim_ms = frame.times.commands_ms + frame.times.advance_ms + frame.times.sync_ms;
    s.world_ms = frame.times.follow_ms + frame.times.world_ms;
    s.ui_ms = frame.times.ui_ms;
    s.record_ms = r.lastFrameStats().recordSubmitMilliseconds;
    s.triangles = double(frame.stats.triangles);
    s.heldBack = double(frame.stats.heldBack);
    s.draws = double(r.lastFrameStats().scene.drawCalls);
    s.swapping = rebuilding || frame.rebuild.swapped || frame.rebuild.buildsStarted > 0;
    byFrame[submitted] = samples.size();
    samples.push_back(s);
    attributeGpuFigures(r.lastFrameStats(), byFrame, pixels, samples);
  }
  r.waitIdle();
  // The last frames' figures: read them by drawing two more (not measured, no time passing).
  for (uint32_t i = 0; i < 2; ++i) {
    spec.dt_s = 0;
    runFrame(session, view->source(), spec);
    attributeGpuFigures(r.lastFrameStats(), byFrame, pixels, samples);
  }
  r.waitIdle();
  return true;
}

namespace {

// The --trace rows of one path, added to `rows`.
void addTraceRows(const std::string& path, const std::vector<BenchFrame>& samples,
                  std::ostringstream& rows) {
  for (const BenchFrame& s : samples) {
    rows << path << "," << s.time_s << "," << s.station << "," << s.frame_ms << "," << s.gpu_ms
         << "," << s.triangles << "," << s.overdraw << "," << s.fragmentsPerPixel << "\n";
  }
}

// Largest --trace file appended to (rewritten whole, with the new rows, atomically).
constexpr uint64_t MAX_TRACE_FILE_BYTES = 256u << 20;

// `rows` after what `file` holds, written atomically; the error names the file and the reason.
sim::Result<bool> appendTrace(const std::string& file, const std::string& rows) {
  std::string text;
  std::error_code ec;
  if (std::filesystem::is_regular_file(file, ec)) {
    const uint64_t size = std::filesystem::file_size(file, ec);
    if (ec) return sim::Result<bool>::failure(file + ": " + ec.message());
    if (size > MAX_TRACE_FILE_BYTES) {
      return sim::Result<bool>::failure(file + ": " + std::to_string(size) +
                                        " bytes, more than the " +
                                        std::to_string(MAX_TRACE_FILE_BYTES) +
                                        " a --trace file is appended to; choose a new file");
    }
    if (int error = readWhole(file, size, text); error != 0)
      return sim::Result<bool>::failure(file + ": cannot read it: " + std::strerror(error));
  }
  return writeFileAtomic(file, text + rows);
}

}  // namespace

int runBench(const BenchOptions& options) {
  // Before any frame: an output that cannot be written is refused now, not after the run.
  for (const auto& [flag, file] :
       {std::pair{"--json", &options.jsonOut}, std::pair{"--trace", &options.traceOut}}) {
    if (file->empty()) continue;
    if (const std::string problem = checkWritableFile(*file); !problem.empty()) {
      std::fprintf(stderr, "dcwalk: bench: %s: %s\n", flag, problem.c_str());
      return EXIT_BAD_INPUT;
    }
  }
  Session session;
  const SessionDesc desc{.engineScenario = options.scenario, .campusScale = options.campusScale};
  if (int status = openSession(options.render, nullptr, fontPixelsFor(options.render.height),
                               session, desc)) {
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
  // A new system's world is built off the frame, as in the window (the swap path).
  if (session.rebuild) session.rebuild->setMode(WorldRebuild::Mode::Background);

  nlohmann::json out;
  out["device"] = session.renderer->deviceName();
  out["quality"] = renderer::qualityName(session.renderer->quality());
  out["samples_per_pixel"] = session.renderer->samplesPerPixel();
  out["size"] = std::to_string(options.render.width) + "x" + std::to_string(options.render.height);
  out["frames"] = options.frames;
  out["warmup_frames"] = options.warmup;
  out["lod"] = !options.noLod;
  out["cull"] = !options.noCull;
  out["campus_scale"] = options.campusScale;
  out["campus_racks"] = session.sim->engine().cluster().campusRacks * uint32_t(options.campusScale);
  out["sim_gpus"] = session.sim->engine().cluster().gpuCount();
  out["scenario"] = options.scenario;
  out["first_frame_s"] = firstFrame_s;
  std::map<std::string, std::map<std::string, std::vector<BenchFrame>>> byStation;
  std::ostringstream traceRows;
  for (const std::string& name : options.paths) {
    BenchPath path;
    std::string error;
    std::vector<BenchFrame> samples;
    if (!makeBenchPath(*session.world, name, path, error) ||
        !flyPath(session, path, options, samples, error)) {
      std::fprintf(stderr, "dcwalk: %s\n", error.c_str());
      return EXIT_BAD_INPUT;
    }
    addTraceRows(name, samples, traceRows);
    nlohmann::json p = report(samples);
    if (std::any_of(samples.begin(), samples.end(), [](const BenchFrame& s) { return s.swapping; }))
      p["world_swap"] = swapReport(samples);
    p["description"] = path.description;
    p["path_duration_s"] = path.duration_s;
    for (const BenchFrame& s : samples) byStation[name][s.station].push_back(s);
    for (const auto& [station, stationSamples] : byStation[name]) {
      p["stations"][station] = report(stationSamples);
    }
    out["paths"][name] = p;
  }
  out["peak_resident_MB"] = peakResidentBytes() / 1e6;
  out["validation_errors"] = vkutil::validationErrorCount();

  std::printf("dcwalk bench  %s  %s  quality %s (%ux)  lod %s  cull %s  campus racks %u\n",
              out["device"].get<std::string>().c_str(), out["size"].get<std::string>().c_str(),
              out["quality"].get<std::string>().c_str(), session.renderer->samplesPerPixel(),
              options.noLod ? "off" : "on", options.noCull ? "off" : "on",
              out["campus_racks"].get<uint32_t>());
  std::printf("%-9s %8s %8s %8s %8s | %6s %6s %6s %6s %6s | %5s %5s | %8s %4s %5s\n", "path",
              "median", "p95", "p99", "max", "sim", "world", "ui", "record", "gpu", "ovrdr", "frag",
              "tri max", "held", "draws");
  auto row = [](const std::string& name, const nlohmann::json& p) {
    std::printf(
        "%-9s %8.2f %8.2f %8.2f %8.2f | %6.2f %6.2f %6.2f %6.2f %6.2f | %5.2f %5.2f | %8.0f %4.0f "
        "%5.0f\n",
        name.c_str(), p["frame_ms"]["median"].get<double>(), p["frame_ms"]["p95"].get<double>(),
        p["frame_ms"]["p99"].get<double>(), p["frame_ms"]["max"].get<double>(),
        p["cpu_ms"]["sim"]["median"].get<double>(), p["cpu_ms"]["world"]["median"].get<double>(),
        p["cpu_ms"]["ui"]["median"].get<double>(),
        p["cpu_ms"]["record_submit"]["median"].get<double>(), p["gpu_ms"]["median"].get<double>(),
        p["overdraw"]["median"].get<double>(), p["fragments_per_pixel"]["median"].get<double>(),
        p["triangles"]["max"].get<double>(), p["held_back"]["max"].get<double>(),
        p["draw_calls"]["max"].get<double>());
  };
  for (const auto& [name, p] : out["paths"].items()) row(name, p);
  for (const auto& [name, p] : out["paths"].items()) {
    if (!p.contains("stations") || p["stations"].size() < 2) continue;
    std::printf("%s, per station:\n", name.c_str());
    for (const auto& [station, s] : p["stations"].items()) row("  " + station, s);
  }
  for (const auto& [name, p] : out["paths"].items()) {
    if (!p.contains("world_swap")) continue;
    std::printf(
        "%s: longest frame during a world swap %.2f ms (%zu frames; budget 100 ms on the "
        "software device)\n",
        name.c_str(), p["world_swap"]["max_frame_ms"].get<double>(),
        p["world_swap"]["frames"].get<size_t>());
  }
  std::printf("first frame %.2f s   peak resident %.0f MB   validation errors %u\n", firstFrame_s,
              out["peak_resident_MB"].get<double>(), vkutil::validationErrorCount());
  if (!options.traceOut.empty()) {
    if (auto written = appendTrace(options.traceOut, traceRows.str()); !written) {
      std::fprintf(stderr, "dcwalk: bench: --trace: %s\n", written.error().c_str());
      return EXIT_FAILURE_RUNTIME;
    }
  }
  if (!options.jsonOut.empty()) {
    if (auto written = writeFileAtomic(options.jsonOut, out.dump(2) + "\n"); !written) {
      std::fprintf(stderr, "dcwalk: bench: --json: %s\n", written.error().c_str());
      return EXIT_FAILURE_RUNTIME;
    }
  }
  return reportValidation() ? EXIT_OK : EXIT_FAILURE_RUNTIME;
}

}  // namespace app
