// Where a trace's bytes come from: a file or a memory block, plain or gzip-compressed (detected by
// the gzip magic 1f 8b, not by the name), read in chunks so a file of any size streams through a
// fixed buffer. Concatenated gzip members are read as one stream, as gunzip does.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/result.h"
#include "sim/trace/limits.h"

namespace sim::trace {

class ByteSource {
 public:
  /// Opens `path` (refused with a message naming it when it cannot be read).
  static Result<std::unique_ptr<ByteSource>> openFile(const std::filesystem::path& path);
  /// Reads from `bytes`, which must outlive the source.
  static std::unique_ptr<ByteSource> fromMemory(std::string_view bytes);
  ~ByteSource();
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;

  /// Holds the decoded bytes to `limits` (maxDecodedBytes, maxCompressionRatio after
  /// ratioCheckAfterBytes); unlimited until called.
  void limit(const ReadLimits& limits) { m_limits = limits; }
  /// Up to `capacity` decoded bytes into `out`; 0 at the end. Corrupt or truncated gzip data, or
  /// decoded bytes past the limits, set error() and return 0.
  size_t read(char* out, size_t capacity);
  /// "" or what went wrong (e.g. "gzip data truncated after 1234 compressed bytes").
  const std::string& error() const { return m_error; }
  /// Whether the bytes are gzip-compressed (known after the first read).
  bool compressed() const { return m_gzip; }

 private:
  ByteSource();
  size_t decode(char* out, size_t capacity);
  size_t readRaw(char* out, size_t capacity);
  bool fillInput();
  size_t inflateInto(char* out, size_t capacity);

  std::FILE* m_file = nullptr;
  std::string_view m_memory;
  bool m_started = false, m_gzip = false, m_streamEnded = false, m_rawEnded = false;
  std::vector<unsigned char> m_input;  // compressed bytes not yet inflated
  size_t m_inputPos = 0, m_inputEnd = 0;
  uint64_t m_compressedRead = 0, m_decoded = 0;
  ReadLimits m_limits{.maxDecodedBytes = UINT64_MAX, .maxCompressionRatio = UINT64_MAX};
  struct Inflater;
  std::unique_ptr<Inflater> m_z;
  std::string m_error;
};

}  // namespace sim::trace
