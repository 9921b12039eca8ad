#include "app/session/sim_budget.h"

#include <algorithm>

namespace app {

SimProgress::SimProgress(std::string label, double from_s, double target_s, std::FILE* out,
                         double after_s, double every_s)
    : m_label(std::move(label)),
      m_from_s(from_s),
      m_target_s(target_s),
      m_out(out),
      m_after_s(after_s),
      m_every_s(every_s) {}

SimProgress& SimProgress::measure(std::string verb, std::string unit) {
  m_verb = std::move(verb);
  m_unit = std::move(unit);
  return *this;
}

void SimProgress::update(double now_s) {
  const Clock::time_point now = Clock::now();
  const double running_s = std::chrono::duration<double>(now - m_start).count();
  const double sinceLast_s = std::chrono::duration<double>(now - m_last).count();
  if (running_s < m_after_s || (m_lines > 0 && sinceLast_s < m_every_s)) return;
  m_last = now;
  print(now_s, "so far");
}

void SimProgress::finish(double now_s) {
  if (m_lines > 0) print(now_s, "done");
}

void SimProgress::print(double now_s, const char* tail) {
  const double span_s = m_target_s - m_from_s;
  const double share = span_s > 0 ? std::clamp((now_s - m_from_s) / span_s, 0.0, 1.0) : 1.0;
  const double wall_s = std::chrono::duration<double>(Clock::now() - m_start).count();
  std::fprintf(m_out, "%s: %s %.0f of %.0f %s (%.0f %%), %.0f s %s\n", m_label.c_str(),
               m_verb.c_str(), now_s, m_target_s, m_unit.c_str(), 100 * share, wall_s, tail);
  std::fflush(m_out);
  ++m_lines;
}

}  // namespace app
