#include "sim/trace/activity.h"

#include <algorithm>

namespace sim::trace {

ActivityIndex::ActivityIndex(const RankTrace& rank) {
  // rank.intervals are sorted by start, so each class's runs merge in one pass.
  for (size_t i = 0; i < rank.intervals.size(); ++i) {
    const GpuInterval& iv = rank.intervals[i];
    Runs& r = m_runs[static_cast<int>(iv.cls)];
    if (!r.ends.empty() && iv.start_ns <= r.ends.back()) {
      r.ends.back() = std::max(r.ends.back(), iv.end_ns);
    } else {
      r.before.push_back(r.starts.empty() ? 0
                                          : r.before.back() + (r.ends.back() - r.starts.back()));
      r.starts.push_back(iv.start_ns);
      r.ends.push_back(iv.end_ns);
    }
    if (iv.cls == GpuClass::Communication) {
      m_commIndex.push_back(static_cast<int64_t>(i));
      m_commStart.push_back(iv.start_ns);
      m_commEnd.push_back(iv.end_ns);
      m_commMaxEnd.push_back(m_commMaxEnd.empty() ? iv.end_ns
                                                  : std::max(m_commMaxEnd.back(), iv.end_ns));
    }
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

double ActivityIndex::busyFraction(GpuClass cls, int64_t from, int64_t to) const {
  if (to <= from) return 0.0;
  const double f = static_cast<double>(busyTime(cls, from, to)) / static_cast<double>(to - from);
  return std::clamp(f, 0.0, 1.0);
}

int64_t ActivityIndex::collectiveAt(int64_t t) const {
  auto it = std::upper_bound(m_commStart.begin(), m_commStart.end(), t);
  // Walk back over kernels that started at or before t; stop once none before can reach t.
  for (size_t k = static_cast<size_t>(it - m_commStart.begin()); k > 0; --k) {
    if (m_commMaxEnd[k - 1] <= t) break;
    if (m_commEnd[k - 1] > t) return m_commIndex[k - 1];
  }
  return -1;
}

}  // namespace sim::trace
