// Helpers for the trace tests: the shared real traces, zlib written here (not the library's
// reader) to decompress and compress them, and a JSON type that keeps Kineto's fractional
// nanoseconds (long double holds 64 mantissa bits: 0.1 ns at epoch-sized microsecond values,
// where a double keeps only 0.25 us).
#pragma once

#include <zlib.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/common/paths.h"

namespace tracetest {

using LongJson = nlohmann::basic_json<std::map, std::vector, std::string, bool, std::int64_t,
                                      std::uint64_t, long double>;

/// The five real traces of ../shared/testdata/traces (PROVENANCE.md there).
inline const std::vector<std::string>& realTraceNames() {
  static const std::vector<std::string> names = {
      "a100_2rank_allreduce.json.gz", "mi250_minitoy_train_kineto.json.gz",
      "sampled_rank-0.json.gz", "sampled_rank-1.json.gz", "v100_single_rank.pt.trace.json.gz"};
  return names;
}

inline std::filesystem::path realTrace(const std::string& name) {
  return testpaths::sharedDir() / "testdata" / "traces" / name;
}

inline std::string readBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// gunzip of `bytes` (one member), with zlib's own inflate.
inline std::string gunzip(const std::string& bytes) {
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) throw std::runtime_error("inflateInit2");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  std::string out;
  char chunk[1 << 16];
  int ret = Z_OK;
  while (ret != Z_STREAM_END) {
    z.next_out = reinterpret_cast<Bytef*>(chunk);
    z.avail_out = sizeof chunk;
    ret = inflate(&z, Z_NO_FLUSH);
    if (ret != Z_OK && ret != Z_STREAM_END) {
      inflateEnd(&z);
      throw std::runtime_error("gunzip failed");
    }
    out.append(chunk, sizeof chunk - z.avail_out);
  }
  inflateEnd(&z);
  return out;
}

/// gzip of `text` (one member).
inline std::string gzip(const std::string& text) {
  z_stream z{};
  if (deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("deflateInit2");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  std::string out;
  char chunk[1 << 16];
  int ret = Z_OK;
  while (ret != Z_STREAM_END) {
    z.next_out = reinterpret_cast<Bytef*>(chunk);
    z.avail_out = sizeof chunk;
    ret = deflate(&z, Z_FINISH);
    out.append(chunk, sizeof chunk - z.avail_out);
  }
  deflateEnd(&z);
  return out;
}

/// A Kineto time (microseconds) as integer nanoseconds.
inline int64_t nanoseconds(const LongJson& v) {
  if (v.is_number_integer()) return v.get<int64_t>() * 1000;
  return std::llround(v.get<long double>() * 1000.0L);
}

}  // namespace tracetest
