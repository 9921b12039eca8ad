#include "app/cli/trace_out.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "app/platform/atomic_file.h"
#include "app/session/sim_budget.h"
#include "sim/trace/kineto_writer.h"
#include "sim/trace/serving_trace.h"
#include "sim/trace/training_trace.h"

namespace app {
namespace {

namespace fs = std::filesystem;
using R = sim::Result<ModelTraceRun>;

std::optional<int64_t> wholeNumber(std::string_view text) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 0)
    return std::nullopt;
  return value;
}

std::string seconds(double s) {
  std::ostringstream text;
  text << s << " s";
  return text.str();
}

sim::Result<ModelTraceRun> trainingRun(sim::engine::Engine& e, const TraceOutOptions& o,
                                       double until_s, const std::vector<int64_t>& ranks,
                                       const std::function<void(double)>& progress) {
  const bool window = o.from_s.has_value();
  // By default only the last step is kept (a long run holds many).
  sim::trace::TrainingRecorder recorder(window ? *o.from_s : 0.0, MAX_TRACE_STEPS, !window);
  recorder.observe(e);
  while ((e.time_s() < until_s || (!window && recorder.steps().empty())) &&
         recorder.overflow() == 0) {
    if (e.time_s() >= MAX_COMMAND_SIM_S)
      return R::failure("--trace-out: no training step completed in " + seconds(MAX_COMMAND_SIM_S) +
                        " of simulated time (the job stalls)");
    e.step();
    recorder.observe(e);
    progress(e.time_s());
  }
  if (recorder.overflow() > 0)
    return R::failure("--trace-from " + seconds(*o.from_s) + " --until " + seconds(until_s) +
                      ": the window holds more than " + std::to_string(MAX_TRACE_STEPS) +
                      " training steps; shorten it");
  if (recorder.steps().empty())
    return R::failure("--trace-from " + seconds(*o.from_s) + " --until " + seconds(until_s) +
                      ": no training step begins and ends in the window (the last took " +
                      seconds(e.lastStepTime_s()) + ")");
  const std::vector<int64_t> chosen =
      ranks.empty() ? sim::trace::defaultTrainingRanks(*e.training(), recorder.steps()) : ranks;
  return ModelTraceRun{sim::trace::trainingRanks(e, recorder.steps(), chosen), e.time_s()};
}

sim::Result<ModelTraceRun> servingRun(sim::engine::Engine& e, const TraceOutOptions& o,
                                      double until_s, const std::vector<int64_t>& ranks,
                                      const std::function<void(double)>& progress) {
  if (!o.from_s) until_s = std::max(until_s, DEFAULT_SERVING_WINDOW_S);
  const double from_s = o.from_s.value_or(until_s - DEFAULT_SERVING_WINDOW_S);
  const std::string flags = "--trace-from " + seconds(from_s) + " --until " + seconds(until_s);
  if (until_s - from_s > MAX_SERVING_WINDOW_S)
    return R::failure(flags + ": a serving window of at most " + seconds(MAX_SERVING_WINDOW_S));
  if (until_s - from_s < e.desc().dt_s)
    return R::failure(flags + ": the window is shorter than one engine step (" +
                      seconds(e.desc().dt_s) + ")");
  while (e.time_s() + 0.5 * e.desc().dt_s < from_s) {
    e.step();
    progress(e.time_s());
  }
  const std::vector<int64_t> chosen = ranks.empty() ? sim::trace::defaultServingRanks(e) : ranks;
  std::vector<uint32_t> replicas;
  for (int64_t r : chosen)
    replicas.push_back(static_cast<uint32_t>(r / e.inferencePlan()->desc.tp));
  std::sort(replicas.begin(), replicas.end());
  replicas.erase(std::unique(replicas.begin(), replicas.end()), replicas.end());
  sim::trace::ServingRecorder recorder(from_s, until_s, replicas);
  while (e.time_s() + 0.5 * e.desc().dt_s < until_s) {
    e.step();
    recorder.observe(e);
    progress(e.time_s());
  }
  return ModelTraceRun{sim::trace::servingRanks(e, recorder, chosen), e.time_s()};
}

}  // namespace

std::string checkTraceOutTarget(const std::string& dir) {
  if (dir.empty()) return "--trace-out: needs a folder";
  std::error_code ec;
  const fs::file_status status = fs::status(dir, ec);
  if (fs::exists(status)) {
    if (!fs::is_directory(status)) return "--trace-out " + dir + ": is a file, not a folder";
    if (::access(dir.c_str(), W_OK | X_OK) != 0) return "--trace-out " + dir + ": not writable";
    return "";
  }
  fs::path target(dir);
  if (!target.has_filename()) target = target.parent_path();  // "out/" is "out"
  const fs::path parent = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  if (!fs::exists(parent, ec))
    return "--trace-out " + dir + ": its parent folder " + parent.string() + " does not exist";
  if (!fs::is_directory(parent, ec))
    return "--trace-out " + dir + ": " + parent.string() + " is not a folder";
  return "";
}

