// Facts about this process that the benchmark and the soak report: resident memory (now and
// peak) and the time since the process started (Linux /proc).
#pragma once

namespace app {

/// Peak resident set size in bytes (VmHWM), or 0 when unknown.
double peakResidentBytes();
/// Resident set size now in bytes (VmRSS), or 0 when unknown.
double residentBytes();
/// Seconds since this process was started by the kernel, or -1 when unknown.
double secondsSinceProcessStart();

}  // namespace app
