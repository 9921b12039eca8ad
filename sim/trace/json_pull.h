// A streaming (pull) JSON reader over a ByteSource: the caller walks the document member by
// member and keeps only what it needs, so memory does not grow with the file. It checks the whole
// grammar (RFC 8259), caps string length and nesting depth (ReadLimits), and reports every problem
// with the byte offset in the decoded text. Problems are thrown as PullError, which the trace
// reader catches at its boundary (no exception leaves sim/).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/trace/byte_source.h"
#include "sim/trace/limits.h"

namespace sim::trace {

/// A refusal: `what()` is "byte N: message" (N counted in the decoded JSON text).
struct PullError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class JsonPull {
 public:
  enum class Kind { Object, Array, String, Number, Bool, Null };

  JsonPull(ByteSource& source, const ReadLimits& limits);

  /// The kind of the next value (skips whitespace); refuses the end of the text or a stray byte.
  Kind peekKind();
  /// Enters the object / array that comes next (refused when it is something else).
  void beginObject();
  void beginArray();
  /// The next member's key into `key`, positioned at its value; false (and the object left) at
  /// its closing brace.
  bool nextMember(std::string& key);
  /// Positioned at the next element; false (and the array left) at its closing bracket.
  bool nextElement();
  /// The next value, which must be a string / number literal (its text, validated) / bool / null.
  void readString(std::string& out);
  void readNumber(std::string& out);
  bool readBool();
  void readNull();
  /// Skips the next value whatever it is (iterative: depth is capped, not recursed).
  void skipValue();
  /// Refuses anything but whitespace after the top-level value.
  void expectEnd();

  /// Decoded bytes consumed so far.
  uint64_t offset() const { return m_consumed + (m_pos - m_begin); }
  /// Throws PullError("byte <offset>: <message>").
  [[noreturn]] void fail(const std::string& message) const;

 private:
  bool refill();
  int peekByte();  // -1 at the end
  int nextByte();
  void skipSpace();
  void expect(char c, const char* what);
  void enter(bool object);
  void readStringInto(std::string* out);  // nullptr: validate and drop
  void readHex4(uint32_t& code);
  void appendUtf8(std::string* out, uint32_t code);
  void readLiteral(const char* word);

  ByteSource& m_source;
  ReadLimits m_limits;
  std::vector<char> m_buffer;
  const char* m_begin = nullptr;
  const char* m_pos = nullptr;
  const char* m_end = nullptr;
  uint64_t m_consumed = 0;  // bytes before m_begin
  bool m_ended = false;
  // One entry per open container: bit 0 object (else array), bit 1 an element was read.
  std::vector<uint8_t> m_stack;
  std::string m_scratch;
};

}  // namespace sim::trace
