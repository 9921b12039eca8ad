// Whether the test binary runs under AddressSanitizer (the `sanitize` preset CI runs the sim
// label with): the property tests then sample their cases deterministically to stay in time.
#pragma once

namespace simtest {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool SANITIZED = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool SANITIZED = true;
#else
inline constexpr bool SANITIZED = false;
#endif
#else
inline constexpr bool SANITIZED = false;
#endif

}  // namespace simtest
