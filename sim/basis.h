// Where a number comes from. Every catalog value and every derived figure carries one.
#pragma once

#include <optional>
#include <string_view>

namespace sim {

enum class Basis { Vendor, Paper, Measured, Derived, Estimate };

/// Lower-case name used in catalog files and JSON output ("vendor", "paper", ...).
std::string_view basisName(Basis basis);
/// Parses a basis name; nullopt when it is not one of the five.
std::optional<Basis> parseBasis(std::string_view name);

}  // namespace sim
