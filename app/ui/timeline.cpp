#include "app/ui/timeline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/ui/ui_text.h"

namespace app {

Timeline timelineOf(const sim::engine::Snapshot& snapshot) {
  Timeline t;
  const sim::engine::TrainingPlan* plan = snapshot.training;
  if (!plan) return t;
  t.training = true;
  t.soFar_s = snapshot.stepElapsed_s;
  t.currentPhase = size_t(snapshot.phase);
  // The phases as the step advances through them now: a straggler's slower clock stretches
  // the pipeline and the optimizer, not the fabric's collective.
  const auto& phase_s = snapshot.phaseDuration_s;
  const double dp_s = plan->dpFlows.empty() ? 0.0 : phase_s[1];
  t.phases = {{"pipeline", phase_s[0]}, {"DP all-reduce", dp_s}, {"optimizer", phase_s[2]}};
  double before_s = 0;
  for (size_t i = 0; i < t.currentPhase; ++i) before_s += t.phases[i].duration_s;
  // A stalled phase (a deadlock, every path down) has no finite duration: it shows as the time
  // spent in it so far, and the cursor stands at its end, now.
  TimelineSegment& current = t.phases[t.currentPhase];
  const bool endless = !std::isfinite(current.duration_s);
  if (endless) current.duration_s = std::max(0.0, t.soFar_s - before_s);
  for (TimelineSegment& phase : t.phases) {
    if (!std::isfinite(phase.duration_s)) phase.duration_s = 0;  // not reached yet
  }
  t.cursor_s = before_s + (endless ? 1.0 : snapshot.phaseFraction) * current.duration_s;
  // The bar is the step as routed now; a step that has run longer than its routed phases up to
  // the cursor (a PFC pause holds it, a phase got slower) is held, by more than the engine's
  // step and the bar's 5 % a person would notice.
  for (const TimelineSegment& phase : t.phases) t.step_s += phase.duration_s;
  const double dt_s = snapshot.desc ? snapshot.desc->dt_s : 0.0;
  t.held = t.soFar_s > t.cursor_s + std::max(2.0 * dt_s, 0.05 * t.step_s);
  t.lastStep_s = snapshot.lastStepTime_s;
  t.faultFreeStep_s = snapshot.faultFreeStepTime_s;

  // The pipeline phase: micro-batch slots of forward + backward compute, TP all-reduces and PP
  // sends, plus the bubble; anything else in the routed phase (EP all-to-alls, congestion, a
  // slower clock) is the rest.
  const double slot_s = plan->microBatchSlot_s;
  const double slots = plan->desc.microBatches;
  const double compute_s = slots * (plan->forward_s + plan->backward_s);
  const double tp_s = slots * plan->tpComm_s;
  const double pp_s = slots * plan->ppSend_s;
  const double bubble_s = plan->pipeline_s - slots * slot_s;
  t.pipeline = {{"compute", compute_s}, {"TP", tp_s}, {"PP", pp_s}, {"bubble", bubble_s}};
  const double rest_s = t.phases[0].duration_s - plan->pipeline_s;
  if (rest_s > 1e-9) t.pipeline.push_back({"all-to-all, slowdowns", rest_s});
  return t;
}

namespace {

std::string percent(double share) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %%", 100 * share);
  return text;
}

}  // namespace

Timeline traceTimelineOf(const sim::trace::RankTrace& rank,
                         const std::vector<sim::trace::Breakdown>& perStep,
                         const sim::trace::Breakdown& whole, int64_t local_ns) {
  Timeline t;
  t.training = true;
  t.measured = true;
  t.rank = rank.rank;
  const sim::trace::Breakdown* shown = &whole;
  int64_t start_ns = 0, end_ns = 0;
  for (size_t i = 0; i < rank.steps.size() && i < perStep.size(); ++i) {
    const sim::trace::StepWindow& w = rank.steps[i];
    if (w.gpuEvents > 0 && local_ns >= w.start_ns && local_ns < w.end_ns) {
      shown = &perStep[i];
      t.stepNumber = w.number;
      start_ns = w.start_ns;
      end_ns = w.end_ns;
      break;
    }
  }
  const sim::trace::Times& b = shown->times;
  if (t.stepNumber < 0) end_ns = static_cast<int64_t>(std::llround(b.span_s * 1e9));
  // The overlapping unions made exclusive: compute covers what runs under it, exposed
  // communication is NCCL with nothing computing, idle is nothing at all, and the rest of the
  // window is memcpy/memset alone.
  const double alone_s =
      std::max(0.0, b.span_s - b.compute_s - b.exposedCommunication_s - b.idle_s);
  t.phases = {{"compute", b.compute_s},
              {"exposed communication", b.exposedCommunication_s},
              {"memcpy", alone_s},
              {"idle", b.idle_s}};
  t.step_s = b.span_s;
  t.lastStep_s = b.span_s;
  t.pipeline = {
      {"GEMM", b.gemm_s}, {"attention", b.attention_s}, {"other kernels", b.otherCompute_s}};
  const double window_ns = double(std::max<int64_t>(1, end_ns - start_ns));
  t.cursor_s = std::clamp(double(local_ns - start_ns) / window_ns, 0.0, 1.0) * t.step_s;
  double before_s = 0;
  for (size_t i = 0; i < t.phases.size(); ++i) {
    t.currentPhase = i;
    before_s += t.phases[i].duration_s;
    if (t.cursor_s < before_s) break;
  }
  t.measuredShares = sim::trace::measuredShares(*shown);
  return t;
}

std::vector<std::string> comparisonLines(const sim::trace::StepShares& measured,
                                         const sim::trace::StepShares& modelled,
                                         const std::string& language) {
  const std::vector<sim::trace::ShareGap> gaps = sim::trace::shareGaps(measured, modelled);
  auto name = [&](const std::string& quantity) {
    return std::string(uiText("segment." + quantity, language));
  };
  // In the panel's fixed order (compute, exposed communication, idle), not the gaps' order:
  // "compute 17.7 / 37.1 %".
  std::string shares;
  for (const char* quantity : {"compute", "exposed communication", "idle"}) {
    for (const sim::trace::ShareGap& g : gaps) {
      if (g.quantity != quantity) continue;
      char pair[64];
      std::snprintf(pair, sizeof pair, " %.1f / %.1f %%", 100 * g.measured, 100 * g.modelled);
      shares += (shares.empty() ? "" : "   ") + name(g.quantity) + pair;
    }
  }
  const sim::trace::ShareGap& largest = gaps.front();
  std::string gap = withValue(uiText("compare.gap", language), name(largest.quantity));
  gap += ": " + withValue(uiText("compare.measured", language), percent(largest.measured)) + ", " +
         withValue(uiText("compare.modelled", language), percent(largest.modelled));
  return {uiText("compare.title", language), shares, gap};
}

}  // namespace app
