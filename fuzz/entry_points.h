// The fuzzed entry points, shared by the libFuzzer targets (fuzz/*_fuzzer.cpp) and the tests that
// replay fuzz/regressions/ (tests/sim/fuzz_regressions_test.cpp; glTF and tours, which need world/:
// gltf_entry_point.h, tour_entry_point.h), so a reproducer goes through exactly the code that found
// it. Each returns "" when the contract held, otherwise what broke: parsers may refuse anything,
// but a refusal must carry a message naming the file, and what they accept must be usable (finite,
// non-negative model sizes).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sim/catalog.h"
#include "sim/hf_config.h"
#include "sim/json_file.h"
#include "sim/scenario.h"

namespace fuzzentry {

/// Separates parts of one fuzz input: catalog files, or a scenario from its overrides.
inline constexpr std::string_view PART_SEPARATOR = "\n%%\n";

/// Splits `text` at every PART_SEPARATOR.
inline std::vector<std::string> splitParts(std::string_view text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t at = text.find(PART_SEPARATOR, start);
    if (at == std::string_view::npos) break;
    parts.emplace_back(text.substr(start, at - start));
    start = at + PART_SEPARATOR.size();
  }
  parts.emplace_back(text.substr(start));
  return parts;
}

/// "" when a refusal names `name`; otherwise a description of the nameless message.
inline std::string checkNamed(const std::string& error, const std::string& name) {
  if (error.empty()) return "refused with an empty message";
  if (error.find(name) == std::string::npos)
    return "refusal does not name '" + name + "': " + error;
  return "";
}

/// sim::parseJsonText on the raw bytes; on success, where() on every top-level member.
inline std::string json(const uint8_t* data, size_t size) {
  const std::string name = "fuzz.json";
  auto file = sim::parseJsonText(std::string(reinterpret_cast<const char*>(data), size), name);
  if (!file) return checkNamed(file.error(), name);
  if (file->root.is_object()) {
    for (const auto& [key, value] : file->root.items()) {
      std::string where = file->where(nlohmann::json::json_pointer() / key);
      if (where.find(name) == std::string::npos) return "where() lost the file name: " + where;
    }
  }
  return "";
}

/// sim::Catalog::loadTexts on the input split into files fuzz0.json, fuzz1.json, ...
inline std::string catalog(const uint8_t* data, size_t size) {
  auto parts = splitParts(std::string_view(reinterpret_cast<const char*>(data), size));
  std::map<std::string, std::string> texts;
  for (size_t i = 0; i < parts.size(); ++i)
    texts["fuzz" + std::to_string(i) + ".json"] = std::move(parts[i]);
  auto loaded = sim::Catalog::loadTexts(texts);
  if (!loaded) return checkNamed(loaded.error(), "fuzz");
  return "";
}

/// A built-in scenario, loaded once, that overrides apply to when the input's own scenario fails.
inline const sim::ScenarioDesc* defaultScenario() {
  static const auto loaded = [] {
    auto names = sim::builtinScenarioNames();
    return names.empty() ? sim::Result<sim::ScenarioDesc>::failure("no built-in scenario")
                         : sim::loadScenario(names.front());
  }();
  return loaded.ok() ? &*loaded : nullptr;
}

/// The part before the first separator is a scenario document (parseScenario); every line after
/// it is one "path=value" override (applyOverride) on that scenario or a built-in one.
inline std::string scenario(const uint8_t* data, size_t size) {
  const std::string name = "fuzz-scenario.json";
  std::string_view text(reinterpret_cast<const char*>(data), size);
  size_t at = text.find(PART_SEPARATOR);
  std::string document(text.substr(0, at));
  std::string_view overrides =
      at == std::string_view::npos ? std::string_view() : text.substr(at + PART_SEPARATOR.size());

  sim::ScenarioDesc desc;
  auto file = sim::parseJsonText(document, name);
  if (!file) {
    if (auto problem = checkNamed(file.error(), name); !problem.empty()) return problem;
  }
  auto parsed =
      file ? sim::parseScenario(*file) : sim::Result<sim::ScenarioDesc>::failure("not parsed");
  if (parsed) {
    desc = std::move(*parsed);
  } else {
    if (file) {
      if (auto problem = checkNamed(parsed.error(), name); !problem.empty()) return problem;
    }
    const sim::ScenarioDesc* fallback = defaultScenario();
    if (!fallback) return "the built-in scenarios did not load";
    desc = *fallback;
  }
  while (!overrides.empty()) {
    size_t end = overrides.find('\n');
    std::string_view line = overrides.substr(0, end);
    auto applied = sim::applyOverride(desc, line);
    if (!applied && applied.error().empty()) return "override refused with an empty message";
    if (end == std::string_view::npos) break;
    overrides.remove_prefix(end + 1);
  }
  return "";
}

/// sim::importHfConfig on the input as config.json; an accepted model must have finite,
/// non-negative parameter and KV-cache figures.
inline std::string hfConfig(const uint8_t* data, size_t size) {
  const std::string name = "config.json";
  auto file = sim::parseJsonText(std::string(reinterpret_cast<const char*>(data), size), name);
  if (!file) return checkNamed(file.error(), name);
  auto model = sim::importHfConfig(*file);
  if (!model) return checkNamed(model.error(), name);
  for (double figure : {model->params, model->activeParams, model->kvBytesPerTokenBf16}) {
    if (!std::isfinite(figure) || figure < 0)
      return "accepted a model with a non-finite or negative size: params " +
             std::to_string(model->params) + ", active " + std::to_string(model->activeParams) +
             ", kv bytes/token " + std::to_string(model->kvBytesPerTokenBf16);
  }
  if (model->activeParams > model->params) return "active parameters exceed total parameters";
  return "";
}

}  // namespace fuzzentry
