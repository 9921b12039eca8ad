#include "app/ui/timeline.h"

#include <algorithm>
#include <cmath>

namespace app {

Timeline timelineOf(const sim::engine::Snapshot& snapshot) {
  Timeline t;
  const sim::engine::TrainingPlan* plan = snapshot.training;
  if (!plan) return t;
  t.training = true;
  // A stalled phase (a deadlock, every path down) has no finite duration: it shows as the time
  // spent in it so far.
  auto finite = [](double s) { return std::isfinite(s) ? s : 0.0; };
  const double pipeline_s = finite(snapshot.pipelineTime_s);
  const double dp_s = plan->dpFlows.empty() ? 0.0 : finite(snapshot.dataParallelExposedTime_s);
  t.phases = {{"pipeline", pipeline_s}, {"DP all-reduce", dp_s}, {"optimizer", plan->optimizer_s}};
  t.currentPhase = size_t(snapshot.phase);
  double before_s = 0;
  for (size_t i = 0; i < t.currentPhase; ++i) before_s += t.phases[i].duration_s;
  t.cursor_s = before_s + snapshot.phaseFraction * t.phases[t.currentPhase].duration_s;
  for (const TimelineSegment& phase : t.phases) t.step_s += phase.duration_s;
  t.step_s = std::max(t.step_s, snapshot.stepElapsed_s);
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
  const double rest_s = pipeline_s - plan->pipeline_s;
  if (rest_s > 1e-9) t.pipeline.push_back({"all-to-all, slowdowns", rest_s});
  return t;
}

}  // namespace app
