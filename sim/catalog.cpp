#include "sim/catalog.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "sim/domain.h"
#include "sim/json_file.h"

namespace sim {
namespace {

using nlohmann::json;

bool isQuantityObject(const json& node) {
  return node.is_object() && node.contains("value") && node.contains("unit");
}

// Walks `node`, collecting figures; returns an error message or "".
std::string collect(const JsonFile& file, const json& node, const json::json_pointer& pointer,
                    const std::string& dotted, std::map<std::string, Quantity>& out) {
  if (isQuantityObject(node)) {
    Quantity q;
    q.where = file.where(pointer);
    const json& value = node["value"];
    if (!value.is_number()) return q.where + ": \"value\" must be a number";
    q.value = value.get<double>();
    if (!std::isfinite(q.value)) return q.where + ": \"value\" must be finite";
    if (!node["unit"].is_string()) return q.where + ": \"unit\" must be a string";
    q.unit = node["unit"].get<std::string>();
    // Every unit has a declared range (sim/domain.h); 0 is left to the loader that reads the
    // figure ("absent" for an optional one, refused for a required one).
    const Domain* domain = catalogUnitDomain(q.unit);
    if (!domain) {
      std::string known;
      for (const std::string& u : catalogUnits()) known += (known.empty() ? "" : ", ") + u;
      return q.where + ": unknown unit \"" + q.unit + "\" (known: " + known + ")";
    }
    if (std::string why = domainError(orZero(*domain), q.value); !why.empty()) {
      return q.where + ": \"value\" " + numberText(q.value) + " " + why + " (" +
             describeDomain(orZero(*domain)) + ")";
    }
    if (!node.contains("source") || !node["source"].is_string() ||
        node["source"].get<std::string>().empty()) {
      return q.where + ": every figure needs a non-empty \"source\"";
    }
    q.source = node["source"].get<std::string>();
    if (!node.contains("basis") || !node["basis"].is_string()) {
      return q.where +
             ": every figure needs a \"basis\" (vendor, paper, measured, derived, estimate)";
    }
    auto basis = parseBasis(node["basis"].get<std::string>());
    if (!basis) {
      return q.where + ": unknown basis \"" + node["basis"].get<std::string>() +
             "\" (vendor, paper, measured, derived, estimate)";
    }
    q.basis = *basis;
    if (node.contains("note") && node["note"].is_string()) q.note = node["note"].get<std::string>();
    for (const auto& [key, _] : node.items()) {
      if (key != "value" && key != "unit" && key != "source" && key != "basis" && key != "note") {
        return q.where + ": unknown field \"" + key + "\" in a figure";
      }
    }
    out.emplace(dotted, std::move(q));
    return "";
  }
  if (node.is_object()) {
    for (const auto& [key, child] : node.items()) {
      if (key.find('.') != std::string::npos) {
        return file.where(pointer / key) + ": keys may not contain '.'";
      }
      std::string error =
          collect(file, child, pointer / key, dotted.empty() ? key : dotted + "." + key, out);
      if (!error.empty()) return error;
    }
  }
  return "";
}

Result<Catalog> merge(const std::vector<JsonFile>& files) {
  Catalog catalog;
  json root = json::object();
  std::map<std::string, std::string> sectionFile;
  std::map<std::string, Quantity> quantities;
  for (const JsonFile& file : files) {
    if (!file.root.is_object()) {
      return Result<Catalog>::failure(file.path.string() +
                                      ":1: a catalog file must be a JSON object");
    }
    for (const auto& [section, node] : file.root.items()) {
      if (auto it = sectionFile.find(section); it != sectionFile.end()) {
        return Result<Catalog>::failure(file.where(json::json_pointer("/" + section)) +
                                        ": section \"" + section + "\" is already defined in " +
                                        it->second);
      }
      sectionFile[section] = file.path.string();
      root[section] = node;
    }
    std::string error = collect(file, file.root, json::json_pointer(), "", quantities);
    if (!error.empty()) return Result<Catalog>::failure(error);
  }
  return Catalog::fromParts(std::move(root), std::move(quantities));
}

}  // namespace

Catalog Catalog::fromParts(nlohmann::json root, std::map<std::string, Quantity> quantities) {
  Catalog c;
  c.m_root = std::move(root);
  c.m_quantities = std::move(quantities);
  return c;
}

Result<Catalog> Catalog::loadDirectory(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return Result<Catalog>::failure(dir.string() + ": catalog directory not found");
  }
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json")
      paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  std::vector<JsonFile> files;
  for (const auto& path : paths) {
    auto file = readJsonFile(path);
    if (!file) return Result<Catalog>::failure(file.error());
    files.push_back(std::move(*file));
  }
  return merge(files);
}

Result<Catalog> Catalog::loadTexts(const std::map<std::string, std::string>& namedTexts) {
  std::vector<JsonFile> files;
  for (const auto& [name, text] : namedTexts) {
    auto file = parseJsonText(text, name);
    if (!file) return Result<Catalog>::failure(file.error());
    files.push_back(std::move(*file));
  }
  return merge(files);
}

const Quantity* Catalog::find(const std::string& dottedPath) const {
  auto it = m_quantities.find(dottedPath);
  return it == m_quantities.end() ? nullptr : &it->second;
}

const nlohmann::json* Catalog::json(const std::string& dottedPath) const {
  const nlohmann::json* node = &m_root;
  size_t start = 0;
  while (start <= dottedPath.size() && !dottedPath.empty()) {
    size_t end = dottedPath.find('.', start);
    std::string key =
        dottedPath.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!node->is_object() || !node->contains(key)) return nullptr;
    node = &(*node)[key];
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return node;
}

std::vector<std::string> Catalog::children(const std::string& dottedPath) const {
  std::vector<std::string> names;
  const nlohmann::json* node = json(dottedPath);
  if (node && node->is_object()) {
    for (const auto& [key, _] : node->items()) names.push_back(key);
  }
  std::sort(names.begin(), names.end());
  return names;
}

namespace {

// The data of an installed program: BINDIR/../share/dcwalk beside the running executable
// (DCWALK_INSTALLED_ASSETS_RELATIVE, from CMake's install folders), when it holds a catalog;
// empty for a binary in a build tree, which has no such folder beside it.
std::filesystem::path installedAssetsDir() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const std::filesystem::path dir =
      (exe.parent_path() / DCWALK_INSTALLED_ASSETS_RELATIVE).lexically_normal();
  return std::filesystem::is_directory(dir / "catalog", ec) ? dir : std::filesystem::path{};
}

const std::filesystem::path& installedAssets() {
  static const std::filesystem::path dir = installedAssetsDir();  // the executable never moves
  return dir;
}

}  // namespace

std::filesystem::path assetsDir() {
  if (const char* env = std::getenv("DCWALK_ASSETS"); env && *env) return env;
  if (runningInstalled()) return installedAssets();
  return DCWALK_DEFAULT_ASSETS_DIR;
}

bool runningInstalled() {
  return !installedAssets().empty();
}

}  // namespace sim
