#include "sim/engine/fault_spec.h"

#include <charconv>
#include <cmath>
#include <string>

namespace sim::engine {
namespace {

bool parseDouble(std::string_view text, double& out) {
  if (text.empty()) return false;
  const std::string s(text);
  size_t used = 0;
  try {
    out = std::stod(s, &used);
  } catch (...) {
    return false;
  }
  return used == s.size() && std::isfinite(out);
}

bool parseIndex(std::string_view text, uint32_t& out) {
  if (text.empty()) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

Result<FaultDesc> parseFaultSpec(std::string_view spec) {
  const std::string quoted = "fault \"" + std::string(spec) + "\": ";
  auto fail = [&](const std::string& why) { return Result<FaultDesc>::failure(quoted + why); };
  const size_t at = spec.find('@');
  if (at == std::string_view::npos) return fail("expected KIND[:TARGET]@START[-END][,severity=X]");
  std::string_view head = spec.substr(0, at);
  std::string_view rest = spec.substr(at + 1);

  FaultDesc fault;
  const size_t colon = head.find(':');
  const std::string_view kind = head.substr(0, colon);
  bool known = false;
  for (FaultKind k :
       {FaultKind::LinkDown, FaultKind::PfcStorm, FaultKind::PumpTrip, FaultKind::Straggler}) {
    if (kind == faultKindName(k)) {
      fault.kind = k;
      known = true;
    }
  }
  if (!known) return fail("unknown kind (link_down, pfc_storm, pump_trip, straggler)");
  if (colon != std::string_view::npos && !parseIndex(head.substr(colon + 1), fault.target)) {
    return fail("TARGET must be a non-negative id index");
  }

  const size_t comma = rest.find(',');
  std::string_view times = rest.substr(0, comma);
  std::string_view options = comma == std::string_view::npos ? "" : rest.substr(comma + 1);
  // The dash between START and END, not the sign of an exponent ("1e-3-2e-3").
  size_t dash = times.find('-', 1);
  while (dash != std::string_view::npos && (times[dash - 1] == 'e' || times[dash - 1] == 'E'))
    dash = times.find('-', dash + 1);
  const std::string range = "0.." + std::to_string(int(MAX_FAULT_TIME_S)) + " s";
  if (!parseDouble(times.substr(0, dash), fault.start_s) || fault.start_s < 0 ||
      fault.start_s > MAX_FAULT_TIME_S) {
    return fail("START must be a time in seconds in " + range);
  }
  if (dash != std::string_view::npos) {
    if (!parseDouble(times.substr(dash + 1), fault.end_s) || fault.end_s <= fault.start_s ||
        fault.end_s > MAX_FAULT_TIME_S) {
      return fail("END must be a time in seconds after START, in " + range);
    }
  }
  while (!options.empty()) {
    const size_t next = options.find(',');
    const std::string_view option = options.substr(0, next);
    if (option == "deadlock") {
      if (fault.kind != FaultKind::PfcStorm) return fail("deadlock applies to pfc_storm only");
      fault.deadlock = true;
    } else if (option.rfind("severity=", 0) == 0) {
      if (!parseDouble(option.substr(9), fault.severity) || fault.severity < 0 ||
          fault.severity > 1) {
        return fail("severity must be a fraction 0..1");
      }
    } else {
      return fail("unknown option \"" + std::string(option) + "\" (severity=X, deadlock)");
    }
    options = next == std::string_view::npos ? "" : options.substr(next + 1);
  }
  return fault;
}

}  // namespace sim::engine
