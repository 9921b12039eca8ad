#include "app/session/sim_host.h"

#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace app {

using sim::engine::Engine;
using sim::engine::EngineRequest;

namespace {

// The engine description the host runs for `request`.
sim::Result<sim::engine::EngineDesc> hostDesc(const EngineRequest& request) {
  auto desc = sim::engine::engineDescOf(request);
  if (desc) desc->seriesCapacity = SimHost::SERIES_ROWS;
  return desc;
}

sim::Result<std::unique_ptr<Engine>> createEngine(const sim::Catalog& catalog,
                                                  const EngineRequest& request) {
  auto desc = hostDesc(request);
  if (!desc) return sim::Result<std::unique_ptr<Engine>>::failure(desc.error());
  return Engine::create(catalog, *desc);
}

}  // namespace

sim::Result<std::unique_ptr<SimHost>> SimHost::create(const sim::Catalog& catalog,
                                                      EngineRequest request) {
  auto engine = createEngine(catalog, request);
  if (!engine) return sim::Result<std::unique_ptr<SimHost>>::failure(engine.error());
  std::unique_ptr<SimHost> host(new SimHost(catalog));
  host->m_engine = std::move(*engine);
  host->m_request = std::move(request);
  host->m_campusRacks = host->m_engine->cluster().campusRacks;
  return host;
}

void SimHost::keepCheckpoints(bool on) {
  m_keepCheckpoints = on;
  if (!on) m_checkpoints.clear();
}

void SimHost::say(std::string text, bool error, ClearedChanges cleared) {
  m_notice.text = std::move(text);
  m_notice.error = error;
  m_notice.cleared = std::move(cleared);
  ++m_notice.serial;
  if (error) std::fprintf(stderr, "dcwalk: %s\n", m_notice.text.c_str());
}

void SimHost::applyCommands() {
  m_stepsLastApply = 0;
  std::vector<SimCommand> commands;
  commands.swap(m_queue);
  for (const SimCommand& c : commands) apply(c);
  if (!m_pending) return;
  // One slice of the catch-up; the engine on screen waits for it.
  const uint64_t limit = m_stepsLastApply + CATCH_UP_STEPS;
  while (m_pending->time_s() < m_pendingTarget_s && m_stepsLastApply < limit) {
    stepAndCheckpoint(*m_pending, &m_pendingCheckpoints);
    ++m_stepsLastApply;
  }
  if (m_pending->time_s() >= m_pendingTarget_s) {
    // Checkpoints of the old run from before the rerun's start stay true for the new one.
    std::vector<Checkpoint> kept;
    for (Checkpoint& c : m_checkpoints)
      if (c.time_s <= m_pendingFrom_s) kept.push_back(std::move(c));
    for (Checkpoint& c : m_pendingCheckpoints) kept.push_back(std::move(c));
    m_checkpoints = std::move(kept);
    m_pendingCheckpoints.clear();
    swapIn(std::move(m_pending), std::move(m_pendingRequest));
    if (!m_pendingDone.empty()) say(std::move(m_pendingDone), false);
    m_pendingDone.clear();
  }
}

void SimHost::applyNow(const std::vector<SimCommand>& commands) {
  for (const SimCommand& c : commands) apply(c);
}

void SimHost::apply(const SimCommand& c) {
  switch (c.kind) {
    case SimCommand::Kind::Restart:
      if (c.designed) {
        follow(c);
      } else {
        restart(c.request, c.resumeNow, c.done);
      }
      break;
    case SimCommand::Kind::Scrub:
      scrub(c.value);
      break;
    case SimCommand::Kind::Step: {
      if (m_pending) break;  // the engine on screen waits for the catch-up
      // A step one can see: to the next phase of the training step (the timeline's segments),
      // at most STEP_NUDGE_S of simulated time (a service's phase never changes).
      const double phase = m_engine->snapshot().aggregates.phase;
      const double until_s = m_engine->time_s() + STEP_NUDGE_S;
      do {
        stepAndCheckpoint(*m_engine, &m_checkpoints);
        ++m_stepsLastApply;
      } while (m_engine->snapshot().aggregates.phase == phase &&
               m_engine->time_s() < until_s - 1e-9);
      break;
    }
    case SimCommand::Kind::SetPaused:
      m_paused = c.value != 0;
      break;
    case SimCommand::Kind::TogglePause:
      m_paused = !m_paused;
      break;
    case SimCommand::Kind::RunTo:
      runTo(c.value);  // refused with a notice when not finite or beyond the budget
      break;
    case SimCommand::Kind::RunFor:
      runTo(m_engine->time_s() + c.value);
      break;
    case SimCommand::Kind::ScaleSpeed:
      if (std::isfinite(c.value) && c.value > 0)
        m_speed = std::clamp(m_speed * c.value, MIN_SPEED, MAX_SPEED);
      break;
  }
}

