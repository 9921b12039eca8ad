#include "sim/precision.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace sim {

double bytesPerElement(Precision precision) {
  switch (precision) {
    case Precision::FP32:
      return 4.0;
    case Precision::BF16:
    case Precision::FP16:
      return 2.0;
    case Precision::FP8:
    case Precision::INT8:
      return 1.0;
    case Precision::FP4:
    case Precision::INT4:
      return 0.5;
  }
  return 0.0;
}

std::string_view precisionName(Precision precision) {
  switch (precision) {
    case Precision::FP32:
      return "fp32";
    case Precision::BF16:
      return "bf16";
    case Precision::FP16:
      return "fp16";
    case Precision::FP8:
      return "fp8";
    case Precision::INT8:
      return "int8";
    case Precision::FP4:
      return "fp4";
    case Precision::INT4:
      return "int4";
  }
  return "";
}

std::optional<Precision> parsePrecision(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (Precision p : {Precision::FP32, Precision::BF16, Precision::FP16, Precision::FP8,
                      Precision::INT8, Precision::FP4, Precision::INT4}) {
    if (lower == precisionName(p)) return p;
  }
  return std::nullopt;
}

}  // namespace sim
