#include "app/modes/soak.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/modes/booth.h"
#include "app/platform/atomic_file.h"
#include "app/platform/process_stats.h"
#include "app/session/exit_status.h"
#include "app/session/frame.h"
#include "app/session/session.h"
#include "app/session/tour_driver.h"
#include "app/session/tour_session.h"
#include "app/session/tour_view.h"
#include "app/ui/tour_panel.h"
#include "renderer/vk/validation.h"

namespace app {
namespace {

// A visitor that keeps the booth busy: watches the attract loop for half the idle timeout,
// touches a key, walks the tour (next every few seconds, a chapter jump, a step back, a
// presenter blank and unblank) for one idle timeout, then walks away so the idle warning and
// the return to attract follow.
class ScriptedVisitor {
 public:
  explicit ScriptedVisitor(const SoakOptions& options)
      : m_attract_s(options.kioskIdle_s / 2),
        m_walk_s(options.kioskIdle_s),
        m_nextEvery_s(std::min(3.0, options.kioskIdle_s / 4)) {}

  /// The inputs for this frame, given the booth's state and the wall time.
  std::vector<KioskEvent> events(KioskState state, double now_s) {
    if (state != m_state) {
      m_state = state;
      m_since_s = now_s;
      m_lastNext_s = now_s;
      m_actions = 0;
    }
    const double in_s = now_s - m_since_s;
    std::vector<KioskEvent> out;
    if (state == KioskState::Attract && in_s >= m_attract_s) {
      out.push_back({KioskInput::AnyKey});
    } else if (state == KioskState::Tour && (in_s < m_walk_s || m_actions % 8 != 0) &&
               now_s - m_lastNext_s >= m_nextEvery_s) {  // a walk ends on a whole round
      m_lastNext_s = now_s;
      // Mostly "next"; now and then the other presenter keys.
      switch (m_actions++ % 8) {
        case 3:
          out.push_back({KioskInput::Chapter, int(m_visits % 10)});
          break;
        case 5:
          out.push_back({KioskInput::Prev});
          break;
        case 6:
        case 7:
          out.push_back({KioskInput::Blank});  // blank, then back
          break;
        default:
          out.push_back({KioskInput::Next});
      }
      if (m_actions == 1) ++m_visits;
    }
    return out;
  }

 private:
  double m_attract_s, m_walk_s, m_nextEvery_s;
  KioskState m_state = KioskState::Attract;
  double m_since_s = 0;
  double m_lastNext_s = 0;
  uint64_t m_actions = 0;
  uint64_t m_visits = 0;
};

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t index = std::min(values.size() - 1, size_t(p * double(values.size() - 1) + 0.5));
  return values[index];
}

}  // namespace

double residentGrowth(const nlohmann::ordered_json& rows) {
  if (rows.empty()) return 0;
  const size_t window = std::max<size_t>(1, rows.size() / 5);
  std::vector<double> first, last;
  for (size_t i = 0; i < window; ++i) {
    first.push_back(rows[i]["resident_bytes"]);
    last.push_back(rows[rows.size() - window + i]["resident_bytes"]);
  }
  const double before = percentile(first, 0.5), after = percentile(last, 0.5);
  return before > 0 ? (after - before) / before : 0;
}

