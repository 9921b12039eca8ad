#include "sim/trace/json_pull.h"

#include <cstring>

namespace sim::trace {
namespace {

constexpr size_t BUFFER_BYTES = 1u << 20;
constexpr uint8_t IS_OBJECT = 1, HAS_ELEMENT = 2;

bool isDigit(int c) {
  return c >= '0' && c <= '9';
}

std::string shown(int c) {
  if (c >= 0x20 && c < 0x7f) return std::string("'") + char(c) + "'";
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", c & 0xff);
  return hex;
}

}  // namespace

JsonPull::JsonPull(ByteSource& source, const ReadLimits& limits)
    : m_source(source), m_limits(limits), m_buffer(BUFFER_BYTES) {
  m_begin = m_pos = m_end = m_buffer.data();
}

void JsonPull::fail(const std::string& message) const {
  throw PullError("byte " + std::to_string(offset()) + ": " + message);
}

bool JsonPull::refill() {
  if (m_ended) return false;
  m_consumed += static_cast<uint64_t>(m_end - m_begin);
  const size_t n = m_source.read(m_buffer.data(), m_buffer.size());
  m_begin = m_pos = m_buffer.data();
  m_end = m_begin + n;
  if (n == 0) {
    m_ended = true;
    if (!m_source.error().empty()) fail(m_source.error());
    return false;
  }
  return true;
}

int JsonPull::peekByte() {
  if (m_pos == m_end && !refill()) return -1;
  return static_cast<unsigned char>(*m_pos);
}

int JsonPull::nextByte() {
  const int c = peekByte();
  if (c >= 0) ++m_pos;
  return c;
}

void JsonPull::skipSpace() {
  while (true) {
    const int c = peekByte();
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
    ++m_pos;
  }
}

void JsonPull::expect(char c, const char* what) {
  skipSpace();
  const int got = peekByte();
  if (got < 0) fail(std::string("the JSON text ends where ") + what + " was expected (truncated?)");
  if (got != c) fail(std::string("expected ") + what + ", found " + shown(got));
  ++m_pos;
}

JsonPull::Kind JsonPull::peekKind() {
  skipSpace();
  const int c = peekByte();
  switch (c) {
    case '{':
      return Kind::Object;
    case '[':
      return Kind::Array;
    case '"':
      return Kind::String;
    case 't':
    case 'f':
      return Kind::Bool;
    case 'n':
      return Kind::Null;
    case -1:
      fail("the JSON text ends where a value was expected (truncated?)");
    default:
      if (c == '-' || isDigit(c)) return Kind::Number;
      fail("expected a value, found " + shown(c));
  }
}

void JsonPull::enter(bool object) {
  if (m_stack.size() >= static_cast<size_t>(m_limits.maxDepth)) {
    fail("JSON nested deeper than " + std::to_string(m_limits.maxDepth) + " levels");
  }
  m_stack.push_back(object ? IS_OBJECT : 0);
}

void JsonPull::beginObject() {
  if (peekKind() != Kind::Object) fail("expected an object");
  ++m_pos;
  enter(true);
}

void JsonPull::beginArray() {
  if (peekKind() != Kind::Array) fail("expected an array");
  ++m_pos;
  enter(false);
}

bool JsonPull::nextMember(std::string& key) {
  skipSpace();
  int c = peekByte();
  if (c < 0) fail("the JSON text ends inside an object (truncated?)");
  if (c == '}') {
    ++m_pos;
    m_stack.pop_back();
    return false;
  }
  if (m_stack.back() & HAS_ELEMENT) {
    if (c != ',') fail("expected ',' or '}' in an object, found " + shown(c));
    ++m_pos;
    skipSpace();
    c = peekByte();
  }
  m_stack.back() |= HAS_ELEMENT;
  if (c < 0) fail("the JSON text ends inside an object (truncated?)");
  if (c != '"') fail("expected a member name in quotes, found " + shown(c));
  readStringInto(&key);
  expect(':', "':' after a member name");
  return true;
}

bool JsonPull::nextElement() {
  skipSpace();
  const int c = peekByte();
  if (c < 0) fail("the JSON text ends inside an array (truncated?)");
  if (c == ']') {
    ++m_pos;
    m_stack.pop_back();
    return false;
  }
  if (m_stack.back() & HAS_ELEMENT) {
    if (c != ',') fail("expected ',' or ']' in an array, found " + shown(c));
    ++m_pos;
  }
  m_stack.back() |= HAS_ELEMENT;
  return true;
}

void JsonPull::readHex4(uint32_t& code) {
  code = 0;
  for (int i = 0; i < 4; ++i) {
    const int c = nextByte();
    int digit = -1;
    if (isDigit(c)) digit = c - '0';
    if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') digit = c - 'A' + 10;
    if (digit < 0) fail("bad \\u escape in a string");
    code = code * 16 + static_cast<uint32_t>(digit);
  }
}

void JsonPull::appendUtf8(std::string* out, uint32_t code) {
  char bytes[4];
  size_t n = 0;
  if (code < 0x80) {
    bytes[n++] = static_cast<char>(code);
  } else if (code < 0x800) {
    bytes[n++] = static_cast<char>(0xc0 | (code >> 6));
    bytes[n++] = static_cast<char>(0x80 | (code & 0x3f));
  } else if (code < 0x10000) {
    bytes[n++] = static_cast<char>(0xe0 | (code >> 12));
    bytes[n++] = static_cast<char>(0x80 | ((code >> 6) & 0x3f));
    bytes[n++] = static_cast<char>(0x80 | (code & 0x3f));
  } else {
    bytes[n++] = static_cast<char>(0xf0 | (code >> 18));
    bytes[n++] = static_cast<char>(0x80 | ((code >> 12) & 0x3f));
    bytes[n++] = static_cast<char>(0x80 | ((code >> 6) & 0x3f));
    bytes[n++] = static_cast<char>(0x80 | (code & 0x3f));
  }
  if (out) out->append(bytes, n);
}

void JsonPull::readStringInto(std::string* out) {
  if (out) out->clear();
  ++m_pos;  // the opening quote, already peeked
  size_t length = 0;
  auto grow = [&](size_t n) {
    length += n;
    if (length > m_limits.maxStringBytes) {
      fail("string longer than " + std::to_string(m_limits.maxStringBytes) + " bytes");
    }
  };
  while (true) {
    if (m_pos == m_end && !refill()) fail("the JSON text ends inside a string (truncated?)");
    const char* run = m_pos;
    while (run < m_end) {
      const unsigned char c = static_cast<unsigned char>(*run);
      if (c == '"' || c == '\\' || c < 0x20) break;
      ++run;
    }
    const size_t n = static_cast<size_t>(run - m_pos);
    grow(n);
    if (out) out->append(m_pos, n);
    m_pos = run;
    if (m_pos == m_end) continue;
    const unsigned char c = static_cast<unsigned char>(*m_pos++);
    if (c == '"') return;
    if (c < 0x20) {
      --m_pos;
      fail("control character " + shown(c) + " inside a string");
    }
    const int e = nextByte();  // c == '\\'
    uint32_t code = 0;
    switch (e) {
      case '"':
        code = '"';
        break;
      case '\\':
        code = '\\';
        break;
      case '/':
        code = '/';
        break;
      case 'b':
        code = '\b';
        break;
      case 'f':
        code = '\f';
        break;
      case 'n':
        code = '\n';
        break;
      case 'r':
        code = '\r';
        break;
      case 't':
        code = '\t';
        break;
      case 'u': {
        readHex4(code);
        if (code >= 0xd800 && code <= 0xdbff) {
          // A high surrogate must be followed by a low one; a lone half becomes U+FFFD.
          if (peekByte() == '\\') {
            ++m_pos;
            if (nextByte() != 'u') fail("bad escape after a UTF-16 high surrogate");
            uint32_t low = 0;
            readHex4(low);
            code = (low >= 0xdc00 && low <= 0xdfff)
                       ? 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00)
                       : 0xfffd;
          } else {
            code = 0xfffd;
          }
        } else if (code >= 0xdc00 && code <= 0xdfff) {
          code = 0xfffd;
        }
        break;
      }
      case -1:
        fail("the JSON text ends inside a string (truncated?)");
      default:
        fail("bad escape \\" + std::string(1, char(e)) + " in a string");
    }
    grow(code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4);
    appendUtf8(out, code);
  }
}

