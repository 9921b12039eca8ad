#include "app/platform/process_stats.h"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

namespace app {

namespace {

// A "Name:  123 kB" line of /proc/self/status in bytes, or 0.
double statusBytes(const std::string& field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field, 0) == 0) {
      std::istringstream fields(line.substr(field.size()));
      double kib = 0;
      fields >> kib;
      return kib * 1024.0;
    }
  }
  return 0;
}

}  // namespace

double peakResidentBytes() {
  return statusBytes("VmHWM:");
}

double residentBytes() {
  return statusBytes("VmRSS:");
}

double secondsSinceProcessStart() {
  // Field 22 of /proc/self/stat is the start time in clock ticks after boot; /proc/uptime is now.
  std::ifstream statFile("/proc/self/stat");
  std::string stat((std::istreambuf_iterator<char>(statFile)), std::istreambuf_iterator<char>());
  const size_t close = stat.rfind(')');  // the command name may contain spaces
  if (close == std::string::npos) return -1;
  std::istringstream fields(stat.substr(close + 2));
  std::string field;
  // Fields after the name start at 3 (state); starttime is field 22.
  for (int index = 3; index <= 22 && fields >> field; ++index) {
    if (index == 22) {
      std::ifstream uptimeFile("/proc/uptime");
      double uptime_s = 0;
      uptimeFile >> uptime_s;
      const double ticks = double(sysconf(_SC_CLK_TCK));
      return uptime_s - std::stod(field) / ticks;
    }
  }
  return -1;
}

}  // namespace app
