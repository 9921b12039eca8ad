// `dcwalk trace FILE... [--json] [--step N]`: reads PyTorch profiler (Kineto) traces, one file per
// rank, and prints where each rank's GPU time went: the overlapping unions per class (compute,
// communication, exposed communication, memcpy/memset, idle), HTA's exclusive temporal
// breakdown beside them, the NCCL collectives with their sizes, per stream and per ProfilerStep.
// A bad file or flag exits 2 with a message naming it. See docs/trace.md.
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/cli/flag_domains.h"
#include "app/cli/options.h"
#include "app/cli/trace_out.h"
#include "app/session/trace_replay.h"
#include "sim/engine/engine.h"
#include "sim/engine/scenarios.h"
#include "sim/trace/breakdown.h"
#include "sim/trace/rank_trace.h"

namespace app {
namespace {

using sim::trace::Breakdown;
using sim::trace::RankTrace;

struct TraceOptions {
  std::vector<std::string> files;
  bool json = false;
  std::optional<int64_t> step;
  std::string scenario;      // an engine scenario: its training model beside the measured step
  TraceOutOptions traceOut;  // --trace-out: the scenario's modelled step for the traced ranks
};

int fail(const std::string& message) {
  std::cerr << "dcwalk trace: " << message << "\n";
  return EXIT_BAD_INPUT;
}

nlohmann::ordered_json htaJson(const sim::trace::HtaTimes& h) {
  return {
      {"kernel_time_s", h.kernelTime_s},   {"idle_s", h.idle_s},    {"compute_s", h.compute_s},
      {"non_compute_s", h.nonCompute_s},   {"idle_pct", h.idlePct}, {"compute_pct", h.computePct},
      {"non_compute_pct", h.nonComputePct}};
}

// The breakdown's figures as JSON members of `out` (the issue's names, seconds).
void timesJson(nlohmann::ordered_json& out, const Breakdown& b) {
  const sim::trace::Times& t = b.times;
  out["gpu_events"] = b.gpuEvents;
  out["span_s"] = t.span_s;
  out["compute_s"] = t.compute_s;
  out["compute_gemm_s"] = t.gemm_s;
  out["compute_attention_s"] = t.attention_s;
  out["compute_other_s"] = t.otherCompute_s;
  out["communication_s"] = t.communication_s;
  out["exposed_communication_s"] = t.exposedCommunication_s;
  out["memcpy_s"] = t.memcpy_s;
  out["idle_s"] = t.idle_s;
  out["hta_temporal_breakdown"] = htaJson(b.hta);
  nlohmann::ordered_json collectives = nlohmann::ordered_json::array();
  for (const sim::trace::CollectiveSummary& c : b.collectives) {
    nlohmann::ordered_json j{{"kind", c.kind}, {"count", c.count}};
    if (!c.algorithm.empty()) j["algorithm"] = c.algorithm;
    if (!c.protocol.empty()) j["protocol"] = c.protocol;
    if (c.bytesKnown > 0) j["bytes"] = c.bytes;
    j["bytes_known_count"] = c.bytesKnown;
    j["time_s"] = c.time_s;
    collectives.push_back(std::move(j));
  }
  out["collectives"] = std::move(collectives);
}

nlohmann::ordered_json rankJson(const RankTrace& r, const Breakdown& b, bool withSteps) {
  nlohmann::ordered_json out{{"file", r.file},
                             {"rank", r.rank},
                             {"world_size", r.worldSize},
                             {"rank_source", r.rankFromTrace ? "distributedInfo" : "file order"},
                             {"device", r.device}};
  timesJson(out, b);
  nlohmann::ordered_json streams = nlohmann::ordered_json::array();
  for (const sim::trace::StreamSummary& s : b.streams) {
    streams.push_back({{"device", s.stream.device},
                       {"stream", s.stream.stream},
                       {"events", s.events},
                       {"busy_s", s.busy_s},
                       {"compute_s", s.compute_s},
                       {"communication_s", s.communication_s},
                       {"memcpy_s", s.memcpy_s}});
  }
  out["streams"] = std::move(streams);
  if (withSteps) {
    nlohmann::ordered_json steps = nlohmann::ordered_json::array();
    const std::vector<Breakdown> perStep = sim::trace::stepBreakdowns(r);
    for (size_t i = 0; i < r.steps.size(); ++i) {
      nlohmann::ordered_json step{{"step", r.steps[i].number}};
      timesJson(step, perStep[i]);
      steps.push_back(std::move(step));
    }
    out["steps"] = std::move(steps);
  }
  return out;
}

std::string bytesText(int64_t bytes) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1000 && u < 6) {
    v /= 1000;
    ++u;
  }
  char text[32];
  std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.2f %s", v, units[u]);
  return text;
}

