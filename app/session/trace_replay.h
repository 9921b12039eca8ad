// A trace replay beside the simulation (`--trace FILE...` on tour, shot and window): owns the
// sim::trace::Replay and its clock (seconds from the first GPU event), advances it with the sim
// host's speed and pause, and writes the replayed window into each frame's snapshot, so the
// world, its overlays, traffic and glow show the traced job through the path they always use.
// The measured vs modelled comparison of the same scenario is kept here for the panel and HUD.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/ui/timeline.h"
#include "sim/catalog.h"
#include "sim/engine/snapshot.h"
#include "sim/result.h"
#include "sim/trace/compare.h"
#include "sim/trace/replay.h"

namespace app {

/// What the command line asked to replay (empty files: no replay).
struct TraceRequest {
  std::vector<std::string> files;
  std::string rankLayout;        // "tp=8,pp=2,dp=8", or ""
  std::string rankMap;           // a rank -> GPU file, or ""
  std::optional<double> time_s;  // --time: seconds from the first GPU event
  std::optional<int64_t> step;   // --step: start at ProfilerStep#N
  bool active() const { return !files.empty(); }
};

/// The measured vs modelled rows of one traced rank.
struct TraceComparison {
  std::string file;
  int64_t rank = 0;
  sim::trace::StepShares measured, modelled;
  std::string gap;  // gapText
};

class ReplayHost {
 public:
  /// Loads the traces and places them on `snapshot`'s cluster (taken from the session's engine);
  /// errors name the file or flag and the field (the caller exits 2).
  /// Without --rank-layout or --rank-map rank r runs on GPU firstGpu + r (the session passes
  /// the hero rack's open tray, whose GPUs the world draws one by one).
  static sim::Result<std::unique_ptr<ReplayHost>> open(const TraceRequest& request,
                                                       const sim::engine::Snapshot& snapshot,
                                                       const sim::Catalog& catalog,
                                                       uint32_t firstGpu = 0);

  /// Moves the trace clock by `dt_s` wall seconds x `speed` (not when paused); past the end of
  /// the trace it starts again at the beginning.
  void advance(double dt_s, double speed, bool paused);
  /// Writes the window [now, now + max(the frame's trace time, a still's window)) into
  /// `snapshot` (Replay::apply).
  void apply(sim::engine::Snapshot& snapshot);

  double time_s() const { return double(m_now_ns) * 1e-9; }
  double span_s() const { return double(m_replay.span_ns()) * 1e-9; }
  const sim::trace::Replay& replay() const { return m_replay; }
  /// The ProfilerStep the clock is in on the first traced rank, or -1.
  int64_t currentStep() const;
  /// "trace replay  t = 0.512 s of 1.231 s  ProfilerStep#5  2 of 128 ranks traced (GPUs 0-1)".
  std::string status() const;
  /// Device notes (a device the catalog lacks, no device named), one per distinct note.
  const std::vector<std::string>& notes() const { return m_notes; }
  /// Measured vs modelled per traced rank (empty when the scenario is not a training job).
  const std::vector<TraceComparison>& comparisons() const { return m_comparisons; }
  /// The step timeline of the first traced rank where the clock is (its ProfilerStep, else the
  /// whole trace), with the measured vs modelled lines of that step in `language`.
  Timeline timeline(const std::string& language) const;
  /// `text` with its trace placeholders ("{trace.measured.idle}", narration.h) filled from the
  /// step timeline() shows and the model's step; others stay as they are.
  std::string narrate(const std::string& text) const;

 private:
  explicit ReplayHost(sim::trace::Replay replay) : m_replay(std::move(replay)) {}
  sim::trace::Replay m_replay;
  int64_t m_now_ns = 0;
  int64_t m_frame_ns = 0;  // trace time the last advance moved
  std::vector<std::string> m_notes;
  std::vector<TraceComparison> m_comparisons;
  // The first traced rank's breakdowns, per step and whole, for the timeline.
  std::vector<sim::trace::Breakdown> m_stepBreakdowns;
  sim::trace::Breakdown m_wholeBreakdown;
};

/// The step timeline a mode shows: the replay's with --trace, else the engine's.
Timeline stepTimeline(const ReplayHost* replay, const sim::engine::Snapshot& snapshot,
                      const std::string& language);

/// Measured vs modelled for every rank of `ranks` against the training plan of `snapshot` (empty
/// for an inference scenario); over ProfilerStep#step when given, else the whole trace.
std::vector<TraceComparison> compareWithModel(const std::vector<sim::trace::RankTrace>& ranks,
                                              const sim::engine::Snapshot& snapshot,
                                              std::optional<int64_t> step);

}  // namespace app
