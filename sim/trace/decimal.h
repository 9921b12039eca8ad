// JSON number text to integers without going through a double: Kineto writes `ts` in microseconds
// with three decimals at epoch-sized values (1712195495519689.047), where a double keeps only
// about a quarter of a microsecond. The text is read digit by digit instead, exactly.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace sim::trace {

/// The JSON number `text` times 10^`scale`, rounded to the nearest integer (halves away from
/// zero), when its magnitude is at most `limit`; nullopt when it is larger (or not a number).
/// scaledInteger("1712195495519689.047", 3, ...) == 1712195495519689047.
std::optional<int64_t> scaledInteger(std::string_view text, int scale, int64_t limit);

/// The JSON number `text` when it is an integer (no non-zero fraction: "7", "7.0", "7e2") of
/// magnitude at most `limit`; nullopt otherwise.
std::optional<int64_t> exactInteger(std::string_view text, int64_t limit);

}  // namespace sim::trace