std::string line(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string line(const char* format, ...) {
  char text[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof text, format, args);
  va_end(args);
  return text;
}

double pct(double part, double whole) {
  return whole > 0 ? 100.0 * part / whole : 0.0;
}

nlohmann::ordered_json sharesJson(const sim::trace::StepShares& s) {
  return {{"step_s", s.step_s},
          {"compute", s.compute},
          {"exposed_communication", s.exposedCommunication},
          {"idle", s.idle},
          {"other", s.other}};
}

nlohmann::ordered_json comparisonJson(const TraceComparison& c, const std::string& scenario) {
  nlohmann::ordered_json gaps = nlohmann::ordered_json::array();
  for (const sim::trace::ShareGap& g : sim::trace::shareGaps(c.measured, c.modelled)) {
    gaps.push_back({{"quantity", g.quantity}, {"measured", g.measured}, {"modelled", g.modelled}});
  }
  return {{"scenario", scenario},
          {"measured", sharesJson(c.measured)},
          {"modelled", sharesJson(c.modelled)},
          {"gaps", std::move(gaps)},
          {"gap", c.gap}};
}

void printComparison(const TraceComparison& c, const std::string& scenario) {
  std::cout << "  measured vs modelled (" << scenario << "'s training step; shares of the step):\n"
            << line("    %-24s %12.3f ms %12.3f ms\n", "step", c.measured.step_s * 1e3,
                    c.modelled.step_s * 1e3);
  for (const sim::trace::ShareGap& g : sim::trace::shareGaps(c.measured, c.modelled)) {
    std::cout << line("    %-24s %10.1f %%   %10.1f %%\n", g.quantity.c_str(), 100 * g.measured,
                      100 * g.modelled);
  }
  std::cout << "    gap: " << c.gap << "\n";
}

void printRank(const RankTrace& r, const Breakdown& b, const TraceOptions& o) {
  const sim::trace::Times& t = b.times;
  std::cout << r.file << ": rank " << r.rank << " of " << r.worldSize
            << (r.rankFromTrace ? "" : " (from the file order: no distributedInfo)") << ", device "
            << r.device << ", " << b.gpuEvents << " GPU events on " << b.streams.size()
            << " streams" << (o.step ? ", ProfilerStep#" + std::to_string(*o.step) : "") << "\n";
  if (b.gpuEvents == 0) {
    std::cout << "  no GPU events (a CPU-only rank, or a step that launched nothing)\n";
  }
  const double span = t.span_s;
  std::cout << "  overlapping unions over all streams (each class counted in full where classes "
               "run at once):\n"
            << line("    %-24s %12.3f ms\n", "span", span * 1e3)
            << line("    %-24s %12.3f ms %6.1f %%  (gemm %.3f, attention %.3f, other %.3f ms)\n",
                    "compute", t.compute_s * 1e3, pct(t.compute_s, span), t.gemm_s * 1e3,
                    t.attention_s * 1e3, t.otherCompute_s * 1e3)
            << line("    %-24s %12.3f ms %6.1f %%\n", "communication (NCCL)",
                    t.communication_s * 1e3, pct(t.communication_s, span))
            << line("    %-24s %12.3f ms %6.1f %%\n", "exposed communication",
                    t.exposedCommunication_s * 1e3, pct(t.exposedCommunication_s, span))
            << line("    %-24s %12.3f ms %6.1f %%\n", "memcpy/memset", t.memcpy_s * 1e3,
                    pct(t.memcpy_s, span))
            << line("    %-24s %12.3f ms %6.1f %%\n", "idle", t.idle_s * 1e3, pct(t.idle_s, span))
            << line(
                   "  HTA temporal breakdown (exclusive, sums to the span): idle %.2f %%, "
                   "compute %.2f %%, non-compute %.2f %%\n",
                   b.hta.idlePct, b.hta.computePct, b.hta.nonComputePct);
  if (!b.collectives.empty()) std::cout << "  collectives:\n";
  for (const sim::trace::CollectiveSummary& c : b.collectives) {
    std::string how = c.algorithm.empty() && c.protocol.empty()
                          ? ""
                          : " " + c.algorithm + (c.protocol.empty() ? "" : "/" + c.protocol);
    std::string size = c.bytesKnown == 0 ? "size unknown"
                                         : bytesText(c.bytes) + " (" +
                                               std::to_string(c.bytesKnown) + " with sizes)";
    std::cout << line("    %-28s %6lld calls  %-28s %10.3f ms\n", (c.kind + how).c_str(),
                      static_cast<long long>(c.count), size.c_str(), c.time_s * 1e3);
  }
  std::cout << "  streams:\n";
  for (const sim::trace::StreamSummary& s : b.streams) {
    std::cout << line(
        "    device %-3lld stream %-6lld %7lld events  busy %10.3f ms  compute "
        "%10.3f  communication %10.3f  memcpy %8.3f ms\n",
        static_cast<long long>(s.stream.device), static_cast<long long>(s.stream.stream),
        static_cast<long long>(s.events), s.busy_s * 1e3, s.compute_s * 1e3,
        s.communication_s * 1e3, s.memcpy_s * 1e3);
  }
  if (!o.step && !r.steps.empty()) {
    std::cout << "  steps (GPU window of what each ProfilerStep launched; % of that window):\n";
    const std::vector<Breakdown> perStep = sim::trace::stepBreakdowns(r);
    for (size_t i = 0; i < r.steps.size(); ++i) {
      const sim::trace::StepWindow& w = r.steps[i];
      const Breakdown& s = perStep[i];
      const double sp = s.times.span_s;
      std::cout << line(
          "    #%-8lld span %10.3f ms  compute %5.1f %%  communication %5.1f %%  "
          "exposed %5.1f %%  memcpy %5.1f %%  idle %5.1f %%\n",
          static_cast<long long>(w.number), sp * 1e3, pct(s.times.compute_s, sp),
          pct(s.times.communication_s, sp), pct(s.times.exposedCommunication_s, sp),
          pct(s.times.memcpy_s, sp), pct(s.times.idle_s, sp));
    }
  }
  if (r.gpuWithoutTime > 0) {
    std::cout << "  note: " << r.gpuWithoutTime << " GPU events without ts or dur were dropped\n";
  }
}

std::string stepList(const RankTrace& r) {
  if (r.steps.empty()) return "it has no ProfilerStep annotations";
  std::string list = "its steps: ";
  for (size_t i = 0; i < r.steps.size(); ++i) {
    if (i == 8) return list + ", ...";
    list += (i ? ", " : "") + std::to_string(r.steps[i].number);
  }
  return list;
}

// --trace-out: the scenario's modelled step for the same ranks as the real files, each on its
// real rank's clock (from its first GPU event, or --step's window), to open beside it.
int writeModelledRanks(const TraceOptions& o, const std::vector<RankTrace>& real,
                       sim::engine::Engine& engine) {
  if (std::string why = checkTraceOutTarget(o.traceOut.dir); !why.empty()) return fail(why);
  std::vector<int64_t> ranks, offsets;
  for (const RankTrace& r : real) {
    if (r.rank >= traceWorldSize(engine))
      return fail("--trace-out: " + r.file + " is rank " + std::to_string(r.rank) + ", but " +
                  o.scenario + "'s job has ranks 0-" + std::to_string(traceWorldSize(engine) - 1));
    ranks.push_back(r.rank);
    const sim::trace::StepWindow* step = o.step ? r.step(*o.step) : nullptr;
    offsets.push_back(std::max<int64_t>(0, r.originNs + (step ? step->start_ns : 0)));
  }
  auto run = runModelTrace(engine, o.traceOut, 0.0, ranks, [](double) {});
  if (!run) return fail(run.error());
  auto written = writeTraceFiles(o.traceOut, run->ranks, offsets,
                                 "dcwalk trace --scenario " + o.scenario + " --trace-out");
  if (!written) return fail(written.error());
  for (const std::string& file : *written) std::cerr << "dcwalk trace: wrote " << file << "\n";
  return EXIT_OK;
}

int runTrace(const TraceOptions& o) {
  auto loaded = sim::trace::loadRankTraces(o.files);
  if (!loaded) return fail(loaded.error());
  std::vector<RankTrace> ranks = std::move(*loaded);
  for (const RankTrace& rank : ranks) {
    if (o.step && !rank.step(*o.step)) {
      return fail(rank.file + ": --step " + std::to_string(*o.step) + ": no ProfilerStep#" +
                  std::to_string(*o.step) + " (" + stepList(rank) + ")");
    }
  }
  sim::trace::fillMissingRanks(ranks);
  if (std::string why = sim::trace::rankSetError(ranks); !why.empty()) return fail(why);
  std::vector<TraceComparison> comparisons;
  if (!o.scenario.empty()) {
    auto desc = sim::engine::builtinScenario(o.scenario);
    if (!desc) return fail("--scenario: " + desc.error());
    auto catalog = sim::Catalog::loadDirectory(sim::assetsDir() / "catalog");
    if (!catalog) return fail(catalog.error());
    auto engine = sim::engine::Engine::create(*catalog, *desc);
    if (!engine) return fail("--scenario " + o.scenario + ": " + engine.error());
    const sim::engine::Snapshot snapshot = (*engine)->snapshot();
    if (!snapshot.training) {
      return fail("--scenario " + o.scenario + ": not a training job (no step to compare)");
    }
    comparisons = compareWithModel(ranks, snapshot, o.step);
    if (!o.traceOut.dir.empty()) {
      if (int status = writeModelledRanks(o, ranks, **engine); status != EXIT_OK) return status;
    }
  }
  nlohmann::ordered_json out{{"files", ranks.size()}};
  if (o.step) out["step"] = *o.step;
  out["ranks"] = nlohmann::ordered_json::array();
  for (size_t i = 0; i < ranks.size(); ++i) {
    const RankTrace& r = ranks[i];
    const Breakdown b = sim::trace::breakdown(r, o.step);
    if (o.json) {
      out["ranks"].push_back(rankJson(r, b, !o.step));
      if (i < comparisons.size()) {
        out["ranks"].back()["measured_vs_modelled"] = comparisonJson(comparisons[i], o.scenario);
      }
    } else {
      printRank(r, b, o);
      if (i < comparisons.size()) printComparison(comparisons[i], o.scenario);
    }
  }
  if (o.json) {
    std::cout << out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
  }
  return EXIT_OK;
}

}  // namespace

Command addTraceCommand(CLI::App& cli) {
  auto options = std::make_shared<TraceOptions>();
  CLI::App* sub = cli.add_subcommand(
      "trace", "where the GPU time of PyTorch profiler (Kineto) traces went, one file per rank");
  sub->add_option("FILE", options->files, "Kineto trace (.json or .json.gz), one per rank")
      ->required()
      ->check(regularFile());
  sub->add_flag("--json", options->json, "Print JSON (times in seconds, sizes in bytes)");
  addNumberOption(*sub, "trace", "--step", options->step,
                  "Only the GPU work launched in ProfilerStep#N");
  sub->add_option("--scenario", options->scenario,
                  "an engine scenario (as shot --scenario): its modelled training step beside "
                  "the measured one, and the largest gap named");
  CLI::Option* traceOut =
      sub->add_option("--trace-out", options->traceOut.dir,
                      "With --scenario: folder to write the scenario's modelled step in, as "
                      "Kineto traces of the same ranks on the same clock (docs/trace.md)")
          ->needs("--scenario");
  sub->add_flag("--gzip", options->traceOut.gzip, "With --trace-out: write .json.gz")
      ->needs(traceOut);
  return Command{sub, [options] { return runTrace(*options); }};
}

}  // namespace app
