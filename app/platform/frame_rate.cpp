#include "app/platform/frame_rate.h"

#include <algorithm>
#include <vector>

namespace app {

void FrameRate::add(double dt_s) {
  if (!(dt_s > 0)) return;
  m_dts.push_back(dt_s);
  m_sum_s += dt_s;
  // Keep the last second's frames (at least one).
  while (m_dts.size() > 1 && m_sum_s - m_dts.front() >= WINDOW_S) {
    m_sum_s -= m_dts.front();
    m_dts.pop_front();
  }
}

double FrameRate::fps() const {
  if (m_dts.empty()) return 0;
  std::vector<double> sorted(m_dts.begin(), m_dts.end());
  std::sort(sorted.begin(), sorted.end());
  const size_t n = sorted.size();
  const double median_s = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  return 1.0 / median_s;
}

}  // namespace app