void SimHost::follow(const SimCommand& c) {
  // The same designed simulation as the step before: the visitor's faults and fields stay.
  if (m_designed && c.request == *m_designed) return;
  const EngineRequest& running =
      m_awaiting ? m_awaitingRequest : (m_pending ? m_pendingRequest : m_request);
  // What the visitor added on top of the last design (all of it before the first design).
  ClearedChanges cleared;
  cleared.chapter = c.done;
  const EngineRequest base = m_designed.value_or(EngineRequest{running.scenario, {}, {}});
  for (const sim::engine::FaultDesc& f : running.faults) {
    if (f.end_s <= m_engine->time_s()) continue;  // one the visitor had cleared: nothing to undo
    const bool designed = std::find(base.faults.begin(), base.faults.end(), f) != base.faults.end();
    const bool kept =
        std::find(c.request.faults.begin(), c.request.faults.end(), f) != c.request.faults.end();
    if (!designed && !kept) cleared.faults.push_back(f);
  }
  if (running.scenario != base.scenario && running.scenario != c.request.scenario)
    cleared.scenario = running.scenario;
  cleared.fields = running.overrides != base.overrides && running.overrides != c.request.overrides;
  m_designed = c.request;
  if (c.request == running) return;  // what runs already
  restart(c.request, false, {});
  if (!cleared.empty()) say({}, false, std::move(cleared));
}

void SimHost::restart(const EngineRequest& request, bool resumeNow, const std::string& done) {
  auto desc = hostDesc(request);
  if (!desc) {
    say(desc.error(), true);
    return;
  }
  const double now_s = m_engine->time_s();
  const bool sameRun =
      request.scenario == m_request.scenario && request.overrides == m_request.overrides;
  if (!resumeNow || !sameRun) {
    auto engine = Engine::create(*m_catalog, *desc);
    if (!engine) {
      say(engine.error(), true);
      return;
    }
    const WorldFit fit = fitOf((*engine)->cluster());
    if (fit.kind == WorldFit::Kind::Refuse) {
      say(fit.why, true);
      return;
    }
    m_pending.reset();   // a newer request replaces a catch-up in progress ...
    m_awaiting.reset();  // ... and an engine waiting for its world
    if (fit.kind == WorldFit::Kind::Rebuild) {
      // Another world: this engine starts at t = 0 once it is built (a fault "now" on another
      // system has no now to keep); until then the old engine runs on the old world.
      m_awaiting = std::move(*engine);
      m_awaitingRequest = request;
      m_awaitingDone = done;
      ++m_awaitingSerial;
      return;
    }
    m_checkpoints.clear();
    ++m_run;
    if (resumeNow && now_s > 0) {
      catchUp(std::move(*engine), request, now_s, done);
    } else {
      swapIn(std::move(*engine), request);
      if (!done.empty()) say(done, false);
    }
    return;
  }
  // The same run with other faults: the two agree until the first fault that differs.
  const auto current = hostDesc(m_request);
  const double diverges_s =
      current ? sim::engine::firstDifference_s(current->faults, desc->faults) : 0.0;
  if (!m_pending && diverges_s >= now_s) {
    // Nothing has happened differently yet: the running engine takes the new faults as it is.
    if (auto replaced = m_engine->replaceFaults(desc->faults); !replaced) {
      say(replaced.error(), true);
      return;
    }
    m_request = request;
    ++m_generation;
    if (!done.empty()) say(done, false);
    return;
  }
  const EngineRequest previous = m_request;
  m_request = request;  // restoreBefore gives checkpoints this request's faults
  auto from = restoreBefore(std::min(diverges_s, now_s));
  if (!from) {
    m_request = previous;
    say(from.error(), true);
    return;
  }
  const double target_s = m_pending ? m_pendingTarget_s : now_s;
  m_pending.reset();
  m_request = previous;  // until the catch-up swaps the new run in
  catchUp(std::move(*from), request, target_s, done);
}

WorldFit SimHost::fitOf(const sim::engine::Cluster& cluster) const {
  if (m_worldCheck) return m_worldCheck(cluster);
  if (cluster.campusRacks == m_campusRacks) return {};
  // No session to rebuild the world (a host on its own): the first engine's campus stays.
  return {WorldFit::Kind::Refuse,
          "the engine's cluster has " + std::to_string(cluster.campusRacks) +
              " campus racks; the world has " + std::to_string(m_campusRacks)};
}

void SimHost::acceptAwaiting() {
  if (!m_awaiting) return;
  m_pending.reset();
  m_checkpoints.clear();  // of the old run
  ++m_run;
  m_campusRacks = m_awaiting->cluster().campusRacks;
  swapIn(std::move(m_awaiting), std::move(m_awaitingRequest));
  if (!m_awaitingDone.empty()) say(std::move(m_awaitingDone), false);
  m_awaitingDone.clear();
}

void SimHost::refuseAwaiting(const std::string& why) {
  if (!m_awaiting) return;
  m_awaiting.reset();
  m_awaitingDone.clear();
  say(why, true);
}

