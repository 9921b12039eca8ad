// Numbers as text, in one place: what messages, the CLI, labels, panels and files print.
// Significant figures (printf's %g), fixed decimals, the shortest text that reads back, digit
// grouping, a scale (SI prefix or unit) chosen by magnitude, and a quantity by its key's unit
// suffix (docs/sim.md). Pure: no locale, no allocation beyond the returned string.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace sim {

/// The shortest text that reads back as `value` ("12.5", "1e+12").
std::string shortestText(double value);
/// `value` to `figures` significant figures as printf's %g writes it (6: "0.5", "4.61169e+18").
std::string significant(double value, int figures);
/// `value` with `decimals` decimals ("%.*f": 2 -> "3.14").
std::string fixedDecimals(double value, int decimals);
/// `value` as a message shows it: six significant figures, a whole number that six would round
/// written whole (1048576, not "1.04858e+06").
std::string numberText(double value);
/// Three significant figures without exponent, trailing zeros dropped: 80 -> "80", 3.35, 0.0123.
std::string threeDigits(double value);
/// A whole number with thousands grouped: 16384 -> "16,384".
std::string grouped(double value);

/// A unit (or SI prefix and unit) that applies from `factor` up.
struct Scale {
  double factor;
  const char* unit;
};
/// `value` in the first of `scales` (largest first) it reaches, else the last, written by
/// `digits` then a space and the unit: scaled(3.35e12, {{1e12, "TB/s"}, ...}) -> "3.35 TB/s".
std::string scaled(double value, std::initializer_list<Scale> scales,
                   std::string (*digits)(double) = threeDigits);

/// A value by the unit of its key's suffix ("_bytes" -> GB or TB, "_Bps" -> GB/s or TB/s, "_s"
/// -> ns..days, "_W" -> kW or MW, "_flops" -> TFLOP/s ...), three significant figures; "–" for NaN.
std::string formatQuantity(double value, std::string_view key);
/// A length in metres as km, m, mm or µm with three significant figures ("1.2 m", "850 µm").
std::string formatLength(double meters);

}  // namespace sim
