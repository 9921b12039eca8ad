#include "sim/format.h"

#include <charconv>

namespace sim {

std::string shortestText(double value) {
  char text[32];
  auto [end, ec] = std::to_chars(text, text + sizeof(text), value);
  return ec == std::errc() ? std::string(text, end) : std::string("?");
}

}  // namespace sim