void SimHost::scrub(double t_s) {
  if (!std::isfinite(t_s)) return;
  t_s = std::max(0.0, t_s);
  m_pending.reset();
  if (t_s >= m_engine->time_s()) {
    catchUp(m_engine->clone(), m_request, t_s, {});
    return;
  }
  auto from = restoreBefore(t_s);
  if (!from) {
    say("cannot scrub: " + from.error(), true);
    return;
  }
  catchUp(std::move(*from), m_request, t_s, {});
}

void SimHost::catchUp(std::unique_ptr<Engine> from, EngineRequest request, double target_s,
                      std::string done) {
  m_pendingFrom_s = from->time_s();
  m_pendingTarget_s = target_s;
  m_pending = std::move(from);
  m_pendingRequest = std::move(request);
  m_pendingCheckpoints.clear();
  m_pendingDone = done.empty() ? std::string() : done;
  if (m_pending->time_s() >= target_s) {  // nothing to run: swap at once
    m_pendingTarget_s = m_pending->time_s();
  }
}

void SimHost::swapIn(std::unique_ptr<Engine> engine, EngineRequest request) {
  m_engine = std::move(engine);  // the old engine's arrays are freed here
  m_request = std::move(request);
  ++m_generation;
  // glibc keeps freed heap pages resident and, after large frees, raises its mmap threshold so
  // the next engine's arrays come from the heap too: without this, every scenario switch in a
  // booth that runs all day left the resident size a few MB higher (measured with the soak).
  malloc_trim(0);
}

sim::Result<std::unique_ptr<Engine>> SimHost::restoreBefore(double t_s) {
  using R = sim::Result<std::unique_ptr<Engine>>;
  auto desc = hostDesc(m_request);
  if (!desc) return R::failure(desc.error());
  for (auto it = m_checkpoints.rbegin(); it != m_checkpoints.rend(); ++it) {
    if (it->time_s > t_s) continue;
    std::unique_ptr<Engine> copy = it->engine->clone();
    if (copy->replaceFaults(desc->faults)) return R(std::move(copy));
  }
  return Engine::create(*m_catalog, *desc);
}

void SimHost::stepAndCheckpoint(Engine& engine, std::vector<Checkpoint>* checkpoints) {
  const double before_s = engine.time_s();
  engine.step();
  const double mark_s = std::floor(engine.time_s() / CHECKPOINT_EVERY_S) * CHECKPOINT_EVERY_S;
  if (!checkpoints || !m_keepCheckpoints || mark_s <= before_s || mark_s <= 0) return;
  checkpoints->push_back({engine.time_s(), engine.clone()});
  if (checkpoints->size() > MAX_CHECKPOINTS) {
    // The newest half stays CHECKPOINT_EVERY_S apart; every other one of the older half goes, so
    // the spacing grows with age and memory stays bounded.
    std::vector<Checkpoint> thinned;
    const size_t n = checkpoints->size(), old = n - MAX_CHECKPOINTS / 2;
    for (size_t i = 0; i < n; ++i)
      if (i >= old || i % 2 == 1) thinned.push_back(std::move((*checkpoints)[i]));
    *checkpoints = std::move(thinned);
  }
}

void SimHost::runWithCheckpoints(double t_s, SimProgress* progress) {
  constexpr uint64_t STEPS_BETWEEN_CLOCK_READS = 256;
  for (uint64_t n = 1; m_engine->time_s() < t_s; ++n) {
    stepAndCheckpoint(*m_engine, &m_checkpoints);
    if (progress && n % STEPS_BETWEEN_CLOCK_READS == 0) progress->update(m_engine->time_s());
  }
  if (progress) progress->finish(m_engine->time_s());
}

void SimHost::advance(double dt_s) {
  if (m_paused || m_pending || !(dt_s > 0)) return;
  runWithCheckpoints(m_engine->time_s() + dt_s * m_speed);
}

void SimHost::finishCatchUp() {
  while (m_pending) {
    m_stepsLastApply = 0;
    applyCommands();
  }
}

bool SimHost::runTo(double t_s, SimProgress* progress) {
  finishCatchUp();
  if (!std::isfinite(t_s) || t_s - m_engine->time_s() > MAX_COMMAND_SIM_S) {
    char text[160];
    std::snprintf(text, sizeof text,
                  "cannot run the simulation to t = %g s: at most %g s at once (it is at %g s)",
                  t_s, MAX_COMMAND_SIM_S, m_engine->time_s());
    say(text, true);
    return false;
  }
  runWithCheckpoints(t_s, progress);
  return true;
}

double SimHost::catchUpProgress() const {
  if (!m_pending) return 1.0;
  const double span = m_pendingTarget_s - m_pendingFrom_s;
  return span > 0 ? std::clamp((m_pending->time_s() - m_pendingFrom_s) / span, 0.0, 1.0) : 1.0;
}

}  // namespace app
