#include "sim/trace/breakdown.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace sim::trace {
namespace {

double seconds(int64_t ns) {
  return static_cast<double>(ns) * 1e-9;
}

double percentOf(double part, double whole) {
  return whole > 0 ? 100.0 * part / whole : 0.0;
}

}  // namespace

int64_t unionLength(std::vector<Span>& spans) {
  std::sort(spans.begin(), spans.end(),
            [](const Span& a, const Span& b) { return a.start < b.start; });
  int64_t total = 0;
  bool open = false;
  Span current;
  for (const Span& s : spans) {
    if (open && s.start <= current.end) {
      current.end = std::max(current.end, s.end);
      continue;
    }
    if (open) total += current.end - current.start;
    current = s;
    open = true;
  }
  if (open) total += current.end - current.start;
  return total;
}

namespace {

// The breakdown of the intervals `indices` (into rank.intervals, in start order).
Breakdown breakdownOf(const RankTrace& rank, const std::vector<uint32_t>& indices) {
  Breakdown out;
  std::vector<Span> byClass[GPU_CLASS_COUNT];
  std::vector<Span> compute, memory, all, computeOrComm;
  std::map<std::tuple<std::string, std::string, std::string>, CollectiveSummary> collectives;
  int64_t first = 0, last = 0;
  for (uint32_t index : indices) {
    const GpuInterval& iv = rank.intervals[index];
    const Span s{iv.start_ns, iv.end_ns};
    first = out.gpuEvents == 0 ? s.start : std::min(first, s.start);
    last = std::max(last, s.end);
    ++out.gpuEvents;
    byClass[static_cast<int>(iv.cls)].push_back(s);
    all.push_back(s);
    if (isCompute(iv.cls)) compute.push_back(s);
    if (iv.cls != GpuClass::Memcpy && iv.cls != GpuClass::Memset) computeOrComm.push_back(s);
    if (iv.cls == GpuClass::Memcpy || iv.cls == GpuClass::Memset) memory.push_back(s);
    if (iv.collective >= 0) {
      const Collective& c = rank.collectives[static_cast<size_t>(iv.collective)];
      CollectiveSummary& sum = collectives[{c.kind, c.algorithm, c.protocol}];
      sum.kind = c.kind;
      sum.algorithm = c.algorithm;
      sum.protocol = c.protocol;
      ++sum.count;
      sum.time_s += seconds(s.end - s.start);
      if (c.bytes >= 0) {
        sum.bytes += c.bytes;
        ++sum.bytesKnown;
      }
    }
  }
  if (out.gpuEvents == 0) return out;

  const int64_t span = last - first;
  const int64_t computeNs = unionLength(compute);
  const int64_t busyNs = unionLength(all);
  const int64_t computeOrCommNs = unionLength(computeOrComm);
  auto classUnion = [&](GpuClass c) { return seconds(unionLength(byClass[static_cast<int>(c)])); };
  Times& t = out.times;
  t.span_s = seconds(span);
  t.compute_s = seconds(computeNs);
  t.gemm_s = classUnion(GpuClass::Gemm);
  t.attention_s = classUnion(GpuClass::Attention);
  t.otherCompute_s = classUnion(GpuClass::OtherCompute);
  t.communication_s = classUnion(GpuClass::Communication);
  t.exposedCommunication_s = seconds(computeOrCommNs - computeNs);
  t.memcpy_s = seconds(unionLength(memory));
  t.busy_s = seconds(busyNs);
  t.idle_s = seconds(span - busyNs);

  HtaTimes& h = out.hta;
  h.kernelTime_s = t.span_s;
  h.idle_s = t.idle_s;
  h.compute_s = t.compute_s;
  h.nonCompute_s = seconds(busyNs - computeNs);
  h.idlePct = percentOf(h.idle_s, h.kernelTime_s);
  h.computePct = percentOf(h.compute_s, h.kernelTime_s);
  h.nonComputePct = percentOf(h.nonCompute_s, h.kernelTime_s);
  for (auto& [key, sum] : collectives) out.collectives.push_back(sum);

  // Per stream: the indices grouped by stream, each group in start order (index order). Ties are
  // broken by index rather than with std::stable_sort, whose buffer the sim test binary's
  // replaced operator new (engine_alloc_test.cpp) cannot free under ASan.
  std::vector<uint32_t> byStream = indices;
  std::sort(byStream.begin(), byStream.end(), [&](uint32_t a, uint32_t b) {
    const uint32_t x = rank.intervals[a].stream, y = rank.intervals[b].stream;
    return x != y ? x < y : a < b;
  });
  for (size_t begin = 0; begin < byStream.size();) {
    const uint32_t stream = rank.intervals[byStream[begin]].stream;
    std::vector<Span> groups[4];  // compute, communication, memory, any
    size_t end = begin;
    for (; end < byStream.size() && rank.intervals[byStream[end]].stream == stream; ++end) {
      const GpuInterval& iv = rank.intervals[byStream[end]];
      const Span s{iv.start_ns, iv.end_ns};
      const int group = isCompute(iv.cls) ? 0 : iv.cls == GpuClass::Communication ? 1 : 2;
      groups[group].push_back(s);
      groups[3].push_back(s);
    }
    StreamSummary summary;
    summary.stream = rank.streams[stream];
    summary.events = static_cast<int64_t>(end - begin);
    summary.compute_s = seconds(unionLength(groups[0]));
    summary.communication_s = seconds(unionLength(groups[1]));
    summary.memcpy_s = seconds(unionLength(groups[2]));
    summary.busy_s = seconds(unionLength(groups[3]));
    out.streams.push_back(summary);
    begin = end;
  }
  return out;
}

}  // namespace

Breakdown breakdown(const RankTrace& rank, std::optional<int64_t> step) {
  std::vector<uint32_t> indices;
  for (uint32_t i = 0; i < rank.intervals.size(); ++i) {
    if (!step || rank.intervals[i].step == *step) indices.push_back(i);
  }
  return breakdownOf(rank, indices);
}

std::vector<Breakdown> stepBreakdowns(const RankTrace& rank) {
  std::vector<std::vector<uint32_t>> perStep(rank.steps.size());
  for (uint32_t i = 0; i < rank.intervals.size(); ++i) {
    const int64_t number = rank.intervals[i].step;
    if (number < 0) continue;
    auto it = std::lower_bound(rank.steps.begin(), rank.steps.end(), number,
                               [](const StepWindow& w, int64_t n) { return w.number < n; });
    if (it != rank.steps.end() && it->number == number) {
      perStep[static_cast<size_t>(it - rank.steps.begin())].push_back(i);
    }
  }
  std::vector<Breakdown> out;
  out.reserve(perStep.size());
  for (const std::vector<uint32_t>& indices : perStep) out.push_back(breakdownOf(rank, indices));
  return out;
}

}  // namespace sim::trace
