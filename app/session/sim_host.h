// The one owner of the running simulation. Everything else (UI panels, keys, tour steps, the
// headless modes) asks for a change with a SimCommand; the host applies the commands queued in
// frame N at the start of frame N+1, so a frame never shows a half-changed world and never
// blocks on a rerun:
//   - a restart with a new request at t = 0 swaps in a fresh engine at once, unless its cluster
//     needs another world (another system, other campus racks): then it waits, at t = 0, while
//     the session rebuilds the world, and the old engine keeps running on the old world until
//     the new world and the new engine are swapped in at the same frame boundary;
//   - a change "now" (a fault injected or cleared) or a scrub restores the newest checkpoint
//     from before the change (one every CHECKPOINT_EVERY_S simulated seconds) and catches up to
//     the target in slices of at most CATCH_UP_STEPS engine steps a frame, while the old engine
//     stays on screen, paused; then the caught-up engine is swapped in.
// Every swap raises the generation, which the world, the HUD and the panels carry, so a test
// can see that a frame shows one simulation throughout.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/session/sim_budget.h"
#include "app/ui/sim_command.h"
#include "sim/catalog.h"
#include "sim/engine/engine.h"
#include "sim/engine/request.h"
#include "sim/result.h"

namespace app {

/// What the visitor had changed and a tour step's designed simulation replaced.
struct ClearedChanges {
  std::string chapter;                         // the step's chapter (SimCommand::done of follow)
  std::vector<sim::engine::FaultDesc> faults;  // injected by the visitor
  std::string scenario;                        // the visitor's own scenario ("" = the tour's)
  bool fields = false;                         // the visitor's field overrides
  bool empty() const { return faults.empty() && scenario.empty() && !fields; }
};

/// What the host says about the last commands: taken, or refused (and why), or what a tour
/// step cleared (the UI words it in its language).
struct SimNotice {
  std::string text;
  bool error = false;
  ClearedChanges cleared;
  uint64_t serial = 0;  // grows with every notice
};

/// What the world on screen makes of a new engine's cluster: it draws it as it is, it must be
/// rebuilt for it, or it cannot draw it (`why` says why).
struct WorldFit {
  enum class Kind { Fits, Rebuild, Refuse };
  Kind kind = Kind::Fits;
  std::string why;
};

class SimHost {
 public:
  static constexpr double CHECKPOINT_EVERY_S = 10.0;  // simulated seconds between checkpoints
  static constexpr size_t MAX_CHECKPOINTS = 8;        // beyond it, older ones are thinned out
  // Rows of the aggregate series an engine keeps (nothing interactive reads the series; the
  // engine's default, 20,000 rows of 176 bytes, would make every checkpoint 3.5 MB bigger).
  static constexpr uint32_t SERIES_ROWS = 64;
  static constexpr uint64_t CATCH_UP_STEPS = 256;  // engine steps a frame, at most, to catch up
  static constexpr double STEP_NUDGE_S = 0.5;      // Step (N): at most this far, else a phase
  static constexpr double MIN_SPEED = 0.01;        // simulated seconds per wall second
  static constexpr double MAX_SPEED = 100.0;       // 100 engine steps a frame at 30 fps

  /// Starts `request` at t = 0. Without a world check (setWorldCheck) every later engine must
  /// have the same campus racks as this one; a request that changes them is refused with a notice.
  static sim::Result<std::unique_ptr<SimHost>> create(const sim::Catalog& catalog,
                                                      sim::engine::EngineRequest request);

  /// Checkpoints are kept (off by default): the window turns them on, since only it scrubs back
  /// and asks for changes in the past; booth mode and the headless modes never need them.
  void keepCheckpoints(bool on);

  using WorldCheck = std::function<WorldFit(const sim::engine::Cluster&)>;
  /// The session's answer for every fresh engine (openSession installs it): an engine that
  /// needs another world waits as awaitingWorld(); one the world cannot draw is refused.
  void setWorldCheck(WorldCheck check) { m_worldCheck = std::move(check); }
  /// The restarted engine waiting for its world (at t = 0, never stepped), or nullptr.
  const sim::engine::Engine* awaitingWorld() const { return m_awaiting.get(); }
  const sim::engine::EngineRequest& awaitingRequest() const { return m_awaitingRequest; }
  /// Grows with every engine that starts to wait (a newer one replaces an older one).
  uint64_t awaitingSerial() const { return m_awaitingSerial; }
  /// The world for the awaiting engine is on screen from the next frame: it replaces the
  /// running engine (checkpoints of the old run are dropped).
  void acceptAwaiting();
  /// The world for it could not be built: it is dropped, with `why` as an error notice.
  void refuseAwaiting(const std::string& why);

