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

Breakdown breakdown(const RankTrace& rank, std::optional<int64_t> step) {
  Breakdown out;
  // Per class, and per stream per coarse group (compute, communication, memory, any).
  std::vector<Span> byClass[GPU_CLASS_COUNT];
  std::vector<Span> compute, memory, all, computeOrComm;
  std::vector<std::vector<Span>> perStream[4];
  for (auto& group : perStream) group.resize(rank.streams.size());
  std::vector<int64_t> streamEvents(rank.streams.size(), 0);
  std::map<std::tuple<std::string, std::string, std::string>, CollectiveSummary> collectives;
  int64_t first = 0, last = 0;

  for (const GpuInterval& iv : rank.intervals) {
    if (step && iv.step != *step) continue;
    const Span s{iv.start_ns, iv.end_ns};
    if (out.gpuEvents == 0) first = s.start;
    first = std::min(first, s.start);
    last = std::max(last, s.end);
    ++out.gpuEvents;
    ++streamEvents[iv.stream];
    byClass[static_cast<int>(iv.cls)].push_back(s);
    all.push_back(s);
    perStream[3][iv.stream].push_back(s);
    if (isCompute(iv.cls)) {
      compute.push_back(s);
      computeOrComm.push_back(s);
      perStream[0][iv.stream].push_back(s);
    } else if (iv.cls == GpuClass::Communication) {
      computeOrComm.push_back(s);
      perStream[1][iv.stream].push_back(s);
    } else {
      memory.push_back(s);
      perStream[2][iv.stream].push_back(s);
    }
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
  Times& t = out.times;
  t.span_s = seconds(span);
  t.compute_s = seconds(computeNs);
  t.gemm_s = seconds(unionLength(byClass[static_cast<int>(GpuClass::Gemm)]));
  t.attention_s = seconds(unionLength(byClass[static_cast<int>(GpuClass::Attention)]));
  t.otherCompute_s = seconds(unionLength(byClass[static_cast<int>(GpuClass::OtherCompute)]));
  t.communication_s = seconds(unionLength(byClass[static_cast<int>(GpuClass::Communication)]));
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
  for (size_t i = 0; i < rank.streams.size(); ++i) {
    if (streamEvents[i] == 0) continue;
    StreamSummary s;
    s.stream = rank.streams[i];
    s.events = streamEvents[i];
    s.compute_s = seconds(unionLength(perStream[0][i]));
    s.communication_s = seconds(unionLength(perStream[1][i]));
    s.memcpy_s = seconds(unionLength(perStream[2][i]));
    s.busy_s = seconds(unionLength(perStream[3][i]));
    out.streams.push_back(s);
  }
  return out;
}

}  // namespace sim::trace
