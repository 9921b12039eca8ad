// How much simulated time one command may ask for, and the progress a long run reports on
// stderr. The engine's fixed step costs about 65 us of CPU (6.5 ms a simulated second at
// dt = 10 ms, measured on every built-in engine scenario: docs/reliability.md), so the cap below
// is about 25 s of waiting on that machine; a run of more than PROGRESS_AFTER_S prints a line
// every PROGRESS_EVERY_S so nobody waits on a silent terminal.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

namespace app {

/// Simulated seconds one command may run (`sim --engine --until`, `shot --time`, a headless
/// RunTo/RunFor): one hour, 360,000 engine steps of 10 ms.
inline constexpr double MAX_COMMAND_SIM_S = 3600.0;
/// Wall seconds before the first progress line, and between lines.
inline constexpr double PROGRESS_AFTER_S = 2.0;
inline constexpr double PROGRESS_EVERY_S = 2.0;

/// Progress of one run towards a simulated time, written to `out` (stderr) as
/// "LABEL: simulated 120 of 3600 s (3 %), 4 s so far" while it lasts, and a last line when it
/// printed any.
class SimProgress {
 public:
  SimProgress(std::string label, double from_s, double target_s, std::FILE* out = stderr,
              double after_s = PROGRESS_AFTER_S, double every_s = PROGRESS_EVERY_S);
  /// The same for another measure: "LABEL: VERB 120 of 3600 UNIT (3 %), 4 s so far".
  SimProgress& measure(std::string verb, std::string unit);
  /// Prints a line when the run has gone on `after_s` and the last line is `every_s` old;
  /// cheap otherwise (one clock read).
  void update(double now_s);
  /// The closing line ("... done in 12 s"), only when a progress line was printed.
  void finish(double now_s);
  /// Lines printed so far.
  int lines() const { return m_lines; }

 private:
  using Clock = std::chrono::steady_clock;
  void print(double now_s, const char* tail);

  std::string m_label;
  std::string m_verb = "simulated", m_unit = "s";
  double m_from_s, m_target_s;
  std::FILE* m_out;
  double m_after_s, m_every_s;
  Clock::time_point m_start = Clock::now();
  Clock::time_point m_last = m_start;
  int m_lines = 0;
};

}  // namespace app