  /// Queues a command for the start of the next frame.
  void queue(SimCommand command) { m_queue.push_back(std::move(command)); }
  /// Frame stage 1: applies the queued commands in order, then a slice of any catch-up.
  void applyCommands();
  /// Applies `commands` now, in order (frame stage 2: what the tour's clock brings).
  void applyNow(const std::vector<SimCommand>& commands);
  /// Frame stage 2: advances the simulation `dt_s` wall seconds x the speed (not when paused or
  /// catching up).
  void advance(double dt_s);
  /// Headless: finishes any catch-up now, however long it takes.
  void finishCatchUp();
  /// Headless: runs the current engine to `t_s` at once (checkpoints taken on the way), telling
  /// `progress` (when given) as it goes. A target more than MAX_COMMAND_SIM_S (sim_budget.h)
  /// ahead of the engine, or not finite, is refused with an error notice: false.
  bool runTo(double t_s, SimProgress* progress = nullptr);

  sim::engine::Snapshot snapshot() const { return m_engine->snapshot(); }
  /// Raised by every engine swap (restart, scrub, caught-up rerun).
  uint64_t generation() const { return m_generation; }
  /// Raised when another run begins from t = 0 (a restart that is not the running one with other
  /// faults, an engine for another world swapped in); not by a scrub or faults changed in a run.
  uint64_t run() const { return m_run; }
  const sim::engine::EngineRequest& request() const { return m_request; }
  double time_s() const { return m_engine->time_s(); }
  bool paused() const { return m_paused; }
  double speed() const { return m_speed; }
  /// Catching up: the engine on screen stands still until the rerun reaches `catchUpTarget_s`.
  bool catchingUp() const { return m_pending != nullptr; }
  double catchUpTarget_s() const { return m_pendingTarget_s; }
  /// Share of the catch-up done (0..1).
  double catchUpProgress() const;
  /// Engine steps taken by the last applyCommands (catch-up slices and Step commands).
  uint64_t stepsLastApply() const { return m_stepsLastApply; }
  /// The latest notice (e.g. "Injected pump_trip:0@605", or why a request was refused).
  const SimNotice& notice() const { return m_notice; }
  /// Checkpoints held now (for tests: memory stays bounded).
  size_t checkpointCount() const { return m_checkpoints.size(); }

  /// The running engine, for the command-line modes that print its figures (shot, bench); the
  /// UI reads snapshot() only.
  const sim::engine::Engine& engine() const { return *m_engine; }

 private:
  SimHost(const sim::Catalog& catalog) : m_catalog(&catalog) {}
  struct Checkpoint {
    double time_s;
    std::unique_ptr<sim::engine::Engine> engine;
  };
  void apply(const SimCommand& command);
  void follow(const SimCommand& command);
  void restart(const sim::engine::EngineRequest& request, bool resumeNow, const std::string& done);
  void scrub(double t_s);
  /// Starts catching up from `from` to `target_s`; `request` is what it runs.
  void catchUp(std::unique_ptr<sim::engine::Engine> from, sim::engine::EngineRequest request,
               double target_s, std::string done);
  void swapIn(std::unique_ptr<sim::engine::Engine> engine, sim::engine::EngineRequest request);
  /// The newest checkpoint at or before `t_s` (copied), or a fresh engine at 0.
  sim::Result<std::unique_ptr<sim::engine::Engine>> restoreBefore(double t_s);
  void stepAndCheckpoint(sim::engine::Engine& engine, std::vector<Checkpoint>* checkpoints);
  void runWithCheckpoints(double t_s, SimProgress* progress = nullptr);
  void say(std::string text, bool error, ClearedChanges cleared = {});
  WorldFit fitOf(const sim::engine::Cluster& cluster) const;

  const sim::Catalog* m_catalog;
  std::unique_ptr<sim::engine::Engine> m_engine;
  sim::engine::EngineRequest m_request;
  // The tour step's designed simulation last followed; the visitor's changes on top of it
  // survive until a step designs another one.
  std::optional<sim::engine::EngineRequest> m_designed;
  uint32_t m_campusRacks = 0;
  uint64_t m_generation = 1;
  uint64_t m_run = 1;
  std::vector<Checkpoint> m_checkpoints;  // of m_request's run, oldest first
  bool m_keepCheckpoints = false;
  std::vector<SimCommand> m_queue;
  bool m_paused = false;
  double m_speed = 1.0;
  // Catch-up.
  std::unique_ptr<sim::engine::Engine> m_pending;
  sim::engine::EngineRequest m_pendingRequest;
  std::vector<Checkpoint> m_pendingCheckpoints;
  double m_pendingFrom_s = 0, m_pendingTarget_s = 0;
  std::string m_pendingDone;
  uint64_t m_stepsLastApply = 0;
  SimNotice m_notice;
  // An engine waiting for its world.
  WorldCheck m_worldCheck;
  std::unique_ptr<sim::engine::Engine> m_awaiting;
  sim::engine::EngineRequest m_awaitingRequest;
  std::string m_awaitingDone;
  uint64_t m_awaitingSerial = 0;
};

}  // namespace app
