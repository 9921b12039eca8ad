// Faults written as text, for the command line and the UI:
//   KIND[:TARGET]@START[-END][,severity=X][,deadlock]
// e.g. "link_down:12@5-20", "pump_trip@10,severity=0.2", "pfc_storm:3@2-8,deadlock".
// KIND is link_down, pfc_storm, pump_trip or straggler; TARGET an id index (default 0); times in
// seconds of simulated time; END omitted = never cleared.
#pragma once

#include <string_view>

#include "sim/engine/engine_desc.h"
#include "sim/result.h"

namespace sim::engine {

/// Latest start or end a fault may name, seconds of simulated time: a day, past every command's
/// run (sim --until at most 3600 s); the tours hold their faults to the same.
inline constexpr double MAX_FAULT_TIME_S = 86400.0;

/// Parses one fault spec; the error quotes the spec and says which part is wrong.
Result<FaultDesc> parseFaultSpec(std::string_view spec);

}  // namespace sim::engine
