#include "sim/trace/activity.h"

#include <algorithm>
#include <queue>

namespace sim::trace {

void ActivityIndex::extend(Runs& r, const GpuInterval& iv) {
  if (!r.ends.empty() && iv.start_ns <= r.ends.back()) {
    r.ends.back() = std::max(r.ends.back(), iv.end_ns);
  } else {
    r.before.push_back(r.starts.empty() ? 0 : r.before.back() + (r.ends.back() - r.starts.back()));
    r.starts.push_back(iv.start_ns);
    r.ends.push_back(iv.end_ns);
  }
}

ActivityIndex::ActivityIndex(const RankTrace& rank) {
  // rank.intervals are sorted by start, so each class's runs merge in one pass.
  for (const GpuInterval& iv : rank.intervals) {
    extend(m_runs[static_cast<int>(iv.cls)], iv);
    if (iv.cls == GpuClass::Gemm || iv.cls == GpuClass::Attention) extend(m_tensor, iv);
    if (isCompute(iv.cls)) extend(m_compute, iv);
  }
  // The NCCL kernel running at t that started last, as a step function: sweep the kernels'
  // starts and ends in time order, keeping the running ones in a heap by start (ends removed
  // lazily from the top). O(n log n) once; each query is then one binary search.
  std::vector<size_t> comm;
  std::vector<int64_t> times;
  for (size_t i = 0; i < rank.intervals.size(); ++i) {
    const GpuInterval& iv = rank.intervals[i];
    if (iv.cls != GpuClass::Communication) continue;
    comm.push_back(i);
    times.push_back(iv.start_ns);
    times.push_back(iv.end_ns);
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  using Running = std::pair<int64_t, size_t>;  // (start, interval index): the top started last
  std::priority_queue<Running> running;
  size_t next = 0;
  for (int64_t t : times) {
    for (; next < comm.size() && rank.intervals[comm[next]].start_ns <= t; ++next) {
      running.push({rank.intervals[comm[next]].start_ns, comm[next]});
    }
    while (!running.empty() && rank.intervals[running.top().second].end_ns <= t) running.pop();
    const int64_t answer = running.empty() ? -1 : static_cast<int64_t>(running.top().second);
    if (!m_pieceAnswer.empty() && m_pieceAnswer.back() == answer) continue;
    m_pieceStart.push_back(t);
    m_pieceAnswer.push_back(answer);
  }
}

bool ActivityIndex::active(GpuClass cls, int64_t t) const {
  const Runs& r = m_runs[static_cast<int>(cls)];
  auto it = std::upper_bound(r.starts.begin(), r.starts.end(), t);  // first run starting after t
  if (it == r.starts.begin()) return false;
  return t < r.ends[static_cast<size_t>(it - r.starts.begin()) - 1];
}

uint32_t ActivityIndex::activeAt(int64_t t) const {
  uint32_t bits = 0;
  for (int c = 0; c < GPU_CLASS_COUNT; ++c) {
    if (active(static_cast<GpuClass>(c), t)) bits |= 1u << c;
  }
  return bits;
}

int64_t ActivityIndex::covered(const Runs& r, int64_t t) const {
  auto it = std::lower_bound(r.starts.begin(), r.starts.end(), t);  // runs starting before t
  if (it == r.starts.begin()) return 0;
  const size_t k = static_cast<size_t>(it - r.starts.begin()) - 1;
  return r.before[k] + (std::min(t, r.ends[k]) - r.starts[k]);
}

int64_t ActivityIndex::busyTime(GpuClass cls, int64_t from, int64_t to) const {
  if (to <= from) return 0;
  const Runs& r = m_runs[static_cast<int>(cls)];
  return covered(r, to) - covered(r, from);
}

double ActivityIndex::fraction(const Runs& r, int64_t from, int64_t to) const {
  if (to <= from) return 0.0;
  const double busy = static_cast<double>(covered(r, to) - covered(r, from));
  return std::clamp(busy / static_cast<double>(to - from), 0.0, 1.0);
}

double ActivityIndex::busyFraction(GpuClass cls, int64_t from, int64_t to) const {
  return fraction(m_runs[static_cast<int>(cls)], from, to);
}

double ActivityIndex::tensorFraction(int64_t from, int64_t to) const {
  return fraction(m_tensor, from, to);
}

double ActivityIndex::computeFraction(int64_t from, int64_t to) const {
  return fraction(m_compute, from, to);
}

int64_t ActivityIndex::collectiveAt(int64_t t) const {
  auto it = std::upper_bound(m_pieceStart.begin(), m_pieceStart.end(), t);
  if (it == m_pieceStart.begin()) return -1;
  return m_pieceAnswer[static_cast<size_t>(it - m_pieceStart.begin()) - 1];
}

}  // namespace sim::trace
