#include "sim/json_file.h"

#include <fstream>
#include <sstream>

namespace sim {
namespace {

// Maximum nesting depth of `text`, counted over brackets outside strings; stops early past the cap.
int nestingDepth(const std::string& text) {
  int depth = 0, maxDepth = 0;
  bool inString = false, escaped = false;
  for (char c : text) {
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"')
      inString = true;
    else if (c == '{' || c == '[') {
      maxDepth = std::max(maxDepth, ++depth);
      if (maxDepth > MAX_JSON_DEPTH) break;
    } else if (c == '}' || c == ']')
      --depth;
  }
  return maxDepth;
}

// Offset of the first `"key"` followed by ':' at or after `from` (npos when absent).
size_t findKey(const std::string& text, const std::string& key, size_t from) {
  const std::string quoted = "\"" + key + "\"";
  for (size_t pos = text.find(quoted, from); pos != std::string::npos;
       pos = text.find(quoted, pos + 1)) {
    size_t after = pos + quoted.size();
    while (after < text.size() && std::isspace(static_cast<unsigned char>(text[after]))) ++after;
    if (after < text.size() && text[after] == ':') return pos;
  }
  return std::string::npos;
}

}  // namespace

std::pair<size_t, size_t> lineColumnOf(const std::string& text, size_t offset) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

std::string JsonFile::where(const nlohmann::json::json_pointer& pointer) const {
  // Walk the pointer's object keys in order through the text; array indices keep the parent's line.
  size_t offset = 0;
  bool found = false;
  std::string ptr = pointer.to_string();
  size_t start = 1;
  while (start <= ptr.size() && !ptr.empty()) {
    size_t end = ptr.find('/', start);
    std::string token =
        ptr.substr(start, end == std::string::npos ? std::string::npos : end - start);
    bool isIndex = !token.empty() && token.find_first_not_of("0123456789") == std::string::npos;
    if (!isIndex) {
      size_t pos = findKey(text, token, offset);
      if (pos == std::string::npos) break;
      offset = pos;
      found = true;
    }
    if (end == std::string::npos) break;
    start = end + 1;
  }
  std::ostringstream out;
  out << path.string();
  if (found) out << ":" << lineColumnOf(text, offset).first;
  if (!ptr.empty()) out << " (" << ptr << ")";
  return out.str();
}

Result<JsonFile> parseJsonText(std::string text, const std::filesystem::path& displayName) {
  if (text.size() > MAX_JSON_FILE_BYTES) {
    return Result<JsonFile>::failure(displayName.string() + ": file is larger than " +
                                     std::to_string(MAX_JSON_FILE_BYTES) + " bytes");
  }
  if (nestingDepth(text) > MAX_JSON_DEPTH) {
    return Result<JsonFile>::failure(displayName.string() + ": JSON nested deeper than " +
                                     std::to_string(MAX_JSON_DEPTH) + " levels");
  }
  JsonFile file{displayName, std::move(text), {}};
  try {
    file.root = nlohmann::json::parse(file.text);
  } catch (const nlohmann::json::parse_error& e) {
    auto [line, column] = lineColumnOf(file.text, e.byte > 0 ? e.byte - 1 : 0);
    std::string what = e.what();
    // nlohmann's message starts with "[json.exception.parse_error.101] parse error at line ...: "
    if (size_t colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
    return Result<JsonFile>::failure(displayName.string() + ":" + std::to_string(line) + ":" +
                                     std::to_string(column) + ": " + what);
  }
  return file;
}

Result<JsonFile> readJsonFile(const std::filesystem::path& path) {
  std::error_code ec;
  auto size = std::filesystem::file_size(path, ec);
  if (ec) return Result<JsonFile>::failure(path.string() + ": cannot read: " + ec.message());
  if (size > MAX_JSON_FILE_BYTES) {
    return Result<JsonFile>::failure(path.string() + ": file is larger than " +
                                     std::to_string(MAX_JSON_FILE_BYTES) + " bytes");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Result<JsonFile>::failure(path.string() + ": cannot open");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return parseJsonText(buffer.str(), path);
}

}  // namespace sim