int runSoak(const RenderOptions& render, const SoakOptions& options) {
  Session session;
  if (int status = openSession(render, nullptr, fontPixelsFor(render.height), session)) {
    return status;
  }
  world::TourPlayerDesc playerDesc;
  playerDesc.language = options.language;
  Booth booth(*session.world, options.tour, playerDesc,
              KioskDesc{options.kioskIdle_s, options.kioskWarning_s}, false);
  auto player = booth.attractPlayer();
  if (!player) {
    std::fprintf(stderr, "dcwalk: %s\n", player.error().c_str());
    return EXIT_BAD_INPUT;
  }
  std::error_code ec;
  std::filesystem::create_directories(options.out, ec);
  if (ec) {
    std::fprintf(stderr, "dcwalk: soak: cannot create '%s': %s\n", options.out.c_str(),
                 ec.message().c_str());
    return EXIT_FAILURE_RUNTIME;
  }
  auto panel = TourPanel::load(*session.catalog);
  if (!panel) {
    std::fprintf(stderr, "dcwalk: %s\n", panel.error().c_str());
    return EXIT_BAD_INPUT;
  }
  world::TourPlayerDesc fullDesc = playerDesc;
  fullDesc.reducedMotion = true;
  auto fullTour = makeTourPlayer(*session.world, options.tour, fullDesc);
  if (!fullTour) {
    std::fprintf(stderr, "dcwalk: %s\n", fullTour.error().c_str());
    return EXIT_BAD_INPUT;
  }
  if (auto runs = checkTourRuns(fullTour->tour(), *session.catalog); !runs) {
    std::fprintf(stderr, "dcwalk: %s\n", runs.error().c_str());
    return EXIT_BAD_INPUT;
  }
  if (auto text = checkTourText(fullTour->bundle(), *session.catalog); !text) {
    std::fprintf(stderr, "dcwalk: %s\n", text.error().c_str());
    return EXIT_BAD_INPUT;
  }
  TourDriver driver(std::move(*fullTour));
  TourView view(driver, *panel, options.language);
  view.setInteractive(true);
  view.setTextMode(TextMode::Booth);  // the booth's screen
  ScriptedVisitor visitor(options);
  const VkExtent2D extent{render.width, render.height};
  std::vector<SimCommand> commands;
  // One frame as the booth's screen shows it, submitted offscreen.
  auto renderFrame = [&](double dt) {
    for (SimCommand& c : commands) session.sim->queue(std::move(c));
    commands.clear();
    view.setBooth(booth.blanked(), booth.state() == KioskState::Attract, booth.banner(),
                  booth.hint());
    FrameSpec spec;
    spec.dt_s = dt;
    spec.extent = extent;
    spec.output = FrameOutput::Offscreen;
    runFrame(session, view, spec);
  };

  // Warm-up: every step of the whole tour once (each engine scenario, panel and view), so that
  // what is measured afterwards is growth, not content seen for the first time.
  driver.start(commands, /*cut=*/true);
  do {
    renderFrame(0);
  } while (driver.player().nextStep());
  driver.setPlayer(std::move(*player), commands);
  driver.start(commands, /*cut=*/true);

  using Clock = std::chrono::steady_clock;
  const auto begin = Clock::now();
  const double duration_s = options.minutes * 60.0;
  const double period_s = 1.0 / options.fpsCap;
  auto last = begin;
  double nextReport_s = options.reportEvery_s;
  std::vector<double> windowFrames_ms;
  std::map<std::string, uint64_t> stateFrames;
  uint64_t frames = 0;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  std::printf("dcwalk: soak %.1f min at %ux%u on %s, a report every %.0f s\n", options.minutes,
              extent.width, extent.height, session.renderer->deviceName().c_str(),
              options.reportEvery_s);
  std::fflush(stdout);
  for (;;) {
    const auto frameStart = Clock::now();
    const double now_s = options.frameClock
                             ? double(frames) / options.fpsCap
                             : std::chrono::duration<double>(frameStart - begin).count();
    if (now_s >= duration_s) break;
    const double step_s = options.frameClock
                              ? (frames == 0 ? 0.0 : period_s)
                              : std::chrono::duration<double>(frameStart - last).count();
    last = frameStart;
    booth.update(visitor.events(booth.state(), now_s), step_s, driver, commands);
    renderFrame(std::clamp(step_s, 1e-4, 0.1));
    const double frame_s = std::chrono::duration<double>(Clock::now() - frameStart).count();
    windowFrames_ms.push_back(frame_s * 1e3);
    ++stateFrames[kioskStateName(booth.state())];
    ++frames;

    if (now_s >= nextReport_s) {
      nextReport_s += options.reportEvery_s;
      nlohmann::ordered_json row;
      row["minutes"] = now_s / 60.0;
      row["frames"] = frames;
      row["resident_bytes"] = residentBytes();
      row["frame_p50_ms"] = percentile(windowFrames_ms, 0.50);
      row["frame_p95_ms"] = percentile(windowFrames_ms, 0.95);
      row["validation_errors"] = vkutil::validationErrorCount();
      row["kiosk_state"] = kioskStateName(booth.state());
      row["kiosk_transitions"] = booth.transitions();
      std::printf(
          "dcwalk: soak %6.1f min  %8llu frames  RSS %7.1f MB  frame p50 %5.1f ms  "
          "p95 %5.1f ms  validation %u  kiosk %s (%llu changes)\n",
          now_s / 60.0, static_cast<unsigned long long>(frames),
          double(row["resident_bytes"]) / 1e6, double(row["frame_p50_ms"]),
          double(row["frame_p95_ms"]), vkutil::validationErrorCount(),
          kioskStateName(booth.state()), static_cast<unsigned long long>(booth.transitions()));
      std::fflush(stdout);
      rows.push_back(std::move(row));
      windowFrames_ms.clear();
    }
    const double spent_s = std::chrono::duration<double>(Clock::now() - frameStart).count();
    if (!options.frameClock && spent_s < period_s) {
      std::this_thread::sleep_for(std::chrono::duration<double>(period_s - spent_s));
    }
  }
  session.renderer->waitIdle();

  // Growth is the trend, not one sample: the median resident size of the last fifth of the
  // reports against that of the first fifth (the warm-up is over before the first report).
  // Engine swaps make the size swing by a few MB from minute to minute; a leak moves the median.
  // The peak is reported beside it.
  nlohmann::ordered_json report;
  report["minutes"] = options.minutes;
  report["width"] = extent.width;
  report["height"] = extent.height;
  report["device"] = session.renderer->deviceName();
  report["frames"] = frames;
  report["kiosk_transitions"] = booth.transitions();
  report["frames_by_kiosk_state"] = stateFrames;
  const double growth = residentGrowth(rows);
  if (!rows.empty()) {
    double max_B = 0;
    for (const auto& row : rows) max_B = std::max(max_B, double(row["resident_bytes"]));
    report["first_resident_bytes"] = rows.front()["resident_bytes"];
    report["max_resident_bytes"] = max_B;
  }
  report["final_resident_bytes"] = residentBytes();
  report["resident_growth"] = growth;
  report["validation_errors"] = vkutil::validationErrorCount();
  report["reports"] = rows;
  const auto path = std::filesystem::path(options.out) / "soak.json";
  if (auto written = writeFileAtomic(path, report.dump(2) + "\n"); !written) {
    std::fprintf(stderr, "dcwalk: %s\n", written.error().c_str());
    return EXIT_FAILURE_RUNTIME;
  }
  std::printf(
      "dcwalk: soak done: %llu frames, %llu kiosk changes, memory growth %.2f %% "
      "(limit %.0f %%), %u validation errors; %s\n",
      static_cast<unsigned long long>(frames), static_cast<unsigned long long>(booth.transitions()),
      growth * 100, SOAK_MAX_GROWTH * 100, vkutil::validationErrorCount(), path.c_str());
  const bool clean = reportValidation();
  if (growth > SOAK_MAX_GROWTH) {
    std::fprintf(stderr, "dcwalk: soak: resident memory grew %.2f %% (more than %.0f %%)\n",
                 growth * 100, SOAK_MAX_GROWTH * 100);
    return EXIT_FAILURE_RUNTIME;
  }
  return clean ? EXIT_OK : EXIT_FAILURE_RUNTIME;
}

}  // namespace app
