// Numeric formats that weights, activations, KV cache and math run in, and their sizes.
#pragma once

#include <optional>
#include <string_view>

namespace sim {

enum class Precision { FP32, BF16, FP16, FP8, INT8, FP4, INT4 };

/// Bytes per element: FP32 4, BF16/FP16 2, FP8/INT8 1, FP4/INT4 0.5 (Transformer Math 101).
double bytesPerElement(Precision precision);
/// Lower-case name used in scenarios and output ("bf16", "fp8", ...).
std::string_view precisionName(Precision precision);
/// Parses a precision name (case-insensitive); nullopt when unknown.
std::optional<Precision> parsePrecision(std::string_view name);

}  // namespace sim
