#include "sim/json_file.h"

#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "sim/input_file.h"

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

size_t skipSpace(const std::string& t, size_t i) {
  while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i]))) ++i;
  return i;
}

// `i` at an opening quote: the index after the closing one.
size_t skipString(const std::string& t, size_t i) {
  for (++i; i < t.size(); ++i) {
    if (t[i] == '\\')
      ++i;
    else if (t[i] == '"')
      return i + 1;
  }
  return t.size();
}

// `i` at the start of a value: the index after it (iterative, so hostile nesting is harmless).
size_t skipValue(const std::string& t, size_t i) {
  int depth = 0;
  while (i < t.size()) {
    const char c = t[i];
    if (c == '"') {
      i = skipString(t, i);
      if (depth == 0) return i;
      continue;
    }
    if (c == '{' || c == '[') ++depth;
    if (c == '}' || c == ']') {
      if (depth == 0) return i;
      if (--depth == 0) return i + 1;
    }
    if (depth == 0 && (c == ',' || std::isspace(static_cast<unsigned char>(c)))) return i;
    ++i;
  }
  return i;
}

// Byte offset in `text` of the member key (or array element) that `pointer` names; follows array
// indices too, so a step in chapter 7 is not reported on chapter 1's line. npos when not found.
size_t locate(const std::string& text, const nlohmann::json::json_pointer& pointer) {
  size_t i = skipSpace(text, 0), found = std::string::npos;
  std::vector<std::string> tokens;
  for (nlohmann::json::json_pointer p = pointer; !p.empty(); p.pop_back())
    tokens.insert(tokens.begin(), p.back());
  for (const std::string& token : tokens) {
    if (i >= text.size()) return found;
    if (text[i] == '{') {
      i = skipSpace(text, i + 1);
      bool hit = false;
      while (i < text.size() && text[i] == '"') {
        const size_t keyAt = i;
        i = skipString(text, i);
        const std::string key = text.substr(keyAt + 1, i - keyAt - 2);
        i = skipSpace(text, i);
        if (i >= text.size() || text[i] != ':') return found;
        i = skipSpace(text, i + 1);
        if (key == token) {
          found = keyAt;
          hit = true;
          break;
        }
        i = skipSpace(text, skipValue(text, i));
        if (i < text.size() && text[i] == ',') i = skipSpace(text, i + 1);
      }
      if (!hit) return found;
    } else if (text[i] == '[') {
      if (token.empty() || token.find_first_not_of("0123456789") != std::string::npos ||
          token.size() > 9)
        return found;
      const size_t index = std::stoul(token);
      i = skipSpace(text, i + 1);
      for (size_t n = 0; n < index; ++n) {
        i = skipSpace(text, skipValue(text, i));
        if (i >= text.size() || text[i] != ',') return found;
        i = skipSpace(text, i + 1);
      }
      found = i;
    } else {
      return found;
    }
  }
  return found;
}

// A member key that repeats an earlier key of the same object.
struct DuplicateKey {
  size_t at = std::string::npos;  // byte offset of the repeated key's opening quote
  size_t firstAt = 0;             // of the first occurrence
  nlohmann::json::json_pointer pointer{};
};

// The first repeated key in `text`, which is valid JSON (nlohmann keeps the last silently).
// One pass over the text with a stack of open containers: keys are decoded (escapes included)
// so "a" and "\u0061" are the same key.
DuplicateKey findDuplicateKey(const std::string& text) {
  struct Open {
    bool object = false;
    std::map<std::string, size_t> keys;  // key -> offset of its first occurrence
    std::string key;                     // the current member's key (objects)
    size_t index = 0;                    // the current element (arrays)
  };
  std::vector<Open> stack;
  bool expectKey = false;
  auto pointerTo = [&](const std::string& key) {
    nlohmann::json::json_pointer p;
    for (size_t i = 0; i + 1 < stack.size(); ++i) {
      p = stack[i].object ? p / stack[i].key : p / stack[i].index;
    }
    return p / key;
  };
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '"') {
      const size_t end = skipString(text, i);
      if (!stack.empty() && stack.back().object && expectKey) {
        std::string key = text.substr(i + 1, end - i - 2);
        if (key.find('\\') != std::string::npos) {
          key = nlohmann::json::parse(text.substr(i, end - i)).get<std::string>();
        }
        auto [it, fresh] = stack.back().keys.emplace(key, i);
        if (!fresh) return DuplicateKey{i, it->second, pointerTo(key)};
        stack.back().key = std::move(key);
        expectKey = false;
      }
      i = end;
      continue;
    }
    if (c == '{' || c == '[') {
      stack.push_back({.object = c == '{'});
      expectKey = c == '{';
    } else if ((c == '}' || c == ']') && !stack.empty()) {
      stack.pop_back();
    } else if (c == ',' && !stack.empty()) {
      if (stack.back().object) {
        expectKey = true;
      } else {
        ++stack.back().index;
      }
    }
    ++i;
  }
  return DuplicateKey{};
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
  const size_t offset = locate(text, pointer);
  std::ostringstream out;
  out << path.string();
  if (offset != std::string::npos) out << ":" << lineColumnOf(text, offset).first;
  if (!pointer.empty()) out << " (" << pointer.to_string() << ")";
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
  } catch (const nlohmann::json::exception& e) {
    // Other parser errors carry no position (e.g. out_of_range 406, "number overflow parsing
    // '1e400'"): place them at the first occurrence of the quoted token when there is one.
    std::string what = e.what();
    if (size_t close = what.find("] "); close != std::string::npos) what = what.substr(close + 2);
    std::string place = displayName.string();
    const size_t open = what.find('\''), end = what.rfind('\'');
    if (open != std::string::npos && end > open + 1) {
      const size_t at = file.text.find(what.substr(open + 1, end - open - 1));
      if (at != std::string::npos) {
        auto [line, column] = lineColumnOf(file.text, at);
        place += ":" + std::to_string(line) + ":" + std::to_string(column);
      }
    }
    return Result<JsonFile>::failure(place + ": " + what);
  }
  if (const DuplicateKey dup = findDuplicateKey(file.text); dup.at != std::string::npos) {
    const auto [line, column] = lineColumnOf(file.text, dup.at);
    return Result<JsonFile>::failure(
        displayName.string() + ":" + std::to_string(line) + ":" + std::to_string(column) + " (" +
        dup.pointer.to_string() + "): duplicate key \"" + dup.pointer.back() +
        "\" (first at line " + std::to_string(lineColumnOf(file.text, dup.firstAt).first) +
        "): a JSON object may name a member once");
  }
  return file;
}

Result<JsonFile> readJsonFile(const std::filesystem::path& path) {
  if (std::string why = regularFileError(path); !why.empty())
    return Result<JsonFile>::failure(path.string() + ": " + why);
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