sim::Result<std::vector<int64_t>> parseTraceRanks(const std::string& text, int64_t worldSize) {
  using V = sim::Result<std::vector<int64_t>>;
  std::vector<int64_t> ranks;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    start = comma + 1;
    const size_t dash = item.find('-');
    const auto first = wholeNumber(std::string_view(item).substr(0, dash));
    const auto last =
        dash == std::string::npos ? first : wholeNumber(std::string_view(item).substr(dash + 1));
    if (!first || !last || *last < *first)
      return V::failure("--trace-ranks: \"" + item +
                        "\" is not a rank or a range A-B (ranks are whole numbers from 0)");
    if (uint64_t(*last - *first) >= MAX_TRACE_RANKS - std::min(ranks.size(), MAX_TRACE_RANKS))
      return V::failure("--trace-ranks: more than " + std::to_string(MAX_TRACE_RANKS) +
                        " ranks (one file each)");
    for (int64_t r = *first; r <= *last; ++r) {
      if (worldSize >= 0 && r >= worldSize)
        return V::failure("--trace-ranks: rank " + std::to_string(r) +
                          " is not in the job (ranks 0-" + std::to_string(worldSize - 1) + ")");
      if (std::find(ranks.begin(), ranks.end(), r) != ranks.end())
        return V::failure("--trace-ranks: rank " + std::to_string(r) + " given twice");
      ranks.push_back(r);
    }
  }
  return ranks;
}

std::string traceFileName(int64_t rank, bool gzip) {
  return "dcwalk_rank" + std::to_string(rank) + ".pt.trace.json" + (gzip ? ".gz" : "");
}

int64_t traceWorldSize(const sim::engine::Engine& e) {
  if (e.training()) return e.training()->jobGpus;
  return int64_t(e.inferencePlan()->replicas) * e.inferencePlan()->desc.tp;
}

sim::Result<ModelTraceRun> runModelTrace(sim::engine::Engine& e, const TraceOutOptions& o,
                                         double until_s, const std::vector<int64_t>& ranks,
                                         const std::function<void(double)>& progress) {
  if (o.from_s && *o.from_s > until_s && (e.training() || *o.from_s > DEFAULT_SERVING_WINDOW_S))
    return R::failure("--trace-from " + seconds(*o.from_s) + " is after --until " +
                      seconds(until_s));
  return e.training() ? trainingRun(e, o, until_s, ranks, progress)
                      : servingRun(e, o, until_s, ranks, progress);
}

sim::Result<std::vector<std::string>> writeTraceFiles(
    const TraceOutOptions& o, const std::vector<sim::trace::ModelRank>& ranks,
    const std::vector<int64_t>& offsets_ns, const std::string& source) {
  using V = sim::Result<std::vector<std::string>>;
  if (std::string why = checkTraceOutTarget(o.dir); !why.empty()) return V::failure(why);
  for (const sim::trace::ModelRank& r : ranks) {
    if (r.kernels.size() > MAX_TRACE_KERNELS_PER_FILE)
      return V::failure("--trace-out: rank " + std::to_string(r.rank) + "'s window holds " +
                        std::to_string(r.kernels.size()) + " kernels, more than the " +
                        std::to_string(MAX_TRACE_KERNELS_PER_FILE) +
                        " one file may; shorten the window (--trace-from, --until)");
  }
  const fs::path dir(o.dir);
  std::error_code ec;
  const bool created = !fs::exists(dir, ec);
  if (created && ::mkdir(dir.c_str(), 0755) != 0)
    return V::failure("--trace-out " + o.dir +
                      ": cannot create the folder: " + std::strerror(errno));
  std::vector<std::string> written;
  std::string error;
  {
    NewFileSet files;
    for (size_t i = 0; i < ranks.size() && error.empty(); ++i) {
      const fs::path path = dir / traceFileName(ranks[i].rank, o.gzip);
      written.push_back(path.string());
      std::ostringstream text;
      sim::trace::writeKinetoTrace(text, ranks[i],
                                   {i < offsets_ns.size() ? offsets_ns[i] : 0, source});
      try {
        auto added = files.add(path, o.gzip ? sim::trace::gzipText(text.str()) : text.str());
        if (!added) error = added.error();
      } catch (const std::exception& ex) {
        error = path.string() + ": " + ex.what();
      }
    }
    if (error.empty()) {
      auto committed = files.commit();
      if (!committed) error = committed.error();
    }
  }  // the set's uncommitted temporaries are gone here
  if (error.empty()) return written;
  if (created) fs::remove(dir, ec);  // only the empty folder this call made
  return V::failure("--trace-out: " + error + " (nothing written)");
}

}  // namespace app
