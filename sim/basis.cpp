#include "sim/basis.h"

#include <array>
#include <utility>

namespace sim {
namespace {
constexpr std::array<std::pair<Basis, std::string_view>, 5> BASIS_NAMES = {{
    {Basis::Vendor, "vendor"},
    {Basis::Paper, "paper"},
    {Basis::Measured, "measured"},
    {Basis::Derived, "derived"},
    {Basis::Estimate, "estimate"},
}};
}  // namespace

std::string_view basisName(Basis basis) {
  for (const auto& [b, name] : BASIS_NAMES) {
    if (b == basis) return name;
  }
  return "estimate";
}

std::optional<Basis> parseBasis(std::string_view name) {
  for (const auto& [b, n] : BASIS_NAMES) {
    if (n == name) return b;
  }
  return std::nullopt;
}

}  // namespace sim
