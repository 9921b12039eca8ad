// glTF files written by tests themselves: a temporary folder, the glTF component type codes,
// binary buffers and their base64 data: URIs.
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/common/paths.h"

namespace gltftest {

namespace fs = std::filesystem;

// Accessor component types (glTF 2.0, 5.1.3).
constexpr int U8 = 5121, U16 = 5123, U32 = 5125, F32 = 5126;

/// A fresh folder under the system temp dir, removed afterwards.
struct TempDir : testpaths::TempDir {
  TempDir() : testpaths::TempDir("gltf") {}
};

/// RFC 4648 base64 with padding, for data: URIs.
inline std::string base64(const std::vector<uint8_t>& bytes) {
  static const char* ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    const size_t left = bytes.size() - i;
    const uint32_t v = (uint32_t(bytes[i]) << 16) | (left > 1 ? uint32_t(bytes[i + 1]) << 8 : 0u) |
                       (left > 2 ? uint32_t(bytes[i + 2]) : 0u);
    out += ALPHABET[(v >> 18) & 63];
    out += ALPHABET[(v >> 12) & 63];
    out += left > 1 ? ALPHABET[(v >> 6) & 63] : '=';
    out += left > 2 ? ALPHABET[v & 63] : '=';
  }
  return out;
}

/// Appends `values` to a buffer, padded to 4 bytes (accessor alignment).
template <class T>
void append(std::vector<uint8_t>* bytes, const std::vector<T>& values) {
  const size_t at = bytes->size();
  bytes->resize(at + values.size() * sizeof(T));
  std::memcpy(bytes->data() + at, values.data(), values.size() * sizeof(T));
  while (bytes->size() % 4) bytes->push_back(0);
}

}  // namespace gltftest
