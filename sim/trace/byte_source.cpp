#include "sim/trace/byte_source.h"

#include <zlib.h>

#include <cerrno>
#include <cstring>

#include "sim/input_file.h"

namespace sim::trace {
namespace {

constexpr size_t INPUT_CHUNK_BYTES = 256u << 10;

}  // namespace

struct ByteSource::Inflater {
  z_stream z{};
  bool ready = false;
  ~Inflater() {
    if (ready) inflateEnd(&z);
  }
};

ByteSource::ByteSource() : m_input(INPUT_CHUNK_BYTES), m_z(std::make_unique<Inflater>()) {}

ByteSource::~ByteSource() {
  if (m_file) std::fclose(m_file);
}

Result<std::unique_ptr<ByteSource>> ByteSource::openFile(const std::filesystem::path& path) {
  using R = Result<std::unique_ptr<ByteSource>>;
  if (std::string why = regularFileError(path); !why.empty())
    return R::failure(path.string() + ": " + why);
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) return R::failure(path.string() + ": cannot open: " + std::strerror(errno));
  std::unique_ptr<ByteSource> source(new ByteSource());
  source->m_file = file;
  return source;
}

std::unique_ptr<ByteSource> ByteSource::fromMemory(std::string_view bytes) {
  std::unique_ptr<ByteSource> source(new ByteSource());
  source->m_memory = bytes;
  return source;
}

size_t ByteSource::readRaw(char* out, size_t capacity) {
  if (m_rawEnded) return 0;
  size_t n = 0;
  if (m_file) {
    n = std::fread(out, 1, capacity, m_file);
    if (n == 0 && std::ferror(m_file)) m_error = std::string("read error: ") + std::strerror(errno);
  } else {
    n = std::min(capacity, m_memory.size());
    std::memcpy(out, m_memory.data(), n);
    m_memory.remove_prefix(n);
  }
  if (n == 0) m_rawEnded = true;
  return n;
}

// Refills the compressed-input buffer once it is used up; false at the end of the raw bytes.
bool ByteSource::fillInput() {
  if (m_inputPos < m_inputEnd) return true;
  m_inputPos = 0;
  m_inputEnd = readRaw(reinterpret_cast<char*>(m_input.data()), m_input.size());
  m_compressedRead += m_inputEnd;
  return m_inputEnd > 0;
}

size_t ByteSource::inflateInto(char* out, size_t capacity) {
  z_stream& z = m_z->z;
  while (m_error.empty()) {
    if (m_streamEnded) {
      // Another gzip member may follow (as `cat a.gz b.gz` makes); anything else is refused.
      if (!fillInput()) return 0;
      if (m_input[m_inputPos] != 0x1f) {
        m_error = "unexpected bytes after the end of the gzip stream (compressed byte " +
                  std::to_string(m_compressedRead - (m_inputEnd - m_inputPos)) + ")";
        return 0;
      }
      inflateReset(&z);
      m_streamEnded = false;
    }
    if (!fillInput()) {
      m_error =
          "gzip data truncated after " + std::to_string(m_compressedRead) + " compressed bytes";
      return 0;
    }
    z.next_in = m_input.data() + m_inputPos;
    z.avail_in = static_cast<uInt>(m_inputEnd - m_inputPos);
    z.next_out = reinterpret_cast<Bytef*>(out);
    z.avail_out = static_cast<uInt>(capacity);
    const int ret = inflate(&z, Z_NO_FLUSH);
    const size_t consumed = (m_inputEnd - m_inputPos) - z.avail_in;
    const size_t produced = capacity - z.avail_out;
    m_inputPos += consumed;
    if (ret == Z_STREAM_END) {
      m_streamEnded = true;
    } else if (ret != Z_OK && ret != Z_BUF_ERROR) {
      m_error = std::string("corrupt gzip data: ") + (z.msg ? z.msg : "inflate failed") +
                " (near compressed byte " +
                std::to_string(m_compressedRead - (m_inputEnd - m_inputPos)) + ")";
      return 0;
    } else if (consumed == 0 && produced == 0) {
      m_error = "corrupt gzip data: inflate made no progress";
      return 0;
    }
    if (produced > 0) return produced;
  }
  return 0;
}

size_t ByteSource::read(char* out, size_t capacity) {
  const size_t n = decode(out, capacity);
  m_decoded += n;
  if (m_decoded > m_limits.maxDecodedBytes) {
    m_error = "decodes to more than " + std::to_string(m_limits.maxDecodedBytes) +
              " bytes (the cap on one trace file's text)";
    return 0;
  }
  if (m_gzip && m_decoded > m_limits.ratioCheckAfterBytes &&
      m_decoded / m_limits.maxCompressionRatio > m_compressedRead) {
    m_error = "gzip data inflates more than " + std::to_string(m_limits.maxCompressionRatio) +
              ":1 (" + std::to_string(m_decoded) + " bytes from the first " +
              std::to_string(m_compressedRead) +
              " compressed bytes): a gzip bomb, not a profiler trace";
    return 0;
  }
  return n;
}

size_t ByteSource::decode(char* out, size_t capacity) {
  if (!m_error.empty() || capacity == 0) return 0;
  if (!m_started) {
    m_started = true;
    fillInput();
    if (!m_error.empty()) return 0;
    m_gzip = m_inputEnd >= 2 && m_input[0] == 0x1f && m_input[1] == 0x8b;
    if (m_gzip) {
      if (inflateInit2(&m_z->z, 16 + MAX_WBITS) != Z_OK) {
        m_error = "cannot start the gzip decoder";
        return 0;
      }
      m_z->ready = true;
    }
  }
  if (m_gzip) return inflateInto(out, std::min<size_t>(capacity, 1u << 30));
  if (m_inputPos < m_inputEnd) {  // the bytes read to look for the gzip magic
    const size_t n = std::min(capacity, m_inputEnd - m_inputPos);
    std::memcpy(out, m_input.data() + m_inputPos, n);
    m_inputPos += n;
    return n;
  }
  return readRaw(out, capacity);
}

}  // namespace sim::trace
