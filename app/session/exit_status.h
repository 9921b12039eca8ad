// Exit statuses of every command: 0 success, 1 a runtime failure, 2 bad input (flags, files,
// scenarios).
#pragma once

namespace app {

inline constexpr int EXIT_OK = 0;
inline constexpr int EXIT_FAILURE_RUNTIME = 1;
inline constexpr int EXIT_BAD_INPUT = 2;

}  // namespace app
