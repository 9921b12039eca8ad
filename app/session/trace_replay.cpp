#include "app/session/trace_replay.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/ui/narration.h"
#include "sim/specs.h"
#include "sim/trace/rank_layout.h"

namespace app {
namespace {

using R = sim::Result<std::unique_ptr<ReplayHost>>;

std::vector<std::string> catalogGpuNames(const sim::Catalog& catalog) {
  std::vector<std::string> names;
  for (const std::string& id : catalog.children("gpus")) {
    auto gpu = sim::loadGpu(catalog, id);
    if (gpu) names.push_back(gpu->name);
  }
  return names;
}

std::string stepList(const sim::trace::Replay& replay) {
  const std::vector<int64_t> steps = replay.stepNumbers();
  if (steps.empty()) return "the traces have no ProfilerStep annotations";
  std::string list = "steps: ";
  for (size_t i = 0; i < steps.size() && i < 8; ++i) {
    list += (i ? ", " : "") + std::to_string(steps[i]);
  }
  return list + (steps.size() > 8 ? ", ..." : "");
}

}  // namespace

std::vector<TraceComparison> compareWithModel(const std::vector<sim::trace::RankTrace>& ranks,
                                              const sim::engine::Snapshot& snapshot,
                                              std::optional<int64_t> step) {
  std::vector<TraceComparison> out;
  if (!snapshot.training) return out;
  const sim::trace::StepShares modelled =
      sim::trace::modelledShares(snapshot.training->step, snapshot.training->desc.microBatches);
  for (const sim::trace::RankTrace& r : ranks) {
    const bool hasStep = step && r.step(*step);
    TraceComparison c;
    c.file = r.file;
    c.rank = r.rank;
    c.measured =
        sim::trace::measuredShares(sim::trace::breakdown(r, hasStep ? step : std::nullopt));
    c.modelled = modelled;
    c.gap = sim::trace::gapText(c.measured, c.modelled);
    out.push_back(std::move(c));
  }
  return out;
}

R ReplayHost::open(const TraceRequest& request, const sim::engine::Snapshot& snapshot,
                   const sim::Catalog& catalog, uint32_t firstGpu) {
  const sim::engine::Cluster& cluster = *snapshot.cluster;
  auto loaded = sim::trace::loadRankTraces(request.files);
  if (!loaded) return R::failure("--trace: " + loaded.error());
  std::vector<sim::trace::RankTrace> ranks = std::move(*loaded);
  sim::trace::fillMissingRanks(ranks);
  const int64_t world = ranks.front().worldSize;
  sim::Result<std::vector<uint32_t>> gpus =
      sim::trace::identityPlacement(world, cluster.gpuCount(), firstGpu);
  if (!request.rankMap.empty()) {
    gpus = sim::trace::readRankMapFile(request.rankMap, world, cluster.gpuCount());
    if (!gpus) return R::failure("--rank-map: " + gpus.error());
  } else if (!request.rankLayout.empty()) {
    auto layout = sim::trace::parseRankLayout(request.rankLayout);
    if (!layout) return R::failure("--rank-layout: " + layout.error());
    gpus = sim::trace::placeRanks(world, *layout, cluster.gpusPerRack, cluster.gpuCount());
    if (!gpus) return R::failure("--rank-layout: " + gpus.error());
  } else if (!gpus) {
    return R::failure("--trace: " + gpus.error());
  }
  std::vector<TraceComparison> comparisons = compareWithModel(ranks, snapshot, request.step);
  auto replay = sim::trace::Replay::create(std::move(ranks), std::move(*gpus), cluster);
  if (!replay) return R::failure("--trace: " + replay.error());
  std::unique_ptr<ReplayHost> host(new ReplayHost(std::move(*replay)));
  host->m_comparisons = std::move(comparisons);
  host->m_stepBreakdowns = sim::trace::stepBreakdowns(host->m_replay.ranks().front());
  host->m_wholeBreakdown = sim::trace::breakdown(host->m_replay.ranks().front());
  const sim::trace::Replay& rp = host->m_replay;
  if (request.step) {
    const auto start = rp.stepStart_ns(*request.step);
    if (!start) {
      return R::failure("--step " + std::to_string(*request.step) + ": no traced rank has " +
                        "ProfilerStep#" + std::to_string(*request.step) + " (" + stepList(rp) +
                        ")");
    }
    host->m_now_ns = *start;
  }
  if (request.time_s) {
    const double t = *request.time_s;
    if (!std::isfinite(t) || t < 0 || t * 1e9 > double(rp.span_ns())) {
      char text[160];
      std::snprintf(text, sizeof text, "--time %g: outside the trace, which spans 0 to %.6f s", t,
                    double(rp.span_ns()) * 1e-9);
      return R::failure(text);
    }
    host->m_now_ns += static_cast<int64_t>(std::llround(t * 1e9));
    host->m_now_ns = std::min(host->m_now_ns, rp.span_ns());
  }
  const std::vector<std::string> names = catalogGpuNames(catalog);
  for (const sim::trace::RankTrace& r : rp.ranks()) {
    const std::string note = sim::trace::deviceNote(r.device, cluster.specs.gpu.name, names);
    if (!note.empty() &&
        std::find(host->m_notes.begin(), host->m_notes.end(), note) == host->m_notes.end()) {
      host->m_notes.push_back(note);
    }
  }
  return host;
}

void ReplayHost::advance(double dt_s, double speed, bool paused) {
  m_frame_ns = 0;
  if (paused || !(dt_s > 0) || !(speed > 0)) return;
  m_frame_ns = static_cast<int64_t>(std::min(dt_s * speed, 3600.0) * 1e9);
  m_now_ns += m_frame_ns;
  const int64_t span = m_replay.span_ns();
  if (span > 0 && m_now_ns >= span) m_now_ns %= span;  // the replay loops
}

void ReplayHost::apply(sim::engine::Snapshot& snapshot) {
  const int64_t window = std::max(m_frame_ns, sim::trace::Replay::STILL_WINDOW_NS);
  m_replay.apply(m_now_ns, m_now_ns + window, snapshot);
}

int64_t ReplayHost::currentStep() const {
  if (m_replay.ranks().empty()) return -1;
  const sim::trace::RankTrace& r = m_replay.ranks().front();
  const int64_t local = m_now_ns - m_replay.offset_ns(0);
  for (const sim::trace::StepWindow& w : r.steps) {
    if (w.gpuEvents > 0 && local >= w.start_ns && local < w.end_ns) return w.number;
  }
  return -1;
}

Timeline ReplayHost::timeline(const std::string& language) const {
  Timeline t = traceTimelineOf(m_replay.ranks().front(), m_stepBreakdowns, m_wholeBreakdown,
                               m_now_ns - m_replay.offset_ns(0));
  if (!m_comparisons.empty())
    t.comparison = comparisonLines(t.measuredShares, m_comparisons.front().modelled, language);
  return t;
}

std::string ReplayHost::narrate(const std::string& text) const {
  const Timeline t = timeline("en");
  NarrationSources sources;
  sources.measured = &t.measuredShares;
  if (!m_comparisons.empty()) sources.modelled = &m_comparisons.front().modelled;
  return fillNarration(text, sources);
}

Timeline stepTimeline(const ReplayHost* replay, const sim::engine::Snapshot& snapshot,
                      const std::string& language) {
  return replay ? replay->timeline(language) : timelineOf(snapshot);
}

std::string ReplayHost::status() const {
  const std::vector<uint32_t>& gpus = m_replay.tracedGpus();
  std::string where;
  for (size_t i = 0; i < gpus.size() && i < 4; ++i) {
    where += (i ? ", " : "") + std::to_string(gpus[i]);
  }
  if (gpus.size() > 4) where += ", ...";
  char text[256];
  std::snprintf(text, sizeof text, "trace replay  t = %.3f s of %.3f s", time_s(), span_s());
  std::string out = text;
  if (const int64_t step = currentStep(); step >= 0)
    out += "  ProfilerStep#" + std::to_string(step);
  out += "  " + std::to_string(gpus.size()) + " of " + std::to_string(m_replay.worldSize()) +
         " ranks traced (GPU " + where + "; the rest: no data)";
  return out;
}

}  // namespace app