void JsonPull::readString(std::string& out) {
  if (peekKind() != Kind::String) fail("expected a string");
  readStringInto(&out);
}

void JsonPull::readNumber(std::string& out) {
  if (peekKind() != Kind::Number) fail("expected a number");
  out.clear();
  auto take = [&] {
    out.push_back(static_cast<char>(nextByte()));
    if (out.size() > MAX_NUMBER_CHARS) {
      fail("number longer than " + std::to_string(MAX_NUMBER_CHARS) + " characters");
    }
  };
  auto digits = [&] {
    if (!isDigit(peekByte())) fail("malformed number '" + out + "'");
    while (isDigit(peekByte())) take();
  };
  if (peekByte() == '-') take();
  if (peekByte() == '0') {
    take();
  } else {
    digits();
  }
  if (peekByte() == '.') {
    take();
    digits();
  }
  if (peekByte() == 'e' || peekByte() == 'E') {
    take();
    if (peekByte() == '+' || peekByte() == '-') take();
    digits();
  }
}

void JsonPull::readLiteral(const char* word) {
  for (const char* w = word; *w; ++w) {
    if (nextByte() != *w) fail(std::string("malformed literal (expected '") + word + "')");
  }
}

bool JsonPull::readBool() {
  if (peekKind() != Kind::Bool) fail("expected true or false");
  const bool value = peekByte() == 't';
  readLiteral(value ? "true" : "false");
  return value;
}

void JsonPull::readNull() {
  if (peekKind() != Kind::Null) fail("expected null");
  readLiteral("null");
}

void JsonPull::skipValue() {
  const size_t base = m_stack.size();
  do {
    if (m_stack.size() > base) {
      const bool more = (m_stack.back() & IS_OBJECT) ? nextMember(m_scratch) : nextElement();
      if (!more) continue;
    }
    switch (peekKind()) {
      case Kind::Object:
        ++m_pos;
        enter(true);
        break;
      case Kind::Array:
        ++m_pos;
        enter(false);
        break;
      case Kind::String:
        readStringInto(nullptr);
        break;
      case Kind::Number:
        readNumber(m_scratch);
        break;
      case Kind::Bool:
        readBool();
        break;
      case Kind::Null:
        readNull();
        break;
    }
  } while (m_stack.size() > base);
}

void JsonPull::expectEnd() {
  skipSpace();
  const int c = peekByte();
  if (c >= 0) fail("unexpected " + shown(c) + " after the end of the JSON document");
}

}  // namespace sim::trace
