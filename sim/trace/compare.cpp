#include "sim/trace/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sim::trace {
namespace {

double share(double part, double whole) {
  return whole > 0 && std::isfinite(part) ? std::clamp(part / whole, 0.0, 1.0) : 0.0;
}

}  // namespace

StepShares measuredShares(const Breakdown& b) {
  StepShares s;
  const Times& t = b.times;
  s.step_s = t.span_s;
  s.compute = share(t.compute_s, t.span_s);
  s.exposedCommunication = share(t.exposedCommunication_s, t.span_s);
  s.idle = share(t.idle_s, t.span_s);
  s.other = std::max(0.0, 1.0 - s.compute - s.exposedCommunication - s.idle);
  if (t.span_s <= 0) s.other = 0;
  return s;
}

StepShares modelledShares(const calc::TrainingStep& step, int microBatches) {
  StepShares s;
  const double m = std::max(1, microBatches);
  s.step_s = std::isfinite(step.step_s) ? std::max(0.0, step.step_s) : 0.0;
  const double bubble_s = std::max(0.0, step.pipeline_s - m * step.slot_s);
  const double exposed_s =
      m * (step.stageLayers * (step.layerTpComm_s + step.layerCpComm_s) + step.ppSend_s) +
      step.dpExposed_s;
  s.idle = share(bubble_s, s.step_s);
  s.exposedCommunication = std::min(share(exposed_s, s.step_s), 1.0 - s.idle);
  s.compute = s.step_s > 0 ? std::max(0.0, 1.0 - s.idle - s.exposedCommunication) : 0.0;
  return s;
}

std::vector<ShareGap> shareGaps(const StepShares& measured, const StepShares& modelled) {
  std::vector<ShareGap> gaps = {
      {"exposed communication", measured.exposedCommunication, modelled.exposedCommunication},
      {"idle", measured.idle, modelled.idle},
      {"compute", measured.compute, modelled.compute}};
  std::stable_sort(gaps.begin(), gaps.end(), [](const ShareGap& a, const ShareGap& b) {
    return std::abs(a.measured - a.modelled) > std::abs(b.measured - b.modelled);
  });
  return gaps;
}

std::string gapText(const StepShares& measured, const StepShares& modelled) {
  const ShareGap g = shareGaps(measured, modelled).front();
  char text[160];
  std::snprintf(text, sizeof text, "%s %.1f %% measured vs %.1f %% modelled", g.quantity.c_str(),
                100 * g.measured, 100 * g.modelled);
  return text;
}

}  // namespace sim::trace
