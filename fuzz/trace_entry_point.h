// The trace fuzzer's entry point, shared by fuzz/trace_fuzzer.cpp and the regression replay
// (tests/sim/fuzz_regressions_test.cpp). "" when the contract held: a refusal names the file; an
// accepted trace gives ordered, non-negative intervals, valid indices, finite non-negative
// figures whose exclusive HTA split adds up to the span, and activity queries within [0, 1].
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/entry_points.h"
#include "sim/trace/activity.h"
#include "sim/trace/breakdown.h"
#include "sim/trace/rank_trace.h"

namespace fuzzentry {

/// "" when every figure of `b` is finite and non-negative and HTA's split sums to the span.
inline std::string checkBreakdown(const sim::trace::Breakdown& b) {
  const sim::trace::Times& t = b.times;
  for (double v :
       {t.span_s, t.compute_s, t.gemm_s, t.attention_s, t.otherCompute_s, t.communication_s,
        t.exposedCommunication_s, t.memcpy_s, t.busy_s, t.idle_s, b.hta.idle_s, b.hta.compute_s,
        b.hta.nonCompute_s, b.hta.idlePct, b.hta.computePct, b.hta.nonComputePct}) {
    if (!std::isfinite(v) || v < 0) return "a breakdown figure is negative or not finite";
  }
  const double sum = b.hta.idle_s + b.hta.compute_s + b.hta.nonCompute_s;
  if (std::abs(sum - b.hta.kernelTime_s) > 1e-9 * std::max(1.0, b.hta.kernelTime_s))
    return "HTA's idle + compute + non-compute is not the span";
  if (t.busy_s > t.span_s * (1 + 1e-12) || t.compute_s > t.busy_s * (1 + 1e-12))
    return "a union is longer than what contains it";
  for (const auto& c : b.collectives) {
    if (c.count <= 0 || c.bytes < 0 || c.bytesKnown > c.count || !(c.time_s >= 0))
      return "a collective summary is inconsistent";
  }
  return "";
}

/// sim::trace::readKinetoBytes on the raw bytes (as fuzz-trace.json), then the RankTrace, its
/// breakdowns (whole and per step) and its activity index.
inline std::string trace(const uint8_t* data, size_t size) {
  const std::string name = "fuzz-trace.json";
  auto raw = sim::trace::readKinetoBytes(
      std::string_view(reinterpret_cast<const char*>(data), size), name);
  if (!raw) return checkNamed(raw.error(), name);
  const sim::trace::RankTrace rank = sim::trace::buildRankTrace(std::move(*raw));
  int64_t previous = 0;
  for (const sim::trace::GpuInterval& iv : rank.intervals) {
    if (iv.start_ns < previous || iv.end_ns < iv.start_ns) return "intervals out of order";
    previous = iv.start_ns;
    if (iv.stream >= rank.streams.size()) return "an interval's stream index is out of range";
    if (iv.name >= rank.names.size()) return "an interval's name index is out of range";
    if ((iv.collective >= 0) != (iv.cls == sim::trace::GpuClass::Communication) ||
        iv.collective >= static_cast<int64_t>(rank.collectives.size()))
      return "an interval's collective index is wrong";
  }
  if (auto problem = checkBreakdown(sim::trace::breakdown(rank)); !problem.empty()) return problem;
  const std::vector<sim::trace::Breakdown> perStep = sim::trace::stepBreakdowns(rank);
  if (perStep.size() != rank.steps.size()) return "not one breakdown per step";
  for (size_t i = 0; i < rank.steps.size(); ++i) {
    const sim::trace::StepWindow& w = rank.steps[i];
    if (w.end_ns < w.start_ns || w.start_ns < 0) return "a step window is inverted";
    if (i > 0 && rank.steps[i - 1].number >= w.number) return "steps out of order";
    if (perStep[i].gpuEvents != w.gpuEvents) return "a step's events are miscounted";
    if (auto problem = checkBreakdown(perStep[i]); !problem.empty())
      return "step " + std::to_string(w.number) + ": " + problem;
  }
  const sim::trace::ActivityIndex activity(rank);
  const int64_t span = rank.span_ns();
  for (const sim::trace::GpuInterval& iv : rank.intervals) {
    if (iv.end_ns > iv.start_ns && !activity.active(iv.cls, iv.start_ns))
      return "an interval's class is not active at its start";
    const double f = activity.busyFraction(iv.cls, iv.start_ns - span / 7, iv.end_ns + span / 5);
    if (!(f >= 0 && f <= 1)) return "a busy fraction is outside [0, 1]";
    if (iv.cls == sim::trace::GpuClass::Communication && iv.end_ns > iv.start_ns &&
        activity.collectiveAt(iv.start_ns) < 0)
      return "no collective found at an NCCL kernel's start";
  }
  return "";
}

}  // namespace fuzzentry
