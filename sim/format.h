// Numbers as text, in one place: what messages, the CLI, labels and panels print.
#pragma once

#include <string>

namespace sim {

/// The shortest text that reads back as `value` ("12.5", "1e+12").
std::string shortestText(double value);

}  // namespace sim
