// The headless booth soak (`dcwalk tour --kiosk --headless --soak MINUTES`): booth mode without
// a window, a scripted visitor walking it through attract -> tour -> idle warning -> attract
// again and again, every frame rendered offscreen as in a window. A warm-up shows every step of
// the tour once first. Reports resident memory, frame time and validation errors over time, to
// stdout and to OUT/soak.json.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "app/session/render_options.h"

namespace app {

struct SoakOptions {
  double minutes = 60;
  double reportEvery_s = 60;  // one report line (and JSON row) per this much wall time
  double fpsCap = 30;         // frames are paced to at most this rate (a display's would be 60)
  // The booth's clock: the wall's (a real booth), or exactly 1/fpsCap per frame with no pacing, so
  // that a run walks the same states on any machine however slow or busy (tests, reproducible
  // runs).
  bool frameClock = false;
  std::string tour = "default";
  std::string language = "en";
  double kioskIdle_s = 90;
  double kioskWarning_s = 15;
  std::string out = "out";  // soak.json goes here
};

/// Memory growth allowed over the soak (the issues' figure: 5 %).
inline constexpr double SOAK_MAX_GROWTH = 0.05;

/// Memory growth over a soak's report rows (each with "resident_bytes"): the median of the last
/// fifth of the rows against the median of the first fifth, as a fraction (0.05 = 5 %).
double residentGrowth(const nlohmann::ordered_json& rows);

/// Runs the soak. Exit status: 0 when memory grew by at most SOAK_MAX_GROWTH (residentGrowth)
/// and there was no validation error, 1 otherwise, 2 for bad input.
int runSoak(const RenderOptions& render, const SoakOptions& options);

}  // namespace app
